"""A club's own counters and the generic resolvers a pack composes (issue 35.3): a
counter declared in a pack, changed by `gain` (an amount, a die, per counted thing) and by
a table row's or an option's effects, held at its `min`; `choose` (up to N, each once) and
`item` (give, take); every one checked by the pack check with the key it is about; a
gang's counters validated when its file loads. Every pack here is TEST DATA.
"""

from __future__ import annotations

from munda_tui.rules.postbattle.changes import change_to_data

import random
from pathlib import Path

import pytest

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.saves.packs import load_packs
from postbattle_support import ESCHER, GOLIATH, demo_outcome, drive, make_seq

COUNTERS = '[[counters]]\nid = "test_scrap"\nname = "Test scrap"\nmin = 0\n'
HEAD = ('id = "test-steps"\ntitle = "Test steps"\nchoice = "Test steps (test data)"\n'
        'order = 90\nsource = "test data"\n')


def pack(root: Path, steps: str, tables: str = "", counters: str = COUNTERS) -> Path:
    folder = root / "packs" / "test-club"
    (folder / "postbattle").mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club"\nversion = "1"\n',
                                      encoding="utf-8")
    if counters:
        (folder / "counters.toml").write_text(counters, encoding="utf-8")
    path = folder / "postbattle" / "test-steps.toml"
    path.write_text(HEAD + steps + tables, encoding="utf-8")
    return path


def walk(root: Path, answers: dict[str, object] | None = None) -> pb.PostBattle:
    packs = load_packs(root)
    assert packs.problems == []
    seq = make_seq("gang-war")
    seq = pb.PostBattle(seq.base, 1, pb.new_draft("test-steps", data=packs.data),
                        demo_outcome(), data=packs.data)
    for _ in range(200):
        if seq.pending is not None and seq.pending.id in (answers or {}):
            seq.answer((answers or {})[seq.pending.id])
            continue
        break
    return drive(seq, random.Random(3))


def step(body: str) -> str:
    return f'\n[[steps]]\nid = "s"\ntitle = "Test step"\ntext = "test data"\n{body}'


def test_a_counter_gains_an_amount_a_die_or_per_thing_and_stops_at_its_min(tmp_path: Path) -> None:
    pack(tmp_path, step('resolver = "gain"\nwhat = "test_scrap"\namount = 3\nper = "territories"\n')
         + step('resolver = "gain"\nwhat = "test_scrap"\ndice = "D3"\n').replace('"s"', '"d"')
         + step('resolver = "gain"\nwhat = "test_scrap"\namount = -50\n').replace('"s"', '"l"'))
    seq = walk(tmp_path)
    for gid in (ESCHER, GOLIATH):
        assert seq.work.gang(gid).counters == {"test_scrap": 0}  # (held at min 0)
    changes = [change_to_data(ch) for ch in seq.changes() if ch.kind == "counter"]
    assert [ch["amount"] for ch in changes if ch["step"] == "s"] == [6, 6]  # 2 Territories each
    rolled = [ch["amount"] for ch in changes if ch["step"] == "d"]
    assert len(rolled) == 2 and all(1 <= a <= 3 for a in rolled)
    assert [ch["amount"] for ch in changes if ch["step"] == "l"] == [-(6 + r) for r in rolled]


def test_choose_picks_up_to_n_each_once_and_item_gives_and_takes(tmp_path: Path) -> None:
    options = ('options = [\n  { name = "Test coins", effects = [{ gain = "credits", amount = 5 }] },\n'
               '  { name = "Test trinket", effects = [{ add_item = "Test trinket", cost = 5 }] },\n'
               '  { name = "Test melt", effects = [{ gain = "test_scrap", amount = 2 }, '
               '{ remove_item = "Lasgun" }] },\n]\npick = 2\nat_least = 1\n')
    pack(tmp_path, step(f'resolver = "choose"\n{options}')
         + step('resolver = "item"\nadd = "Test badge"\neach = "fighter"\n[steps.filter]\n'
                'role = ["Leader"]\n').replace('"s"', '"i"'))
    before = make_seq("gang-war").base
    seq = walk(tmp_path, {f"s:{ESCHER}": ["o2", "o0"], f"s:{GOLIATH}": ["o1"]})
    esc, gol = seq.work.gang(ESCHER), seq.work.gang(GOLIATH)
    assert esc.counters == {"test_scrap": 2}
    assert esc.credits == before.gang(ESCHER).credits + 5
    assert "Lasgun" not in [e.name for e in esc.stash]
    assert [e.name for e in gol.stash].count("Test trinket") == 1 and gol.counters == {}
    leaders = [f for g in (esc, gol) for f in g.fighters if f.type.value == "Leader"]
    assert leaders and all("Test badge" in [e.name for e in f.equipment] for f in leaders)
    prompt = seq.prompts[f"s:{ESCHER}"]
    assert (prompt.kind, prompt.minimum, prompt.maximum) == ("multi", 1, 2)
    with pytest.raises(ValueError, match="at most 2"):
        prompt.validate(["o0", "o1", "o2"])
    assert prompt.validate(["o0", "o0"]) == ["o0"]  # (each option once)
    # undo: the step walked again from its answers gives the same, its changes one list
    again = pb.PostBattle(seq.base, 1, seq.draft, demo_outcome(), data=seq.data)
    assert again.work.gang(ESCHER).counters == {"test_scrap": 2}


@pytest.mark.parametrize("body, where, says", [
    ('resolver = "gain"\nwhat = "test_scarp"\namount = 1\n', "steps[0].what", "test_scrap"),
    ('resolver = "choose"\noptions = [{ name = "A" }]\npick = 2\n', "steps[0].pick", "from 1 to 1"),
    ('resolver = "choose"\noptions = [{ name = "A", efects = [] }]\n', "steps[0].options[0].efects",
     "did you mean 'effects'"),
    ('resolver = "choose"\noptions = [{ name = "A", effects = [{ add_item = 3 }] }]\n',
     "steps[0].options[0].effects[0].add_item", "item's name"),
    ('resolver = "item"\nadd = "A"\nremove = "B"\n', "steps[0].add", "add = "),
    ('resolver = "item"\nremove = "B"\ncost = 5\n', "steps[0].cost", "no cost"),
])
def test_the_pack_check_says_a_wrong_generic_step_with_its_key(
        tmp_path: Path, body: str, where: str, says: str) -> None:
    path = pack(tmp_path, step(body))
    problems = load_packs(tmp_path).problems
    assert len(problems) == 1 and problems[0].startswith(f"{path}:"), problems
    assert f"{where}: " in problems[0] and says in problems[0], problems[0]


@pytest.mark.parametrize("text, says", [
    ('[[counters]]\nid = "credits"\nname = "X"\n', "counters[0].id: 'credits' is a gain"),
    ('[[counters]]\nid = "Test Scrap"\nname = "X"\n', "counters[0].id: must be an id"),
    ('[[counters]]\nid = "test_scrap"\nname = "X"\nmni = 0\n', "did you mean 'min'"),
    ('[[counters]]\nid = "test_scrap"\nname = "X"\nmin = "zero"\n', "counters[0].min: must be a whole"),
])
def test_a_wrong_counter_is_said_and_left_out(tmp_path: Path, text: str, says: str) -> None:
    pack(tmp_path, step('resolver = "set_status"\nstatus = "active"\n'), counters=text)
    problems = load_packs(tmp_path).problems
    assert any(says in p and "counters.toml:" in p for p in problems), problems


def test_a_gangs_counters_are_checked_when_its_file_loads(tmp_path: Path) -> None:
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store
    from munda_tui.saves.check import check_paths

    campaign = demo_campaign()
    campaign.gangs[0].counters = {"test_scrap": 3}
    with Store(tmp_path).create_campaign(campaign) as handle:
        path = handle.path / "gangs" / f"{campaign.gangs[0].id}.toml"
    text = path.read_text(encoding="utf-8")
    assert "counters = {test_scrap = 3}" in text and check_paths([path]) == []
    with Store(tmp_path).open_campaign(campaign.id) as handle:  # (kept, its pack missing)
        assert handle.campaign.gangs[0].counters == {"test_scrap": 3}
    for bad, says in (("{test_scrap = \"three\"}", "counters.test_scrap: expected an integer"),
                      ("{\"Test Scrap\" = 1}", "a counter's id is lower-case"),
                      ("{test_scrap = 99999999}", "counters.test_scrap:")):
        path.write_text(text.replace("{test_scrap = 3}", bad), encoding="utf-8")
        problems = check_paths([path])
        assert len(problems) == 1 and problems[0].startswith(f"{path}:"), problems
        assert says in problems[0], problems[0]
