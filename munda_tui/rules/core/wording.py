"""Small wording helpers: "1 gang" / "2 gangs", "the Marauders' roster"."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """``plural(1, "gang")`` -> "1 gang"; ``plural(3, "gang")`` -> "3 gangs"."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def possessive(name: str) -> str:
    """``"Vexa"`` -> "Vexa's"; ``"The Marauders"`` -> "The Marauders'" (a plural name)."""
    name = name.rstrip()
    if not name:
        return name
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
