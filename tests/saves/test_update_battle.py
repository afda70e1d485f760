"""CampaignHandle.update_battle: one part of a battle file replaced, the others kept."""

from __future__ import annotations

import pytest

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.prebattle.scenario import new_setup
from munda_tui.saves import SaveError, Store
from munda_tui.saves import store as store_module


def _handle(tmp_path):  # type: ignore[no-untyped-def]
    return Store(tmp_path / "saves").create_campaign(demo_campaign())


def _setup(step: str) -> dict:  # type: ignore[type-arg]
    setup = new_setup(1, "venom-sisters", "iron-skulls")
    setup.step = step
    return setup.to_data()


def test_a_part_is_replaced_and_the_others_kept(tmp_path) -> None:
    with _handle(tmp_path) as h:
        h.update_battle(1, "setup", _setup("gangs"))
        assert h.load_battle(1) == {"setup": _setup("gangs")}
        h.update_battle(1, "report", {"markdown": "# Battle 1"})
        h.update_battle(1, "setup", _setup("summary"))
        assert h.load_battle(1) == {"setup": _setup("summary"),
                                    "report": {"markdown": "# Battle 1"}}


def test_no_second_read_while_nobody_else_wrote_the_file(tmp_path, monkeypatch) -> None:
    with _handle(tmp_path) as h:
        h.update_battle(1, "setup", _setup("gangs"))
        reads = []
        real = store_module.read_text
        monkeypatch.setattr(store_module, "read_text",
                            lambda *a, **k: reads.append(a) or real(*a, **k))
        for step in ("battlefield", "scenario", "crews"):
            h.update_battle(1, "setup", _setup(step))
        assert reads == []
        assert h.load_battle(1)["setup"] == _setup("crews")


def test_an_edit_from_outside_is_read_before_the_part_is_replaced(tmp_path) -> None:
    with _handle(tmp_path) as h:
        h.update_battle(1, "setup", _setup("gangs"))
        path = h.battle_path(1)
        path.write_text(path.read_text(encoding="utf-8") + '\n[report]\nmarkdown = "by hand"\n',
                        encoding="utf-8")
        h.update_battle(1, "setup", _setup("summary"))
        assert h.load_battle(1)["report"] == {"markdown": "by hand"}


def test_a_file_that_does_not_load_is_never_written_over(tmp_path) -> None:
    with _handle(tmp_path) as h:
        h.battles_dir.mkdir(parents=True, exist_ok=True)
        path = h.battle_path(2)
        path.write_text("this is [not toml\n", encoding="utf-8")
        with pytest.raises(SaveError):
            h.update_battle(2, "setup", _setup("gangs"))
        assert path.read_text(encoding="utf-8") == "this is [not toml\n"


def test_the_part_alone_is_checked_and_a_bad_one_found_by_the_next_load(tmp_path, monkeypatch) -> None:
    """The post-battle sequence saves its draft on every step: the parts it keeps are not
    checked (nor written) again; a part that does not pass is still found when the file is
    next loaded, as before."""
    from munda_tui.saves import battle_schema

    with _handle(tmp_path) as h:
        h.update_battle(1, "setup", _setup("gangs"))
        h.update_battle(1, "battle", {"log": [{"kind": "start"}]})
        checks: list[object] = []
        real = store_module.load_battle_file
        monkeypatch.setattr(store_module, "load_battle_file",
                            lambda *a, **k: checks.append(a) or real(*a, **k))
        for n in range(3):
            h.update_battle(1, "report", {"markdown": f"# Battle 1, take {n}"})
        assert checks == []
        whole = h.load_battle(1)
        assert whole == {
            "setup": _setup("gangs"), "battle": {"log": [{"kind": "start"}]},
            "report": {"markdown": "# Battle 1, take 2"}}
        import tomllib
        assert tomllib.loads(h.battle_path(1).read_text(encoding="utf-8")) == {
            "schema_version": 1, "number": 1, **whole}
        with pytest.raises(battle_schema.ValidationError):
            battle_schema.check_part("report", {"markdown": 5})
        h.update_battle(1, "report", {"markdown": 5})  # written, as before; the load says it
        with pytest.raises(SaveError):
            h.load_battle(1)


def test_a_part_the_rules_made_is_not_checked_again(tmp_path, monkeypatch) -> None:
    """The tracker saves its record on every key with ``checked=True``: neither its part
    nor the file is checked again, and the next load in the session is still a copy."""
    from munda_tui.saves import battle_schema

    with _handle(tmp_path) as h:
        h.update_battle(1, "setup", _setup("gangs"))
        checks: list[object] = []
        monkeypatch.setattr(battle_schema, "check_part", lambda *a: checks.append(a))
        real = store_module.load_battle_file
        monkeypatch.setattr(store_module, "load_battle_file",
                            lambda *a, **k: checks.append(a) or real(*a, **k))
        for n in range(3):
            h.update_battle(1, "battle", {"log": [{"kind": "start"}], "n": n}, checked=True)
        assert checks == []
        assert h.load_battle(1) == {"setup": _setup("gangs"),
                                             "battle": {"log": [{"kind": "start"}], "n": 2}}


def test_kept_parts_are_its_own_copies_and_the_file_reads_the_same(tmp_path, monkeypatch) -> None:
    """update_battle keeps the parts of the battle it wrote last (their JSON and a copy):
    a caller changing what it passed changes nothing kept, nothing is read or parsed
    again, and every write is the text a whole write of the same data gives."""
    import tomllib

    from munda_tui.saves import tomlemit
    from munda_tui.saves.folder import battle_plain

    with _handle(tmp_path) as h:
        log = {"log": [{"kind": "start", "round": i} for i in range(50)]}
        h.update_battle(1, "setup", _setup("gangs"))
        h.update_battle(1, "battle", log, checked=True)
        report = {"markdown": "take 0"}
        reads: list[object] = []
        real = store_module.read_text
        monkeypatch.setattr(store_module, "read_text",
                            lambda *a, **k: reads.append(a) or real(*a, **k))
        for step in range(1, 5):
            h.update_battle(1, "report", report)
            report["markdown"] = f"take {step}"  # a draft changed in place after its save
            log["log"].append({"kind": "start"})  # (the tracker's data, changed: not kept)
        assert reads == []
        whole = {"setup": _setup("gangs"),
                 "battle": {"log": [{"kind": "start", "round": i} for i in range(50)]},
                 "report": {"markdown": "take 3"}}
        text = h.battle_path(1).read_text(encoding="utf-8")
        assert text == tomlemit.dumps(battle_plain(1, None, whole))
        assert tomllib.loads(text) == {"schema_version": 1, "number": 1, **whole}
        assert h.load_battle(1) == whole
        h.update_battle(1, "setup", _setup("summary"))  # the parts keep their order
        text = h.battle_path(1).read_text(encoding="utf-8")
        assert text == tomlemit.dumps(battle_plain(1, None, {**whole, "setup": _setup("summary")}))
