"""Home screen: list, create (validated), delete (confirmed), open; help screen."""

from __future__ import annotations

from support import wait_for_screen, wait_until

from pathlib import Path

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store

SIZE = (100, 30)


async def _fixed_paths(pilot) -> None:
    """The data dir is a fresh tmp folder per test: show a fixed path instead."""
    await pilot.pause()
    for screen in pilot.app.screen_stack:
        for where in screen.query("#where"):
            where.update("Saves: /data/campaigns")


def _seed_campaigns(data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()


def test_home_snapshot_empty(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_fixed_paths)


def test_home_snapshot_with_campaign(snap_compare, make_app, data_dir) -> None:
    _seed_campaigns(data_dir)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_fixed_paths)


def test_help_screen_snapshot(snap_compare, make_app, data_dir) -> None:
    _seed_campaigns(data_dir)
    assert snap_compare(make_app(), terminal_size=SIZE, press=["question_mark"], run_before=_fixed_paths)


def test_new_campaign_form_error_snapshot(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, press=["n", "enter"], run_before=_fixed_paths)


async def test_create_campaign_by_keyboard(make_app, data_dir) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.press("enter")  # empty name: refused, form stays
        assert "Give the campaign a name" in str(app.screen.query_one("#name-error").render())
        for ch in "Sump Wars":
            await pilot.press(ch if ch != " " else "space")
        await pilot.press("enter")
        await pilot.pause()
    infos = Store(data_dir).list_campaigns()
    assert [(i.slug, i.name) for i in infos] == [("sump-wars", "Sump Wars")]


async def test_a_pasted_name_too_long_is_said_not_cut(make_app, data_dir) -> None:
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        field = app.screen.query_one("#name")
        field.post_message(events.Paste("Sump " * 2000))  # 10,000 characters
        await pilot.pause()
        assert len(field.value) == 10_000  # nothing cut or dropped without a word
        error = str(app.screen.query_one("#name-error").render())
        assert "The name is too long: 9,999 characters, at most 60" in error, error
        await pilot.press("enter")  # refused, still said
        assert "too long" in str(app.screen.query_one("#name-error").render())
        assert Store(data_dir).list_campaigns() == []
        await pilot.press("ctrl+u", *"Sump", "enter")
        await pilot.pause()
    assert [i.name for i in Store(data_dir).list_campaigns()] == ["Sump"]


async def test_duplicate_name_is_refused(make_app, data_dir) -> None:
    _seed_campaigns(data_dir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", *"demo", "enter")
        assert "exists already" in str(app.screen.query_one("#name-error").render())
        await pilot.press("escape")
    assert len(Store(data_dir).list_campaigns()) == 1


async def test_delete_asks_first(make_app, data_dir) -> None:
    _seed_campaigns(data_dir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "n")  # keep
        await pilot.pause()
        assert len(Store(data_dir).list_campaigns()) == 1
        await pilot.press("d", "y")  # delete
        await pilot.pause()
    assert Store(data_dir).list_campaigns() == []


async def test_add_demo_and_open_it(make_app, data_dir) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("D")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle is not None and app.handle.campaign.name == "Demo: Ashfall Sump"
        assert type(app.screen).__name__ == "CampaignScreen"


async def test_a_second_demo_is_told_apart_by_its_name(make_app, data_dir) -> None:
    """QA walk: D twice listed two "Demo: Ashfall Sump" rows, one indistinguishable from
    the other."""
    from munda_tui.saves import Store

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("D")
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
    names = sorted(info.name for info in Store(data_dir).list_campaigns())
    assert names == ["Demo: Ashfall Sump", "Demo: Ashfall Sump (2)"]


async def test_theme_persists_in_config(make_app, config_dir) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "nord"
        await pilot.pause()
    app2 = make_app()
    assert app2.theme == "nord"


async def test_palette_finds_a_subplot_card_by_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p", *"murder run")
        await pilot.pause(0.5)  # the palette searches in the background
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "CardViewerScreen"
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Murder Run" in text


async def test_palette_opens_a_campaign(make_app, data_dir) -> None:
    _seed_campaigns(data_dir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p", *"open campaign")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert app.handle is not None and app.handle.campaign.id == "demo"


async def test_the_palette_lists_campaigns_from_the_store_without_reading_the_folders(make_app, data_dir) -> None:
    """The palette asks for its commands at each open: the campaigns come from the list
    the home screen read, not from every campaign folder again; a campaign this app
    makes or changes is read again (its new name), and the list is right after it."""
    _seed_campaigns(data_dir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        reads: list[int] = []
        asking = []  # the palette is asking for its commands now
        real, commands = app.store.list_campaigns, app.get_system_commands
        app.store.list_campaigns = lambda: (reads.append(1) if asking else None) or real()  # type: ignore[method-assign]

        def palette_asks(screen):  # type: ignore[no-untyped-def]
            asking.append(1)
            try:
                yield from commands(screen)
            finally:
                asking.pop()

        app.get_system_commands = palette_asks  # type: ignore[method-assign]
        for _ in range(2):
            await pilot.press("ctrl+p", *"open campaign")
            await pilot.pause(0.3)
            await pilot.press("escape")
            await pilot.pause()
        assert reads == []  # the home screen's list, twice
        with Store(data_dir).open_campaign("demo") as handle:  # another store: not this one's
            handle.campaign.name = "Renamed Elsewhere"
            handle.save()
        app.store.begin_open("demo").finish().close()  # this store opened one: read again
        names = [c.help for c in palette_asks(app.screen) if c.title.startswith("Open campaign")]
        assert reads == [1] and any("Renamed Elsewhere" in n for n in names), names


async def test_broken_save_offers_the_newest_backup(make_app, data_dir) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.campaign.gangs[0].credits = 999
        handle.save()  # the first version goes to .backups
        path = handle.path / "gangs" / f"{handle.campaign.gangs[0].id}.toml"
    broken = path.read_text(encoding="utf-8").replace("credits = 999", "credits = lots", 1)
    path.write_text(broken, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        message = str(app.screen.query_one("#dialog-message").render())
        assert f"{path.name}:" in message  # path:line:col of the damage
        await pilot.press("y")
        await pilot.pause()
        assert app.handle is not None
        assert type(app.screen).__name__ == "CampaignScreen"
    kept = list((path.parent.parent / ".backups").rglob("*broken*"))
    assert kept and "credits = lots" in kept[0].read_text(encoding="utf-8")


async def test_broken_save_is_left_alone_when_refused(make_app, data_dir) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.campaign.gangs[0].credits = 999
        handle.save()
        path = handle.file
    path.write_text("this is = = not toml", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.handle is None
    assert path.read_text(encoding="utf-8") == "this is = = not toml"


async def test_help_lists_keys_hidden_from_the_footer_but_not_widget_cursor_keys(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        keys = dict(app.screen.keys)
        assert keys.get("q") == "Quit"  # hidden from the footer, still explained
        assert "Cursor up" not in keys.values()  # the table's own movement keys


async def test_open_and_delete_are_offered_only_with_a_campaign(make_app) -> None:
    """QA walk: the empty list's footer offered Enter (Open) and d (Delete); both did
    nothing. They show once there is a campaign to open or delete."""
    from textual.widgets._footer import FooterKey

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:

        def footer() -> list[str]:
            return [k.description for k in app.screen.query(FooterKey) if k.display]

        await wait_until(pilot, footer, "the list's footer")
        assert "Open" not in footer() and "Delete" not in footer()
        assert "New campaign" in footer()
        await pilot.press("D")  # the demo campaign
        await wait_until(pilot, lambda: "Open" in footer(), "Open in the footer")
        assert "Open" in footer() and "Delete" in footer()


async def test_a_league_opened_from_the_list_shows_at_once_and_takes_keys_once_decoded(
        make_app, data_dir, monkeypatch) -> None:
    """Enter on a campaign opened before: its screen comes from the overview cached for
    its text, the campaign is decoded after that frame; r pressed in the same burst
    waits for it and opens the roster of the decoded campaign."""
    from textual import events

    from munda_tui.saves import store as store_module
    from scripts.generate import league_campaign

    Store(data_dir).create_campaign(league_campaign(6, 2, 40)).close()
    finished = []
    finish = store_module.Opening.finish

    def spy(self):  # type: ignore[no-untyped-def]
        finished.append(type(app.screen).__name__)
        return finish(self)

    monkeypatch.setattr(store_module.Opening, "finish", spy)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("r", "r"))
        await wait_for_screen(pilot, "RosterScreen")
        assert finished == ["CampaignScreen"]  # decoded once its screen was up
        assert app.handle is not None and app.screen.gang.name == "Gang 01"
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: app.screen.query_one("#battles").row_count == 40,
                         "the 40 battles listed")


async def test_a_campaign_that_does_not_decode_after_its_overview_stays_on_the_list(
        make_app, data_dir, monkeypatch) -> None:
    from munda_tui.saves import folder
    from munda_tui.saves.errors import SaveError

    Store(data_dir).create_campaign(demo_campaign()).close()

    def broken(read):  # type: ignore[no-untyped-def]
        raise SaveError(read.directory / "campaign.toml", 3, 1, "a value this version cannot read")

    monkeypatch.setattr(folder, "load_folder_cached", broken)  # (the open's decode)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        await pilot.press("enter")
        for _ in range(30):
            if type(app.screen).__name__ == "ErrorScreen":
                break
            await pilot.pause()
        assert [type(s).__name__ for s in app.screen_stack] == ["HomeScreen", "ErrorScreen"]
        assert app.handle is None
        assert "a value this version cannot read" in str(app.screen.query_one("#dialog-message").render())
    monkeypatch.undo()
    Store(data_dir).open_campaign("demo").close()  # not left locked
