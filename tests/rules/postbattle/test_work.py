"""The post-battle sequence works on a copy: only the gangs it looks up are copied,
and the live campaign is untouched until the commit, however the sequence goes."""

from __future__ import annotations

from munda_tui.rules.postbattle.changes import change_to_data

import copy
import random

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import FighterStatus, Gang, GangType
from postbattle_support import ESCHER, GOLIATH, drive, make_seq


def _league():  # type: ignore[no-untyped-def]
    c = demo_campaign()
    third = copy.deepcopy(c.gang(GOLIATH))
    third.id, third.name, third.type = "third-gang", "Third Gang", GangType.ORLOCK
    held = third.fighters[0]
    held.status, held.captured_by = FighterStatus.CAPTURED, ESCHER  # held by the winners
    c.gangs.append(third)
    c.gangs.append(Gang(id="bystanders", name="Bystanders"))
    return c


def test_the_live_campaign_is_untouched_and_bystanders_shared() -> None:
    c = _league()
    seq = make_seq(campaign=c)  # adds battle 1's summary
    before = copy.deepcopy(c)
    drive(seq, random.Random(3))
    assert c == before  # every answer replayed on the copy, nothing on the live campaign
    assert seq.work.gangs[-1] is c.gangs[-1]  # a gang the sequence never looked up: shared
    assert seq.work.gang(ESCHER) is not c.gang(ESCHER)
    assert seq.work.battles is c.battles  # read only by the sequence
    changed = {ch.gang for ch in seq.changes()}
    assert changed and changed <= {g.id for g in seq.work.gangs}


def test_the_commit_applies_to_a_whole_copy() -> None:
    c = _league()
    seq = make_seq(campaign=c)  # adds battle 1's summary
    before = copy.deepcopy(c)
    drive(seq, random.Random(5))
    new = pb.applied_campaign(c, 1, {"changes": [change_to_data(ch) for ch in seq.changes()], "standings": {}, "winner": ESCHER})
    assert c == before and new is not c
    assert new.gang("bystanders") == c.gang("bystanders")


def test_a_huge_number_typed_is_out_of_the_prompts_range() -> None:
    # 'Toughness improves by' 99999999999999999999: the prompt's range, not "too large to
    # save (TOML integers are 64-bit)"
    import pytest

    from munda_tui.rules.postbattle.core import Prompt

    by = Prompt("x:by", "number", "Brakk Ironjaw: Toughness improves by", minimum=1, maximum=2)
    with pytest.raises(ValueError, match=r"^a 20-digit number is out of range \(1 to 2\)$"):
        by.validate("99999999999999999999")
    with pytest.raises(ValueError, match=r"out of range \(0 to "):
        Prompt("x:cost", "number", "credits", minimum=0).validate("9" * 40)
    assert by.validate("2") == 2


def test_each_live_gang_is_pickled_once_per_sequence(monkeypatch) -> None:
    """Every answer replays the sequence on a new copy: the live gangs' pickles are made
    once and loaded again, and each replay still starts from the live gangs."""
    import pickle

    c = _league()
    seq = make_seq(campaign=c)
    dumps: list[object] = []
    real = pickle.dumps
    monkeypatch.setattr(pb.pickle, "dumps", lambda obj, *a: dumps.append(obj) or real(obj, *a))
    before = copy.deepcopy(c)
    drive(seq, random.Random(3))
    assert c == before
    # (the rest are the marks' copies of the gangs the sequence changed: never a live one)
    live = [d for d in dumps if any(d is g for g in c.gangs)]
    assert len(live) <= 2 and len({id(d) for d in live}) == len(live)
    fresh = pb.PostBattle(c, 1, copy.deepcopy(seq.draft), seq.tracker_outcome)
    assert fresh.work.gang(ESCHER) == seq.work.gang(ESCHER)  # the same result as a new walk
    assert fresh.changes() == seq.changes()
