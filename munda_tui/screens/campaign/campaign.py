"""The campaign overview: every gang and the battle history.

From here a player starts a new battle, continues one where it stands, opens a
gang's roster, the charts, the campaign settings, or imports a gang.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from munda_tui.widgets.plain import DataTable, Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.campaign import overview as ov
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.committed import CampaignCommitted
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for, keys_text

if TYPE_CHECKING:
    from munda_tui.rules.campaign import roster as rr
    from munda_tui.rules.core.model import Campaign, Gang
    from munda_tui.saves import CampaignHandle
    from munda_tui.saves.folder import LeftOut

#: rows put in a table before the screen's first frame: half the terminal's lines
#: (never fewer than this); the others follow in chunks after it, a frame apart, so a
#: league's 50 gangs and 2,000 battles cost the first frame nothing
FIRST_ROWS = 12
MORE_ROWS = 200


class ReportScreen(ModalScreen[None]):
    """A battle report (or the campaign summary) as Markdown."""

    CSS_PATH = "campaign.tcss"
    BINDINGS = [Binding("escape,q,v", "close", "Close", id="report.close")]
    #: the app's notices are shown here, not as toasts over the report's last lines
    NOTICE_LINE = "#report-notice"

    def __init__(self, title: str, markdown: str) -> None:
        super().__init__()
        self.report_title = title
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        # Markdown (and markdown-it) load with the first report, not with the campaign screen
        from textual.widgets import Markdown

        with Vertical(id="report-box"):
            yield Label(self.report_title, classes="title")
            yield Static("", id="report-notice", markup=False)  # the app's notices
            with VerticalScroll(id="report-scroll"):
                yield Markdown(self.markdown, id="report")
            yield Static(f"{key_for(self, 'report.close')} to close", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#report-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class CampaignScreen(Asking, Screen[None]):
    HELP_TITLE = "Campaign"
    HELP = (
        "Every gang of the campaign with its Gang Rating, Reputation, credits, Territories "
        "and wins/losses/draws, and the battles fought so far. Tab moves between the gangs "
        "and the battles; {key:campaign.open_selected} opens the gang's roster or continues the "
        "battle; {key:campaign.battle_by_hand} enters a "
        "battle fought without the tracker straight into the post-battle sequence."
    )
    CSS_PATH = "campaign.tcss"
    BINDINGS = [
        Binding("n", "new_battle", "New battle", tooltip="Set up the next battle (pre-battle)", id="campaign.new_battle"),
        Binding("e", "battle_by_hand", "Enter a battle", show=False,
                tooltip="A battle fought without the tracker: enter its result, then the "
                "post-battle sequence", id="campaign.battle_by_hand"),
        Binding("enter", "open_selected", "Open", show=False,
                tooltip="Open the gang's roster, or continue the battle", id="campaign.open_selected"),
        Binding("r", "roster", "Roster", tooltip="The selected gang's roster", id="campaign.roster"),
        Binding("o", "open_battle", "Open battle", show=False,
                tooltip="Continue the selected battle where it stands", id="campaign.open_battle"),
        Binding("v", "report", "Report", tooltip="The selected battle's report", id="campaign.report"),
        Binding("c", "charts", "Charts", tooltip="Gang Rating, Reputation and credits per battle", id="campaign.charts"),
        Binding("s", "settings", "Settings", tooltip="The campaign's rules choices", id="campaign.settings"),
        Binding("i", "import_gang", "Import", tooltip="Import a gang exported by Yaktribe", id="campaign.import_gang"),
        Binding("a", "add_gang", "Add gang", tooltip="Add a new gang by hand", id="campaign.add_gang"),
        Binding("k", "catalogue", "Catalogue", tooltip="Fighter types and items the campaign "
                "knows (learned, and from packs): edit, delete, export as a pack",
                id="campaign.catalogue"),
        Binding("S", "sort", "Sort", tooltip="Standings: sort the gangs by the next column (Rating, "
                "Wealth = rating + Stash, Reputation, W/L/D, Kills, then the campaign's order)",
                id="campaign.sort"),
        Binding("x,delete", "delete_setup", "Delete set-up", show=False,
                tooltip="Delete the selected battle's abandoned set-up (asks first; a backup "
                "is kept)", id="campaign.delete_setup"),
        Binding("g", "sync", "Sync", show=False,
                tooltip="A league: share this laptop's battles and roster edits and take the "
                "others' (git)", id="campaign.sync"),
        Binding("b", "restore_left_out", "Restore backup", show=False,
                tooltip="A battle file left out (it does not load, or is missing): restore its "
                "newest backup that loads (asks first; the broken file is kept)",
                id="campaign.restore_left_out"),
        Binding("l", "league", "League", show=False,
                tooltip="A league: sync, what is not yet shared, who synced what, its remote; "
                "or make this campaign a league", id="campaign.league"),
        Binding("Q", "questions", "League questions", show=False,
                tooltip="A league: the Arbitrator's questions, where two laptops' battles or "
                "edits of a gang cannot both apply by the rules", id="campaign.questions"),
        Binding("escape", "back", "Campaigns", tooltip="Close the campaign, back to the list", id="campaign.back"),
    ]

    def __init__(self, handle: "CampaignHandle | None", overview: dict[str, Any] | None = None) -> None:
        """``handle`` is the open campaign's; a campaign still being decoded has none
        yet, and its screen shows ``overview`` (``rules.overview``, cached for its
        text) until :meth:`attach` gives it the handle. Keys wait meanwhile."""
        super().__init__()
        self.handle: CampaignHandle = handle  # type: ignore[assignment]
        self._overview = overview if handle is None else None
        self._fill = 0  # bumped by each refresh: a fill in progress for an older one stops
        self.sort_by = ""  # the standings column (rules.standings); "": the campaign's order
        self._leaving = False  # unmounted: a sync still at work tells nobody

    @property
    def campaign(self) -> "Campaign":
        return self.handle.campaign

    @property
    def settling(self) -> bool:
        """Whether the campaign is still being decoded, or a question is on its way (the
        app holds keys meanwhile)."""
        return self.handle is None or super().settling

    def attach(self, handle: "CampaignHandle") -> None:
        """The campaign shown from its overview is open: the screen is its own."""
        self.handle, self._overview = handle, None
        if self.is_attached:
            self.refresh_tables()
            self.refresh_league_hint()

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="campaign"):
            yield Label("", id="campaign-title", classes="title")
            yield Static("", id="league-hint", classes="hint")  # (shown for a league)
            yield Label("Gangs", classes="section")
            yield DataTable(id="gangs", cursor_type="row", zebra_stripes=True)
            yield Static("", id="gangs-empty", classes="hint")
            yield Label("Battles", classes="section")
            yield DataTable(id="battles", cursor_type="row", zebra_stripes=True)
            yield Static("", id="battles-empty", classes="hint")
            yield Static("", id="left-out", classes="error-text")
        yield Footer()

    def on_mount(self) -> None:
        gangs = self.query_one("#gangs", DataTable)
        gangs.add_column("Gang", key="name")
        gangs.add_column("Rating ", key="rating")
        gangs.add_column("Wealth ", key="wealth")
        gangs.add_column("Rep ", key="reputation")
        gangs.add_column("Credits", key="credits")
        gangs.add_column("W/L/D ", key="record")
        gangs.add_column("Kills ", key="kills")
        gangs.add_column("Type", key="type")
        gangs.add_column("Territories", key="territories")
        battles = self.query_one("#battles", DataTable)
        battles.add_column("#", key="number")
        battles.add_column("Date", key="date")
        battles.add_column("Scenario", key="scenario")
        battles.add_column("Winner", key="winner")
        battles.add_column("Status", key="status")
        battles.add_column("Gangs", key="gangs")
        gangs.focus()

    def on_screen_resume(self) -> None:
        # also sent when the screen is first shown: the one place the tables are filled
        self.refresh_tables()
        self.refresh_league_hint()

    # --- a league (saves.league) --------------------------------------------------------

    def refresh_league_hint(self) -> None:
        """What is not yet shared, for a league ("2 battles, 3 gangs changed since the
        last sync"), worked out by git off the screen's thread."""
        if self.handle is not None and (self.handle.path / ".git").is_dir():
            self.run_worker(self._league_pending, thread=True, group="league-hint", exclusive=True)

    def _league_pending(self) -> None:
        from munda_tui.rules.core.wording import plural
        from munda_tui.saves.league import unshared

        handle = self.handle
        if handle is None or handle.closed:
            return
        battles, gangs, other = unshared(handle)
        if battles or gangs or other:
            text = (", ".join(x for x in (plural(battles, "battle") if battles else "",
                                          plural(gangs, "gang") if gangs else "",
                                          plural(other, "other league file") if other else "") if x)
                    + " changed since the last sync: {key:campaign.sync} syncs")
        else:
            text = "League: nothing new to share. {key:campaign.sync} syncs"
        asked = len(handle.questions)
        if asked:
            text = (f"{plural(asked, 'league question')} for the Arbitrator: "
                    "{key:campaign.questions} answers. " + text)
        self.app.call_from_thread(self._show_league_hint, text)

    def _show_league_hint(self, text: str) -> None:
        # (the git worker may finish as the screen is being taken down: attached, its
        # widgets already gone; the app's exit after a sync met it)
        hints = self.query("#league-hint").results(Static) if self.is_attached else iter(())
        for hint in hints:
            hint.update(keys_text(self, text))
            hint.display = True

    def action_sync(self, choices: "dict[str, str] | None" = None) -> None:
        from munda_tui.screens.campaign.league import SyncingScreen

        if self.handle is None:
            return
        if not (self.handle.path / ".git").is_dir():
            self.action_league()  # (it offers to make one, here: no advice to go elsewhere)
            return
        self.app.push_screen(SyncingScreen())
        self.run_worker(lambda: self._sync(choices), thread=True, group="league-sync", exclusive=True)

    def _sync(self, choices: "dict[str, str] | None") -> None:
        from munda_tui.saves.errors import SaveError
        from munda_tui.saves.git import Cancelled, working
        from munda_tui.saves.league import LeagueError, sync

        with working():
            try:
                result, error = sync(self.handle, choices), None
            except Cancelled:
                result, error = None, "stopped"
            except LeagueError as failed:
                result, error = None, str(failed)
            except (SaveError, OSError, ValueError) as failed:  # a disk fault, a file that
                # does not decode (UnicodeDecodeError): said, nothing half-done
                result, error = None, str(failed)
        if not self._leaving:  # (the app is on its way out: nobody to tell)
            self.app.call_from_thread(self._synced, result, error)

    @work(group="dialog")
    async def action_league(self) -> None:
        """The league menu: sync, what is not yet shared, the history, the remote; for a
        campaign that is no league, make it one (its remote's URL asked)."""
        import asyncio

        from munda_tui.saves import league_info as info
        from munda_tui.saves.league import LeagueError
        from munda_tui.screens.campaign.league import LeagueTextScreen
        from munda_tui.screens.common.dialogs import ErrorScreen, LineScreen, Pick, PickOneScreen

        if self.handle is None:
            return
        path, name = self.handle.path, self.campaign.name
        if not (path / ".git").is_dir():
            url = await self.ask(LineScreen(
                f"Make {name} a league", placeholder="/media/usb/league.git or git@host:club/league.git",
                detail="A league is shared through a git remote: a bare repository on a USB stick "
                "or a shared folder (git init --bare FOLDER), or an empty hosted one. Its URL "
                "(a password in it is used once, never stored). Other players then run "
                "munda-tui league join URL.", hint="Enter to make it a league, {key:line.cancel} to cancel"))
            if url:
                self._start_league(url)
            return
        choice = await self.ask(PickOneScreen(f"League: {name}", [
            Pick("sync", "Sync now"), Pick("status", "What is not yet shared"),
            Pick("history", "History: who synced which battles and edits"),
            Pick("remote", "The remote: see or change it"),
            Pick("undo", "Undo this laptop's last sync")]))
        try:
            if choice == "sync":
                self.action_sync()
            elif choice == "status":
                lines = info.status_lines(await asyncio.to_thread(info.status, path))
                await self.ask(LeagueTextScreen("Not yet shared", lines))
            elif choice == "history":
                entries = await asyncio.to_thread(info.history, path, 200)
                await self.ask(LeagueTextScreen("The league's history (newest first)",
                                                info.history_lines(entries)))
            elif choice == "remote":
                now = await asyncio.to_thread(info.remote, path)
                url = await self.ask(LineScreen(
                    "The league's remote", value=now,
                    detail="Change it when the league moved (another USB stick, a hosted "
                    "repository): it is checked first. A password in it is never stored."))
                if url and url != now:
                    shown = await asyncio.to_thread(info.set_remote, path, url)
                    self.notify(f"{name} now syncs with {shown}.")
            elif choice == "undo":
                await self._undo_last_sync()
        except LeagueError as error:
            self.app.push_screen(ErrorScreen("League", str(error)))

    async def _undo_last_sync(self) -> None:
        """`league undo` from the league menu (``saves.league_undo``): what it would do,
        asked first; LeagueError is the menu's to say."""
        import asyncio

        from munda_tui.saves.league import undo
        from munda_tui.saves.league_undo import plan
        from munda_tui.screens.campaign.league import LeagueTextScreen
        from munda_tui.screens.common.dialogs import ConfirmScreen

        handle = self.handle
        if handle is None:
            return
        planned = await asyncio.to_thread(plan, handle)
        if planned.kind == "nothing":
            await self.ask(LeagueTextScreen("Undo the last sync", planned.lines))
            return
        taking_back = planned.kind == "take back"
        sure = await self.ask(ConfirmScreen(
            "Take back the last sync?" if taking_back else "Void what the last sync shared?",
            "\n".join(planned.lines), yes="Take it back" if taking_back else "Record the corrections"))
        if not sure:
            return
        _done, said = await asyncio.to_thread(undo, handle)
        self.refresh_tables()
        self.refresh_league_hint()
        self.notify(" ".join(said), timeout=10)

    def _start_league(self, url: str) -> None:
        from munda_tui.screens.campaign.league import SyncingScreen

        self.app.push_screen(SyncingScreen())
        self.run_worker(lambda: self._init_league(url), thread=True, group="league-sync", exclusive=True)

    def _init_league(self, url: str) -> None:
        from munda_tui.saves.git import Cancelled, public_url, working
        from munda_tui.saves.league import LeagueError, init

        with working():
            try:
                result = init(self.handle, url)
                error = None
                said = (f"{self.campaign.name} is a league, shared through {public_url(url)}. "
                        f"Other players: munda-tui league join {public_url(url)}"
                        + "".join(f" {n[0].upper()}{n[1:]}." for n in result.notes))
            except Cancelled:
                error, said = "stopped", ""
            except (LeagueError, OSError) as failed:
                error, said = str(failed), ""
        if not self._leaving:
            self.app.call_from_thread(self._league_made, said, error)

    def _league_made(self, said: str, error: str | None) -> None:
        from munda_tui.screens.campaign.league import SyncingScreen
        from munda_tui.screens.common.dialogs import ErrorScreen

        if isinstance(self.app.screen, SyncingScreen):
            self.app.pop_screen()
        self.refresh_league_hint()
        if error == "stopped":
            self.notify("Stopped: the campaign is not a league (nothing changed).", severity="warning")
        elif error is not None:
            self.app.push_screen(ErrorScreen("The campaign could not be made a league", error))
        else:
            self.notify(said, timeout=10)

    def on_unmount(self) -> None:
        """The app quits (ctrl+q) while a sync runs: its git is killed and the sync ended
        (kill-safe) before the campaign is closed."""
        from munda_tui.saves.git import cancel_all, wait_idle

        self._leaving = True
        if self.handle is not None and (self.handle.path / ".git").is_dir():
            cancel_all()
            wait_idle(10)

    def _synced(self, result: Any, error: str | None) -> None:
        from munda_tui.screens.campaign.league import ConflictScreen, SyncingScreen
        from munda_tui.screens.common.dialogs import ErrorScreen

        if isinstance(self.app.screen, SyncingScreen):
            self.app.pop_screen()
        munda_app(self).forget_packs()  # (the league's packs may have changed)
        self.refresh_tables()
        self.refresh_league_hint()
        if error == "stopped":
            self.notify("Sync stopped: the campaign is as it was (or synced). g syncs again.",
                        severity="warning")
            return
        if error is not None:
            self.app.push_screen(ErrorScreen("The league could not be synced", error))
            return
        if result.conflicts:
            self._resolve(ConflictScreen(result.details))
            return
        from munda_tui.saves.league_info import sync_words

        self.notify(sync_words(result) + "".join(f" {note[0].upper()}{note[1:]}." for note in result.notes))
        for line in getattr(result, "refused", []):  # a battle not shared, and why
            self.notify(line, severity="error", timeout=20)
        for line in getattr(result, "yours", []):  # what the sync did to this laptop's battles
            self.notify(line, severity="warning", timeout=20)
        if self.handle is not None and self.handle.questions:
            self.action_questions()

    def action_questions(self) -> None:
        from munda_tui.screens.campaign.league import QuestionScreen

        if self.handle is None:
            return
        if not self.handle.questions:
            self.notify("No league questions: every battle and edit of the league applies.")
            return
        self.app.push_screen(QuestionScreen(self.handle), lambda _done: self._questions_closed())

    def _questions_closed(self) -> None:
        self.refresh_tables()
        self.refresh_league_hint()

    def refresh_tables(self) -> None:
        # each table gets no more rows before the first frame than half the terminal
        # (neither shows more); the rest follow a frame apart
        first = max(FIRST_ROWS, self.app.size.height // 2)
        self._fill += 1
        gangs_table = self.query_one("#gangs", DataTable)
        self._label_sort_column(gangs_table)
        if self.handle is None:  # (the overview's rows: the same cells, from the cache)
            view = self._overview or {}
            self._show_counts(view.get("title", ""), view.get("gang_count", 0),
                              view.get("battle_count", 0))
            rows = list(ov.cached_rows(view, "gangs")) if view else []
            self._fill_table("#gangs", rows, lambda r: r, first)
            rows = list(ov.cached_rows(view, "battles")) if view else []
            self._fill_table("#battles", rows, lambda r: r, first)
            return
        c = self.campaign
        left = self.handle.left_out()
        self._show_counts(ov.title(c), len(c.gangs), len(c.battles), len(left))
        from munda_tui.rules.packs.settings import settings_not_in_force

        # a setting whose pack is not here (issue 35): said on the screen while it lasts
        missing = [m for _f, _v, m in settings_not_in_force(c.settings, munda_app(self).rule_data)]
        self._show_left_out(left, missing)
        counters = ov.counter_columns(c, munda_app(self).rule_data)
        self._counter_columns(gangs_table, counters)
        gangs, gang_row = ov.gang_rows(c, self.sort_by, counters)
        self._fill_table("#gangs", gangs, gang_row, first)
        battles, battle_row = ov.battle_rows(c)
        self._fill_table("#battles", battles, battle_row, first)

    def _counter_columns(self, table: DataTable, counters: list[tuple[str, str]]) -> None:
        """A standings column for each of the club's own counters (a pack's, issue 35),
        after the others; none when the campaign has none."""
        wanted = {f"counter:{cid}": name for cid, name in counters}
        have = [str(key.value) for key in table.columns if str(key.value).startswith("counter:")]
        if have == list(wanted):
            return
        table.clear()
        for key in have:
            table.remove_column(key)
        for key, name in wanted.items():
            table.add_column(name + " ", key=key)

    def _show_counts(self, title: str, gangs: int, battles: int, left_out: int = 0) -> None:
        self.query_one("#campaign-title", Label).update(title)
        self.query_one("#gangs-empty", Static).update(
            "" if gangs else keys_text(self, "No gangs yet: press {key:campaign.import_gang} to import one from "
                                     "Yaktribe, {key:campaign.add_gang} to add one.")
        )
        if battles:
            empty = ""
        elif left_out:
            empty = "No battle loaded: the battle files below are left out."
        else:
            empty = keys_text(self, "No battles yet: press {key:campaign.new_battle} to set up the first one.")
        self.query_one("#battles-empty", Static).update(empty)

    def _show_left_out(self, left: "list[LeftOut]", missing: "list[str] | None" = None) -> None:
        """The battle files the open left out (saves.folder.LeftOut): never silently
        absent. Each names its file and line, and its newest backup that loads. Then a
        setting whose pack is not in force here (``missing``: what the player can do)."""
        from rich.text import Text

        note = self.query_one("#left-out", Static)
        note.display = bool(left or missing)
        if not left and not missing:
            note.update("")
            return
        said = [f"{m[0].upper()}{m[1:]}." for m in missing or []]
        if not left:
            note.update(Text("\n".join(said)))
            return
        lines = [f"{len(left)} battle file{'s do' if len(left) > 1 else ' does'} not load and "
                 f"{'are' if len(left) > 1 else 'is'} left out (kept as it is):"]
        for lo in left:
            where = lo.error
            try:
                where = where.replace(str(self.handle.path) + "/", "", 1)
            except (TypeError, ValueError):  # pragma: no cover - a path is a string
                pass
            lines.append(f"• {where}")
            if lo.backup is not None:
                lines.append(keys_text(self, f"  {{key:campaign.restore_left_out}} restores its newest "
                                       f"backup that loads: {lo.backup.name}"))
            else:
                lines.append("  no backup of it loads: the file is left as it is")
            if lo.number is None:  # (no new battle takes its number: none is numbered)
                lines.append("  its battle number cannot be read: no new battle can be started "
                             "until it loads (fix its `number` line) or is moved out of battles/")
        note.update(Text("\n".join(lines + said)))

    def action_restore_left_out(self) -> None:
        """Offer the newest backup that loads of the first left-out battle file that has
        one (the app's dialog: the broken file is kept in .backups)."""
        if self.handle is None:
            return
        left = [lo for lo in self.handle.left_out() if lo.backup is not None]
        if not left:
            self.notify("No left-out battle file has a backup that loads." if self.handle.left_out()
                        else "No battle file is left out.", severity="warning")
            return
        lo = left[0]
        munda_app(self).offer_backup(lo.save_error(), "Battle file left out", self.refresh_tables)

    def _fill_table(self, table_id: str, items: list, row_of, first: int) -> None:  # type: ignore[no-untyped-def, type-arg]
        """Refill a table: ``first`` rows (or up to the cursor's) now, the rest in chunks
        after the frames that follow, so a league's history costs the first frame nothing.
        ``row_of(item)`` is the row's key and cells (``rules.overview``)."""
        table = self.query_one(table_id, DataTable)
        row = table.cursor_row
        table.clear()
        stop = max(first, row + 1)
        for item in items[:stop]:
            key, cells = row_of(item)
            table.add_row(*cells, key=key)
        if items:
            table.move_cursor(row=min(row, len(items) - 1))
        if len(items) > stop:
            self.call_after_refresh(self._more_rows, table, items, row_of, stop, self._fill)

    def _more_rows(self, table: DataTable, items: list, row_of, start: int, fill: int) -> None:  # type: ignore[no-untyped-def, type-arg]
        if fill != self._fill or not self.is_attached or not self.is_current:
            return  # refilled since, or left or covered (showing it again refills it)
        stop = start + MORE_ROWS
        for item in items[start:stop]:
            key, cells = row_of(item)
            table.add_row(*cells, key=key)
        if len(items) > stop:
            self.call_after_refresh(self._more_rows, table, items, row_of, stop, fill)

    def _label_sort_column(self, gangs: DataTable) -> None:
        from rich.text import Text

        titles = {"rating": "Rating", "wealth": "Wealth", "reputation": "Rep",
                  "record": "W/L/D", "kills": "Kills"}
        for key, column in gangs.columns.items():
            name = str(key.value)
            title = titles.get(name)
            if title is None and name.startswith("counter:"):
                title = str(column.label).rstrip("▼ ")  # (a club's counter: its name)
            if title is not None:
                # the same width either way: the column keeps room for the mark
                column.label = Text(title + ("▼" if name == self.sort_by else " "))
        gangs.refresh()

    # --- selection ------------------------------------------------------------------

    def _selected(self, table_id: str) -> str | None:
        table = self.query_one(table_id, DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(row_key.value)

    def selected_gang(self) -> Gang | None:
        gid = self._selected("#gangs")
        return None if gid is None else self.campaign.gang(gid)

    def selected_battle(self) -> int | None:
        number = self._selected("#battles")
        return None if number is None else int(number)

    # --- actions ----------------------------------------------------------------------

    def action_open_selected(self) -> None:
        if self.focused is self.query_one("#battles", DataTable):
            self.action_open_battle()
        else:
            self.action_roster()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if not self.is_current or munda_app(self).handle is None:
            return  # chosen, then left before the choice arrived (Enter, Escape in a burst)
        if event.data_table.id == "battles":
            munda_app(self).open_battle(int(str(event.row_key.value)))
        else:
            self._push_roster(str(event.row_key.value))

    def action_catalogue(self) -> None:
        from munda_tui.screens.campaign.catalogue import CatalogueScreen

        self.app.push_screen(CatalogueScreen(self.handle))

    def action_sort(self) -> None:
        from munda_tui.rules.campaign import standings as st

        counters = ov.counter_columns(self.campaign, munda_app(self).rule_data) if self.handle else []
        self.sort_by = st.next_column(self.sort_by, counters)
        self.refresh_tables()
        self.notify(f"Standings by {st.column(self.sort_by, counters).title}" if self.sort_by else
                    "Gangs in the campaign's order", timeout=2)

    @work(group="dialog")
    async def _resolve(self, conflicts: Any) -> None:
        """The league's conflicts: the choices made sync again."""
        if picks := await self.ask(conflicts):
            self.action_sync(picks)

    @work(group="dialog")
    async def action_delete_setup(self) -> None:
        from munda_tui.screens.common.dialogs import ConfirmScreen

        number = self.selected_battle()
        from munda_tui.rules.core.stage import summary_of

        summary = summary_of(self.campaign, number) if number is not None else None
        if summary is None:
            self.notify("No battle selected.", severity="warning")
            return
        if summary.status != "setup":
            self.notify(f"Battle {number} is past its set-up ({summary.status}): only an "
                        "abandoned set-up can be deleted.", severity="warning")
            return

        if not await self.ask(ConfirmScreen(
                f"Delete battle {summary.number}'s set-up?",
                "It was never fought. The battle file is kept in the campaign's .backups folder.",
                yes="Delete", no="Keep")):
            return
        from munda_tui.saves.errors import SaveError

        try:
            self.handle.delete_battle(summary.number)
        except (SaveError, OSError) as error:  # nothing is removed
            from munda_tui.screens.common.dialogs import ErrorScreen

            self.app.push_screen(ErrorScreen("Could not delete the set-up", str(error)))
            return
        self._commit(replace(self.campaign, battles=[b for b in self.campaign.battles if b is not summary]),
                     f"Battle {summary.number}'s set-up deleted (a backup is kept)")

    def action_new_battle(self) -> None:
        if len(self.campaign.gangs) < 2:
            self.notify("A battle needs at least two gangs: import or add them first.",
                        severity="warning")
            return
        munda_app(self).new_battle()

    def action_battle_by_hand(self) -> None:
        if len(self.campaign.gangs) < 2:
            self.notify("A battle needs at least two gangs: import or add them first.",
                        severity="warning")
            return
        munda_app(self).new_battle(by_hand=True)

    def action_open_battle(self) -> None:
        number = self.selected_battle()
        if number is None:
            self.notify(keys_text(self, "No battle yet: press {key:campaign.new_battle} to start one."), severity="warning")
            return
        munda_app(self).open_battle(number)

    def action_report(self) -> None:
        from munda_tui.rules.campaign.report import battle_report
        from munda_tui.rules.campaign.report_doc import render_markdown

        number = self.selected_battle()
        if number is None:
            self.notify("No battle to report yet.", severity="warning")
            return
        from munda_tui.saves.errors import SaveError

        try:
            data = self.handle.load_battle(number) if number in self.handle.battle_numbers() else {}
        except (SaveError, OSError) as error:  # a damaged battle file: say so
            from munda_tui.screens.common.dialogs import ErrorScreen

            self.app.push_screen(ErrorScreen(f"Battle {number} could not be read", str(error)))
            return
        self.app.push_screen(
            ReportScreen(f"Battle {number}", render_markdown(battle_report(self.campaign, number, data)))
        )

    def _push_roster(self, gang_id: str) -> None:
        from munda_tui.screens.campaign.roster import RosterScreen

        self.app.push_screen(RosterScreen(self.handle, gang_id))

    def action_roster(self) -> None:
        gang = self.selected_gang()
        if gang is None:
            self.notify(keys_text(self, "No gang yet: press {key:campaign.import_gang} to import one or "
                                  "{key:campaign.add_gang} to add one."), severity="warning")
            return
        self._push_roster(gang.id)

    def action_charts(self) -> None:
        from munda_tui.screens.campaign.charts import ChartsScreen

        self.app.push_screen(ChartsScreen(self.handle))

    def action_settings(self) -> None:
        from munda_tui.screens.campaign.settings import SettingsScreen

        self.app.push_screen(SettingsScreen(self.handle))

    def action_import_gang(self) -> None:
        from munda_tui.screens.campaign.import_gang import ImportGangScreen

        self.app.push_screen(ImportGangScreen(self.handle))

    def action_add_gang(self) -> None:
        from munda_tui.rules.campaign import roster as rr
        from munda_tui.rules.core.model import Gang, GangType, unique_id
        from munda_tui.screens.campaign.fighter_form import GangFormScreen

        others = [g.name for g in self.campaign.gangs]
        blank = Gang(id="", name="")

        def apply(values: rr.GangValues) -> str | None:
            gang = Gang(
                id=unique_id(values.name, [g.id for g in self.campaign.gangs]),
                name=values.name,
                type=values.type if values.type is not None else GangType.OTHER,
            )
            rr.update_gang(gang, values)
            saved = self._commit(replace(self.campaign, gangs=[*self.campaign.gangs, gang]), f"Added {gang.name}")
            return None if saved else "The campaign could not be saved"

        self.app.push_screen(GangFormScreen(
            blank, others, new=True, ruleset=str(self.campaign.settings.post_battle_ruleset),
            apply=apply))

    def _commit(self, new: "Campaign", message: str) -> bool:
        """New values committed by the handle (said when they do not land: the old
        stand); the tables follow the commit's message (:meth:`on_campaign_committed`)."""
        if not munda_app(self).commit_campaign(new):
            return False
        self.notify(message)
        return True

    def on_campaign_committed(self, message: CampaignCommitted) -> None:
        """The campaign's values were committed (here, on another screen, by a sync):
        the standings and the battles show them."""
        if self.is_attached and self.handle is not None and not self.handle.closed:
            self.refresh_tables()

    def action_back(self) -> None:
        munda_app(self).action_go_home()
