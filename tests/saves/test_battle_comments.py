"""Comments in a battle file are put back into the fast writer's text at their statements
(issue 26 item 18 kept, without tomlkit's seconds on a long log): a whole-line comment
before its header or key, an end-of-line comment after its value, the last ones at the
end; a comment whose statement is gone goes before the next one still there. The text
reads back as the data, every comment in it once."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from support import examples

from munda_tui.saves import battle_comments as bc
from munda_tui.saves import tomlemit
from munda_tui.saves.files import load_battle_file

from munda_tui.saves import Store
from scripts.generate import generated_battle_file


def _battle(tmp_path, events: int = 6):  # type: ignore[no-untyped-def]
    campaign, data = generated_battle_file(seed=3, per_side=4, events=events)
    store = Store(tmp_path / "saves")
    notices: list[str] = []
    store.on_notice = notices.append
    handle = store.create_campaign(campaign)
    handle.save_battle(1, data)
    return store, handle, data, notices


def _next_event(data: dict) -> dict:  # type: ignore[type-arg]
    battle = dict(data["battle"])
    battle["log"] = [*battle["log"], {"kind": "note", "note": "one more", "round": 1}]
    return battle

_words = hs.text(alphabet="ab #=[]\"'.é", max_size=8)
_value = hs.one_of(hs.integers(-9, 9), hs.booleans(), _words,
                   hs.lists(hs.one_of(hs.integers(0, 3), _words), max_size=3))
_event = hs.dictionaries(hs.sampled_from(["kind", "fighter", "a b", "n", "note"]), _value,
                         min_size=1, max_size=4)


def _data(events: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": 1, "number": 3,
            "setup": {"step": "summary", "sides": [{"gang": "a", "crew": [{"fighter": "f1"}]},
                                                   {"gang": "b", "crew": [{"fighter": "f2"}]}]},
            "battle": {"start_walked": True, "log": events, **extra}}


def _commented(text: str, rng: random.Random, count: int) -> tuple[str, list[str]]:
    """``text`` with ``count`` comments a player could write: lines before a statement,
    at the end of a statement's line, at the very end."""
    lines = text.rstrip("\n").split("\n")
    comments = []
    for n in range(count):
        comment = f"# note {n}: {rng.choice(['as played', 'x = 1', '[not a table]', 'ré'])}"
        statements = [i for i, ln in enumerate(lines) if ln and not ln.startswith("#")]
        how = rng.choice(["before", "after", "end"])
        if how == "end":
            lines.append(comment)
        elif how == "before":
            lines.insert(rng.choice(statements), comment)
        else:
            free = [i for i in statements if "  # note" not in lines[i]]
            if not free:
                continue
            lines[rng.choice(free)] += "  " + comment
        comments.append(comment)
    return "\n".join(lines) + "\n", comments


@settings(max_examples=examples(60), deadline=None)
@given(events=hs.lists(_event, min_size=1, max_size=6), more=hs.lists(_event, max_size=3),
       undo=hs.booleans(), extra=hs.dictionaries(hs.sampled_from(["redo", "seen"]), _value, max_size=2),
       seed=hs.integers(0, 10_000), count=hs.integers(1, 6))
def test_comments_are_put_back_where_they_were_and_the_text_reads_back(
        events: list[dict[str, Any]], more: list[dict[str, Any]], undo: bool, extra: dict[str, Any],
        seed: int, count: int) -> None:
    data = _data(events, extra)
    fast = tomlemit.dumps(data)
    text, comments = _commented(fast, random.Random(seed), count)
    assert tomllib.loads(text) == data  # (a file as a player commented it)
    kept = bc.read_comments(text)
    again, _ = bc.place(kept, fast)
    assert again == text  # the same data: the same text, comments where they were
    # the next saves: an event recorded, or the last one undone
    log = events[:-1] if undo else events + more
    new = _data(log, extra)
    written, placed = bc.place(kept, tomlemit.dumps(new))
    assert tomllib.loads(written) == new
    for comment in comments:
        assert written.count(comment) == 1, comment
    assert bc.place(placed, tomlemit.dumps(new))[0] == written  # and the save after that


def test_a_commented_battle_file_is_saved_without_tomlkit(tmp_path, monkeypatch) -> None:
    import tomlkit

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("tomlkit used")

    monkeypatch.setattr(tomlkit, "parse", refuse)
    store, h, data, notices = _battle(tmp_path, events=40)
    with h:
        path = h.battle_path(1)
        lines = path.read_text(encoding="utf-8").split("\n")
        first = lines.index("[[battle.log]]")
        lines.insert(first, "# the log, as the table played it")
        lines[first + 2] += "  # the first event"
        lines.insert(0, "# Battle 1 (by hand)")
        path.write_text("\n".join(lines) + "# the end\n", encoding="utf-8")
        h.load_battle(1)
        battle = data["battle"]
        for _ in range(3):
            battle = _next_event({"battle": battle})
            h.update_battle(1, "battle", battle, checked=True)
        text = path.read_text(encoding="utf-8")
        for comment in ("# Battle 1 (by hand)\n", "# the log, as the table played it\n[[battle.log]]\n",
                        "  # the first event\n", "# the end\n"):
            assert text.count(comment) == 1, comment
        assert load_battle_file(path)[0]["battle"] == battle and notices == []


@pytest.mark.parametrize("edit", ["array", "string"])
def test_a_comment_this_cannot_place_is_kept_by_tomlkit(tmp_path, edit: str) -> None:
    """A comment inside a value written over several lines, or a file with a multi-line
    string: updated in place with tomlkit, as before (used only if it reads back)."""
    store, h, data, notices = _battle(tmp_path)
    with h:
        path = h.battle_path(1)
        text = path.read_text(encoding="utf-8")
        if edit == "array":
            gangs = next(ln for ln in text.split("\n") if ln.startswith("gangs = ["))
            a, b = (g.strip() for g in gangs[len("gangs = ["):-1].split(","))
            text = text.replace(gangs, f"gangs = [\n  {a},  # ours\n  {b},\n]")
        else:
            text = text.replace('objective = "Generated"', '# ours\nobjective = """Generated"""')
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError):
            bc.read_comments(text)
        h.load_battle(1)
        h.update_battle(1, "battle", _next_event(data))
        assert "# ours\n" in path.read_text(encoding="utf-8")
        assert load_battle_file(path)[0]["battle"] == _next_event(data)
