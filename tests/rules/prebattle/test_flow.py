"""The pre-battle flow's crew draft (rules.prebattle.PreBattle, Core Rules p145-146):
a crew half-made is kept in the set-up, checked and dealt by the rules, not by a screen."""

from __future__ import annotations

import random

import pytest

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.prebattle.setup import BattleSetup, CrewDraft, CrewMember
from munda_tui.saves.battle_schema import check_setup
from munda_tui.saves.codec import ValidationError

VS, IS = "venom-sisters", "iron-skulls"


def flow(crew_entry: str = "Escalating Engagement") -> pre.PreBattle:
    tables = sc.packaged_tables()
    setup = sc.new_setup(1, VS, IS)
    sc.apply_crew_entry(setup, tables["crew"].entry(crew_entry))
    return pre.PreBattle(demo_campaign(), 1, tables, setup=setup)


def test_a_hybrid_crew_is_chosen_step_by_step_and_checked_at_each() -> None:
    pb = flow()  # Hybrid (3+D3), Reinforcements (5)
    assert pb.crew_method(VS).label == "Hybrid (3+D3)"
    assert pb.crew_amount(VS, "x") == 3 and pb.crew_amount(VS, "y") is None
    assert pb.crew_problems(VS) == ["Roll Y first ({key:crew_step.amount-y})."]
    assert pb.toggle_pick(VS, "vexa-nightshade") == ""  # X is fixed: choosing may begin
    assert pb.crew_problems(VS) == ["Roll Y first ({key:crew_step.amount-y})."]
    pb.set_amount(VS, "y", 2, "chosen")
    assert pb.crew_counts(VS) == (3, 2)
    assert pb.crew_problems(VS) == ["Choose 3 fighters first ({key:crew_step.toggle}), 1 chosen."]  # not "fighter(s)"
    assert pb.toggle_pick(VS, "sable-thorn") == ""
    assert pb.toggle_pick(VS, "kira-ashfall") == ""
    assert pb.toggle_pick(VS, "lys-venom") == "3 already chosen."
    assert pb.toggle_pick(VS, "kira-ashfall") == ""  # chosen again: unchosen
    assert [m.fighter for m in pb.crew_draft(VS).picks] == ["vexa-nightshade", "sable-thorn"]
    assert pb.toggle_pick(VS, "nobody") == "No fighter 'nobody' in The Venom Sisters."
    pb.choose_card(VS, "sable-thorn", "Sable Thorn (twin stiletto knives)")
    with pytest.raises(sc.CrewError, match="no Model Card"):
        pb.choose_card(VS, "vexa-nightshade", "a card she has not")
    pb.toggle_pick(VS, "lys-venom")
    assert pb.crew_problems(VS) == []
    assert pb.needs_cards(VS)  # Y and the Reinforcements are dealt


def test_dealing_uses_the_rng_given_and_empties_the_draft_into_the_crew() -> None:
    crews = []
    for _ in range(2):
        pb = flow()
        pb.set_amount(VS, "y", 2, "chosen")
        for f in ("vexa-nightshade", "sable-thorn", "lys-venom"):
            pb.toggle_pick(VS, f)
        pb.choose_card(VS, "sable-thorn", "Sable Thorn (twin stiletto knives)")
        pb.deal_crew(VS, random.Random(5))
        side = pb.side(VS)
        crews.append((side.crew, side.reinforcements))
        assert len(side.crew) == 5 and len(side.reinforcements) == 4  # 9 fighters: 4 left for 5
        assert side.crew[:3] == [CrewMember("vexa-nightshade"),
                                 CrewMember("sable-thorn", "Sable Thorn (twin stiletto knives)"),
                                 CrewMember("lys-venom")]
        assert side.draft.empty()
        y = sc.find_roll(pb.setup.rolls, "crew_y", VS)
        assert y is not None and y["how"] == "chosen" and y["result"] == "2"
        assert pb.crew_amount(VS, "y") == 2  # still shown once the crew is chosen, from its record
        assert pb.crew_problems(VS) == []
        assert pb.toggle_pick(VS, "pip-hollow") == "The crew is chosen: {key:crew_step.redo} redoes it."
    assert crews[0] == crews[1]  # the same seed deals the same crew


def test_a_random_crew_deals_all_of_it_and_refuses_a_pick() -> None:
    pb = flow()
    pb.set_crew_method(VS, "Random (D3+2)")
    assert pb.crew_amount(VS, "x") is None
    assert pb.toggle_pick(VS, "vexa-nightshade") == "Roll X first ({key:crew_step.amount-x})."
    x = pb.roll_amount(VS, "x", random.Random(1))
    assert 3 <= x <= 5 and pb.crew_counts(VS) == (0, x)
    assert pb.toggle_pick(VS, "vexa-nightshade") == "Random (D3+2) deals the whole crew: press {key:crew_step.deal}."
    rec = pb.amount_record(VS, "x")
    assert rec is not None and rec["how"] == "app" and rec["total"] == x
    pb.deal_crew(VS, random.Random(2))
    assert len(pb.side(VS).crew) == x


def test_a_second_roll_keeps_the_first_and_a_smaller_x_drops_the_last_picks() -> None:
    pb = flow()
    pb.set_crew_method(VS, "Custom (D3)")
    pb.set_amount(VS, "x", 3, "chosen")
    for f in ("vexa-nightshade", "sable-thorn", "kira-ashfall"):
        assert pb.toggle_pick(VS, f) == ""
    pb.set_amount(VS, "x", 1, "chosen", reason="misread die")
    assert [m.fighter for m in pb.crew_draft(VS).picks] == ["vexa-nightshade"]
    rec = pb.amount_record(VS, "x")
    assert rec is not None and rec["result"] == "1" and "misread die" in str(rec)
    with pytest.raises(sc.CrewError, match="4 cannot be"):
        pb.set_amount(VS, "x", 4, "chosen")


def test_changing_the_method_or_the_crew_table_or_redoing_starts_the_draft_again() -> None:
    pb = flow()
    pb.set_amount(VS, "y", 1, "chosen")
    pb.toggle_pick(VS, "vexa-nightshade")
    pb.set_crew_method(VS, "Custom (4)")
    assert pb.crew_draft(VS).empty() and pb.crew_method(VS).label == "Custom (4)"
    with pytest.raises(sc.CrewError):
        pb.set_crew_method(VS, "Lots (4)")
    pb.toggle_pick(VS, "vexa-nightshade")
    sc.apply_crew_entry(pb.setup, pb.tables["crew"].entry("Strike Force"))
    assert pb.crew_draft(VS).empty()
    for f in ("vexa-nightshade", "sable-thorn", "kira-ashfall", "lys-venom", "mara-quill"):
        pb.toggle_pick(VS, f)
    pb.commit_crew(VS, pb.select_crew(VS))
    pb.redo_crew(VS)
    assert pb.side(VS).crew == [] and pb.crew_draft(VS).empty()


def test_the_draft_is_saved_with_the_set_up_and_read_back() -> None:
    pb = flow()
    pb.set_amount(VS, "y", 3, "chosen")
    pb.toggle_pick(VS, "sable-thorn")
    pb.choose_card(VS, "sable-thorn", "Sable Thorn (twin stiletto knives)")
    data = pb.setup.to_data()
    assert "draft" not in data["sides"][1]  # no crew half-made: the file stays as it was
    check_setup(data)  # the battle file's schema takes it
    back = BattleSetup.from_data(data)
    assert back.sides[0].draft == pb.crew_draft(VS)
    assert back.sides[1].draft == CrewDraft()
    again = pre.PreBattle(demo_campaign(), 1, pb.tables, setup=back)
    assert again.crew_counts(VS) == (3, 3)
    assert again.crew_picks(VS) == [CrewMember("sable-thorn", "Sable Thorn (twin stiletto knives)")]


def test_a_hand_edited_draft_is_refused_by_type_and_read_safely_by_meaning() -> None:
    pb = flow()
    data = pb.setup.to_data()
    data["sides"][0]["draft"] = {"amounts": {"y": "two"}}
    with pytest.raises(ValidationError, match=r"sides\[0\]\.draft\.amounts\.y"):
        check_setup(data)
    data["sides"][0]["draft"] = {"picks": [{"fighter": "vexa-nightshade", "card": "x"}]}
    with pytest.raises(ValidationError, match="card"):
        check_setup(data)
    # well typed but meaningless: a Y the dice cannot show, a fighter twice or unknown
    data["sides"][0]["draft"] = {"amounts": {"y": 9},
                                 "picks": [{"fighter": "vexa-nightshade"}, {"fighter": "vexa-nightshade"},
                                           {"fighter": "nobody"}, {"fighter": "kira-ashfall", "loadout": "?"}]}
    check_setup(data)
    back = pre.PreBattle(demo_campaign(), 1, pb.tables, setup=BattleSetup.from_data(data))
    assert back.crew_amount(VS, "y") is None  # not rolled: roll it
    assert back.crew_picks(VS) == [CrewMember("vexa-nightshade")]
    assert back.crew_problems(VS) == ["Roll Y first ({key:crew_step.amount-y})."]
