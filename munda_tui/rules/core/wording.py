"""Small wording helpers: "1 gang" / "2 gangs", "the Marauders' roster"."""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, word: str, words: str | None = None) -> str:
    """``plural(1, "gang")`` -> "1 gang"; ``plural(3, "gang")`` -> "3 gangs"."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def possessive(name: str) -> str:
    """``"Vexa"`` -> "Vexa's"; ``"The Marauders"`` -> "The Marauders'" (a plural name)."""
    name = name.rstrip()
    if not name:
        return name
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'title'?)`` for a misspelt key, else `` (known keys: a, b)``."""
    import difflib

    known = sorted(set(known))
    close = difflib.get_close_matches(word, known, n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known keys: {', '.join(known)})"
