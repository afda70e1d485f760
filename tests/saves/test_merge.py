"""Any sequence of edits saves in place (comments kept) and reads back the same."""

from __future__ import annotations

from munda_tui.rules.core.rulesets import ruleset_ids

import copy
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.core.model import BattleSummary, Equipment, Fighter, FighterStatus, Standing
from munda_tui.rules.core.profile import LIMITS
from munda_tui.saves import Store

texts = st.text(max_size=40)
small = st.integers(min_value=-5, max_value=10**6)


@st.composite
def edit(draw):
    kind = draw(st.sampled_from([
        "xp", "notes", "remove", "add", "shuffle", "equip", "unequip", "battle", "unbattle",
        "ruleset", "tactics", "stats", "status", "gang-notes", "standings",
    ]))
    return kind, draw(st.integers(0, 10**6)), draw(texts), draw(small)


def _apply(campaign, edit_, counter):
    kind, pick, text, number = edit_
    gangs = campaign.gangs
    gang = gangs[pick % len(gangs)]
    fighter = gang.fighters[pick % len(gang.fighters)] if gang.fighters else None
    if kind == "xp" and fighter:
        fighter.xp = abs(number)
    elif kind == "notes" and fighter:
        fighter.notes = text
    elif kind == "remove" and fighter:
        gang.fighters.remove(fighter)
    elif kind == "add":
        gang.fighters.insert(pick % (len(gang.fighters) + 1), Fighter(id=f"new-{counter}", name=text or "x", cost=abs(number)))
    elif kind == "shuffle":
        k = pick % len(gangs)
        gangs[:] = gangs[k:] + gangs[:k]
        gang.fighters.reverse()
    elif kind == "equip" and fighter:
        fighter.equipment.append(Equipment(text or "thing", number if number >= 0 else None, qty=1 + pick % 3))
    elif kind == "unequip" and fighter:
        fighter.equipment.clear()
    elif kind == "battle":
        campaign.battles.append(BattleSummary(campaign.next_battle_number(), scenario=text, gangs=[gang.id]))
    elif kind == "unbattle" and campaign.battles:
        campaign.battles.pop(pick % len(campaign.battles))
    elif kind == "ruleset":
        campaign.settings.post_battle_ruleset = ruleset_ids()[pick % 2]
    elif kind == "tactics":
        gang.tactics = [text] * (pick % 3)
    elif kind == "stats" and fighter:
        key = ("m", "ws", "bs")[pick % 3]
        lo, hi = LIMITS[key]  # a possible value (the codec refuses impossible ones)
        fighter.characteristics[key] = lo + abs(number) % (hi - lo + 1)
    elif kind == "status" and fighter:
        fighter.status = list(FighterStatus)[pick % len(FighterStatus)]
        if fighter.status is FighterStatus.DEAD:  # the dead leave the roster (as the app does)
            gang.bury(fighter.id)
        elif fighter.status is FighterStatus.RETIRED:  # and the retired, for the departed
            gang.depart(fighter.id)
    elif kind == "gang-notes":
        gang.notes = text
    elif kind == "standings" and campaign.battles:
        campaign.battles[pick % len(campaign.battles)].standings[gang.id] = Standing(abs(number), abs(number), abs(number))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(edit(), min_size=1, max_size=4), min_size=1, max_size=4))
def test_edits_save_in_place_and_read_back(full_campaign, batches):
    root = Path(tempfile.mkdtemp(prefix="munda-merge-"))
    try:
        store = Store(root)
        store.create_campaign(copy.deepcopy(full_campaign)).close()
        path = store.campaign_dir("full") / "campaign.toml"
        text = path.read_text(encoding="utf-8")
        marked = "# kept\n" + text.replace('name = "Full', 'name = "Full', 1).replace(
            "[settings]\n", "[settings] # settings comment\n", 1
        )
        path.write_text(marked, encoding="utf-8")
        counter = 0
        for batch in batches:
            with store.open_campaign("full") as handle:
                for e in batch:
                    counter += 1
                    _apply(handle.campaign, e, counter)
                expected = copy.deepcopy(handle.campaign)
                handle.save()
            with store.open_campaign("full") as handle:
                assert handle.campaign == expected
            saved = path.read_text(encoding="utf-8")
            # saved by updating the document in place, not rewritten from scratch
            assert saved.startswith("# kept\n")
            assert "[settings] # settings comment\n" in saved
    finally:
        shutil.rmtree(root, ignore_errors=True)


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_any_string_written_in_a_document_reads_back(text):
    import tomlkit
    import tomllib

    from munda_tui.saves.tomldoc import FLAT_LAYOUT, build_document

    doc = build_document({"notes": text, "list": [text, {"k": text}]}, FLAT_LAYOUT)
    assert tomllib.loads(tomlkit.dumps(doc)) == {"notes": text, "list": [text, {"k": text}]}
