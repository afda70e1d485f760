"""MundaApp: the Textual application, its navigation and its shared services.

The app owns the store (``munda_tui.saves``), the player's config, one RNG for
the whole session (seeded in tests) and the campaign that is open. Screens ask
the app to navigate; they never open files themselves.
"""

from __future__ import annotations

import datetime
import random
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from .collector import Collector
from .key_order import KeyOrderApp
from .screen_css import load_screen_css
from .rules.core.model import BattleSummary, Campaign
from .rules.core.stage import summary_of
from .rules.core.status import FIRST, FIRST_BY_HAND, BattleStatus
from .saves import CampaignLocked, SaveError, Store
from .saves.errors import WriteFailed
from .saves.config import Config, load_config, save_config

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from .rules.core.data import RuleData
    from .saves import CampaignHandle
    from .saves.packs import PackSet
    from .saves.store import Opening
    from .screens.common.stage_host import StageHost


def battle_screen(host: StageHost, status: BattleStatus) -> Screen[None]:
    """The screen that continues a battle at its stage (each imported when first used),
    given the stage host (``MundaApp.open_battle`` loads the battle file once, checks and
    decodes it, and hands it on: no screen loads it again)."""
    if status is BattleStatus.BATTLE:
        from .screens.battle.screen import BattleScreen

        return BattleScreen(host)
    if status in (BattleStatus.POST_BATTLE, BattleStatus.DONE):
        from .screens.postbattle.screen import PostBattleScreen

        return PostBattleScreen(host)
    from .screens.prebattle.screen import PreBattleScreen

    return PreBattleScreen(host)


def _card_commands() -> type:
    """The Sub-plot card look-up for the command palette (imported when first used)."""
    from .screens.common.card_commands import SubplotCardCommands

    return SubplotCardCommands


#: Theme names of older Textual versions -> today's (a config may still name them).
THEME_ALIASES: dict[str, str] = {"textual-ansi": "ansi-dark"}


def _write_failed_text(error: WriteFailed) -> str:
    return (
        f"{error.path} could not be written: {error.reason}.\n\n"
        "Nothing was lost: the last save on disk is unchanged, and you are where you were."
    )


def _typing(widget: object) -> bool:
    """Whether ``widget`` takes "?" as a character (a text field)."""
    from textual.widgets import Input, TextArea

    return isinstance(widget, (Input, TextArea)) and not getattr(widget, "read_only", False)


def paths_broken_at_slashes(message: str, width: int) -> str:
    """``message`` with each path longer than ``width`` broken into lines after a "/"
    (a note wraps only at spaces: a long path was cut mid-word, ".conf" / "ig/munda-tui")."""
    if width < 10:
        return message
    words = []
    for word in message.split(" "):
        if len(word) <= width or "/" not in word:
            words.append(word)
            continue
        lines, line = [], ""
        for part in re.split(r"(?<=/)", word):  # each part ends with its "/"
            if line and len(line) + len(part) > width:
                lines.append(line)
                line = ""
            line += part
        lines.append(line)
        words.append("\n".join(lines))
    return " ".join(words)


class MundaApp(KeyOrderApp):
    """munda-tui: a Necromunda companion at the gaming table."""

    TITLE = "munda-tui"
    SUB_TITLE = "Necromunda at the table"
    # The first screen's styles load with the app's (Textual reads a default screen's
    # CSS_PATH only from the app): the list of campaigns, or a campaign.
    CSS_PATH = ["app.tcss", "screens/home/home.tcss", "screens/campaign/campaign.tcss"]
    ENABLE_COMMAND_PALETTE = True
    COMMANDS = App.COMMANDS | {_card_commands}
    BINDINGS = [
        # priority: "?" opens the help over a dialog too (a modal screen hides the app's
        # keys); in a text field it is typed, and F1 opens the help instead
        Binding("question_mark", "help", "Keys", key_display="?", id="app.help",
                priority=True),
        Binding("f1", "help_in_field", "Keys", id="app.help_in_field", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
        # the footer's overflow: shown (after the help key) only when a screen's keys are
        # too many for the width; lists the keys the footer does not show, picks one
        Binding("full_stop", "more_keys", "More", key_display=".", show=False,
                id="app.more_keys"),
    ]

    def __init__(
        self,
        data_dir: Path,
        config_dir: Path,
        *,
        seed: int | None = None,
        campaign: str | None = None,
        today: str | None = None,
        demo: bool = False,
        collector_paused: bool = False,
    ) -> None:
        super().__init__()
        #: when Python's cyclic collector runs (munda_tui.collector): paused by the
        #: command for start-up, frozen over an open campaign, idle after a close
        self.collector = Collector(collector_paused)
        self.data_dir = Path(data_dir)
        self.config_dir = Path(config_dir)
        self.store = Store(self.data_dir)
        self.store.on_notice = self._saves_notice
        self.config: Config = load_config(self.config_dir)
        self.seed = seed
        self.rng = random.Random(seed) if seed is not None else random.Random()
        self.handle: CampaignHandle | None = None
        #: the packs in force (the player's, then the open campaign's), read when first
        #: asked for (``packs``), again for another campaign; problems said once each
        self._packs: PackSet | None = None
        self._packs_for: Path | None = None
        self._packs_said: set[str] = set()
        self._start_campaign = campaign
        self._start_error: SaveError | CampaignLocked | None = None
        #: the campaign asked for at start, shown from its overview, until decoded
        self._opening: Opening | None = None
        self._demo = demo
        self._today = today
        self.animation_level = "none" if seed is not None else self.animation_level
        #: the crash file written when an error escaped (see munda_tui.crash)
        self.crash_file: Path | None = None
        self._crashed = False
        theme = THEME_ALIASES.get(self.config.theme, self.config.theme)
        if theme in self.available_themes:
            self.theme = theme

    # --- services -------------------------------------------------------------

    def today(self) -> str:
        """Today's date (ISO); fixed in tests so screens never show the clock."""
        return self._today or datetime.date.today().isoformat()

    @property
    def campaign(self) -> Campaign:
        if self.handle is None:
            raise RuntimeError("no campaign is open")
        return self.handle.campaign

    # --- lifecycle ------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        # The first frame is the screen the player asked for: the campaign (named on
        # the command line, or the demo) opened before it and nothing else; else the
        # list of campaigns. The home screen goes below a campaign only when asked for.
        if self._demo:
            self._start(self._open_demo)
        elif self._start_campaign:
            self._begin_start(self._start_campaign)
        if self.handle is not None or self._opening is not None:
            from .screens.campaign.campaign import CampaignScreen
            from .textual_private import make_bottom_screen

            if self._opening is not None:  # shown from its overview, decoded after
                screen = CampaignScreen(None, self._opening.overview)
            else:
                screen = CampaignScreen(self.handle)
            # switch_screen (to the list, or to another campaign) pops the bottom screen's
            # result callback; Textual pushes one for every screen but the default one
            make_bottom_screen(screen, self)
            return screen
        from .screens.home.home import HomeScreen

        return HomeScreen()

    def _begin_start(self, slug: str) -> None:
        """The campaign named on the command line: locked and read; shown from its
        cached overview (``rules.overview``) and decoded right after the first frame
        (see on_ready), or, with no overview for its text, opened now."""
        try:
            opening = self.store.begin_open(slug)
        except (CampaignLocked, SaveError) as error:  # said on the home screen, once shown
            self._start_error = error
            return
        except OSError as error:
            self._start_error = SaveError(self.data_dir, 1, 1, str(error))
            return
        if opening.overview is not None:
            self._opening = opening
        else:
            self._start(opening.finish)

    def _finish_opening(self) -> None:
        """After the first frame of a campaign shown from its overview (at start, or
        opened from the list): the campaign is decoded and given to its screen (keys
        wait for it meanwhile). One that does not load leaves its screen for the list,
        which says why and offers its backups, as any campaign that does not open."""
        opening, self._opening = self._opening, None
        try:
            if opening is not None:
                self._decode_opening(opening)
        finally:
            self.collector.resume_after_start_up()

    def _decode_opening(self, opening: Opening) -> None:
        from .screens.campaign.campaign import CampaignScreen

        waiting = [s for s in self.screen_stack if isinstance(s, CampaignScreen)]
        waiting = [s for s in waiting if s.handle is None]
        try:
            self.handle = opening.finish()
        except (CampaignLocked, SaveError, OSError) as error:
            for screen in reversed(waiting):
                if screen is self.screen_stack[0]:
                    from .screens.home.home import HomeScreen

                    self.switch_screen(HomeScreen())
                elif screen is self.screen:
                    self.pop_screen()
            self._say_open_error(error, opening.slug)
            return
        self._campaign_opened()
        for screen in waiting:
            screen.attach(self.handle)

    def _start(self, open_it: Callable[[], "CampaignHandle"]) -> None:
        try:
            self.handle = open_it()
            self._campaign_opened()
        except (CampaignLocked, SaveError) as error:  # said on the home screen, once shown
            self._start_error = error
        except OSError as error:
            self._start_error = SaveError(self.data_dir, 1, 1, str(error))

    def _open_demo(self) -> "CampaignHandle":
        """The demo campaign: opened if this data dir has it, else prepared in memory
        (written by a worker after the first frame)."""
        from .rules.campaign.demo import demo_campaign

        campaign = demo_campaign()
        if (self.store.campaigns_dir / campaign.id).is_dir():
            return self.store.open_campaign(campaign.id)
        return self.store.prepare_campaign(campaign)

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.config.load_error:
            self.notify(f"Your config did not load (defaults used): {self.config.load_error}",
                        severity="warning", timeout=15)
        self._check_config()
        if (self.config_dir / "packs").is_dir():  # (no folder: nothing read at start-up)
            self._say_pack_problems()
        self._say_start_error()

    # --- packs (issue 35) -------------------------------------------------------

    @property
    def packs(self) -> PackSet:
        """The packs in force: the player's (``<config>/packs``), then the open
        campaign's (``<campaign>/packs``); read once per campaign (a pack left out is
        said once, with its ``path:line:col``)."""
        from .saves.packs import load_packs

        campaign_dir = self.handle.path if self.handle is not None else None
        if self._packs is None or self._packs_for != campaign_dir:
            self._packs = load_packs(self.config_dir, campaign_dir)
            self._packs_for = campaign_dir
        return self._packs

    @property
    def rule_data(self) -> RuleData:
        """The rule data the rules read now: the package's, then the packs in force."""
        return self.packs.data

    def forget_packs(self) -> None:
        """The packs in force are read again when next asked for (a league sync, or a
        pack question's answer, may have changed the campaign's)."""
        self._packs = None

    def _say_battle_packs(self, number: int, data: Mapping[str, Any]) -> None:
        """A battle played with a pack missing now, or changed since, says so (it opens).
        A battle set up before battles recorded their packs (no ``[packs]`` record: every
        new battle has one, an empty list when no pack was in force) says it has no
        record, when packs are in force now: nothing is known to be missing or changed."""
        record = data.get("packs")
        if not isinstance(record, Mapping) or "played_with" not in record:
            from .rules.packs.check import no_record_words

            words = no_record_words(number, self.rule_data)
            if words:
                self.notify(words, title="Packs", timeout=20)
            return
        from .rules.packs.check import record_changes

        changes = record_changes(record["played_with"], self.rule_data)
        if changes:
            self.notify(f"Battle {number} was played with other packs: " + "; ".join(changes)
                        + ". It opens with the packs in force.", title="Packs",
                        severity="warning", timeout=20)

    def _say_pack_problems(self) -> None:
        """Each pack file left out, once a session: one notification."""
        new = [p for p in self.packs.problems if p not in self._packs_said]
        if not new:
            return
        self._packs_said.update(new)
        more = (f"\n{len(new) - 1} more; `munda-tui pack check` lists them all."
                if len(new) > 1 else "")
        self.notify(f"A pack file was left out (the rest applies): {new[0]}{more}",
                    severity="warning", timeout=15)

    def _say_start_error(self) -> None:
        """The campaign asked for at start did not open: why, over the list."""
        error, self._start_error = self._start_error, None
        if error is not None:  # (the dialogs, and their widgets, are imported when needed)
            self._say_open_error(error, self._start_campaign or "")

    def _say_open_error(self, error: Exception, slug: str) -> None:
        """Why a campaign did not open (a dialog); a save that does not load offers
        its newest backup that does, and opens the campaign again once restored."""
        from .screens.common.dialogs import ErrorScreen

        if isinstance(error, CampaignLocked):
            self.push_screen(ErrorScreen("Campaign in use", str(error)))
        elif isinstance(error, WriteFailed):  # the lock or a migrated save cannot be written
            self.push_screen(ErrorScreen("Campaign could not be opened", _write_failed_text(error)))
        elif isinstance(error, SaveError):
            self._offer_backup(error, "Campaign could not be opened", lambda: self.open_campaign(slug))
        else:  # pragma: no cover - every write is guarded in saves
            self.push_screen(ErrorScreen("Campaign could not be opened", str(error)))

    def _check_config(self) -> None:
        """What the codec cannot know of the config: ids no binding has, key names
        Textual cannot send, a theme it does not have; each ``path:line:col: message``,
        all of them in one notification (``munda-tui check`` lists them too); the keys
        that can apply are remapped."""
        from .keymap import config_problems
        from .saves.config import config_path

        if not self.config.keymap and self.config.theme in self.available_themes:
            return
        path = config_path(self.config_dir)
        try:
            text: str | None = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = None
        good, problems = config_problems(self.config, path, text,
                                         [*self.available_themes, *THEME_ALIASES])
        if good:
            self.set_keymap(good)
        if len(problems) == 1:
            self.notify(f"Your config: {problems[0]}", severity="warning", timeout=15)
        elif problems:
            self.notify(f"{len(problems)} problems in your config (the rest applies); the first: "
                        f"{problems[0]}\n`munda-tui check {path}` lists them all.",
                        severity="warning", timeout=15)

    def on_ready(self) -> None:
        # After the first frame: a campaign shown from its overview is decoded, and a
        # prepared campaign (the demo) is written in a thread.
        if self._opening is not None:
            self.call_next(self._finish_opening)  # (before any key: they wait for it)
            return
        self.collector.resume_after_start_up()
        self._write_if_prepared()

    def _write_if_prepared(self) -> None:
        if self.handle is not None and not self.handle.written:
            self.run_worker(self._write_prepared, thread=True, exit_on_error=False)

    def _saves_notice(self, message: str) -> None:
        """What a save tells the player: a hand edit made while the campaign was open,
        replaced by the save, and where the edited file is kept (issue 26, item 18)."""
        import threading

        if getattr(self, "_thread_id", threading.get_ident()) == threading.get_ident():
            self.notify(message, title="Changed outside munda-tui", severity="warning", timeout=60)
        else:
            self.call_from_thread(self.notify, message, title="Changed outside munda-tui",
                                  severity="warning", timeout=60)

    def _write_prepared(self) -> None:
        handle = self.handle
        if handle is None:
            return
        try:
            handle.write_prepared()
        except (SaveError, OSError) as error:
            self.call_from_thread(self.notify, f"The demo campaign could not be saved: {error}",
                                  severity="error")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # A seeded (test or replay) run is deterministic: a steady text cursor, no blink timer.
        if self.seed is not None and getattr(event.widget, "cursor_blink", False):
            event.widget.cursor_blink = False  # type: ignore[attr-defined]

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", str(theme))
        if name != self.config.theme:
            self.config.theme = name
            try:
                save_config(self.config_dir, self.config)
            except OSError as error:
                self.notify(f"Could not save the theme: {error}", severity="warning")

    def on_unmount(self) -> None:
        self.close_campaign()
        self.collector.app_ended()

    #: a notice is left at least this long (seconds) before a key takes it away (a key
    #: typed in the same burst as the one that raised it does not hide it unread)
    NOTICE_READ_SECONDS = 1.0

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._notices_read()
        await super().on_event(event)

    def _notices_read(self) -> None:
        """The player acts (a key): the notices shown before it go, once shown for
        :attr:`NOTICE_READ_SECONDS`; a notice raised by the key itself comes after it.
        On the post-battle and report screens notices take a line of their own
        (:meth:`_refresh_notifications`)."""
        import time

        now = time.time()
        read = [n for n in self._notifications if now - n.raised_at >= self.NOTICE_READ_SECONDS]
        for notice in read:
            self._unnotify(notice, refresh=False)
        if read:
            self._refresh_notifications()

    def _refresh_notifications(self) -> None:
        """The notices, on a line of the screen's own layout, never as toasts over it: a
        toast at the bottom right covered a question's message (the post-battle's, a
        dialog's), the tracker's status line, a report's last lines. A screen names its
        line (``NOTICE_LINE``: the post-battle's above the step, the report's under its
        title); on every other screen the line is put above its first part under the
        header (``#app-notice``): the rest makes room, nothing is hidden."""
        screen = self.screen if self.screen_stack else None
        notices = [n for n in self._notifications if not n.has_expired]
        # (the line is put into a screen only for a notice: a screen switch refreshes the
        # notices too, and a screen settling in a burst of keys is not changed for none)
        line = self._notice_line(screen, mount=bool(notices)) if screen is not None else None
        if line is None:
            super()._refresh_notifications()
            return
        line.update("\n".join(n.message for n in notices))
        line.set_class(any(n.severity != "information" for n in notices), "-warning")
        line.display = bool(notices)
        if notices:  # gone when its time is up, as a toast is
            self.set_timer(max(0.05, min(n.time_left for n in notices)),
                           self._refresh_notifications)

    def _notice_line(self, screen: Screen, mount: bool = True) -> Any:
        """The Static a screen shows the notices on (None: not composed yet, or not put
        there yet and ``mount`` is False)."""
        from textual.css.query import NoMatches
        from .widgets.plain import Static

        where = getattr(screen, "NOTICE_LINE", "") or "#app-notice"
        try:
            return screen.query_one(where, Static)
        except NoMatches:
            pass
        if where != "#app-notice" or not mount or not screen.is_mounted:
            return None
        flow = [c for c in screen.children if c.styles.dock == "none" and c.id != "textual-tooltip"]
        if not flow:
            return None
        line = Static("", id="app-notice", markup=False)
        line.display = False
        screen.mount(line, before=flow[0])
        return line

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's notification, always as plain text (``markup`` is not used): a
        message quoting a name or a file ("[/]") was read as markup and ended the app.
        A path too long for the note's width is broken after a "/", not mid-word."""
        # Textual's Toast: 60 wide, at most half the screen, less its padding and edge
        width = min(60, self.size.width // 2) - 3
        super().notify(paths_broken_at_slashes(message, width), title=title,
                       severity=severity, timeout=timeout, markup=False)

    def _load_screen_css(self, screen: Screen) -> None:
        # a screen's CSS, the first time it opens, without parsing all the others again
        load_screen_css(self, screen)

    # --- the last line of defence --------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        # An error no screen caught: its traceback goes to a crash file (Textual still
        # restores the terminal and exits, non-zero); the player reads where it is.
        if not self._crashed:
            self._crashed = True
            from .crash import write_crash_file

            self.crash_file = write_crash_file(error, type(self.screen).__name__ if self.screen_stack else "")
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if not self._crashed:
            super()._print_error_renderables()
            return
        from .crash import crash_message

        self._exit_renderables.clear()
        try:
            print(crash_message(self.crash_file, self._exception), file=sys.stderr)
        except (OSError, ValueError):  # pragma: no cover - stderr gone
            pass

    # --- navigation -------------------------------------------------------------

    def open_campaign(self, slug: str) -> bool:
        """Open and lock a campaign and show its overview. False if it failed.

        A campaign with an overview cached for its text (``rules.overview``) shows it
        at once and is decoded after that frame, keys waiting (a league's 2,000
        battles: its screen at once, not after its decoding): ``self.handle`` is set
        then. False only for what fails before (locked, unreadable, not loading)."""
        from .screens.campaign.campaign import CampaignScreen

        if self.handle is not None and self.handle.campaign.id == slug:
            self._show_campaign()
            return True
        self.close_campaign()
        try:
            opening = self.store.begin_open(slug)
            if opening.overview is None:
                self.handle = opening.finish()
        except (CampaignLocked, SaveError, OSError) as error:
            self._say_open_error(error, slug)
            return False
        if self.handle is None:
            self._opening = opening
            screen = CampaignScreen(None, opening.overview)
            self._put_campaign_screen(screen)
            # after its first frame, next (before any key: they wait for it)
            screen.call_after_refresh(self.call_next, self._finish_opening)
            return True
        self._campaign_opened()
        self._show_campaign()
        return True

    def offer_backup(self, error: SaveError, title: str, reopen: Callable[[], object]) -> None:
        """:meth:`_offer_backup`, for a screen (a battle file the campaign left out)."""
        self._offer_backup(error, title, reopen)

    def _offer_backup(self, error: SaveError, title: str, reopen: Callable[[], object]) -> None:
        """A save that does not load is never overwritten: say where it is broken and
        offer the newest backup that loads (the broken file is kept beside it); after a
        restore, ``reopen`` tries again."""
        from .screens.common.dialogs import ConfirmScreen, ErrorScreen

        broken = Path(error.path)
        try:
            backup = self.store.newest_loadable_backup(broken)
        except OSError:  # pragma: no cover - an unreadable backups folder
            backup = None
        if backup is None:
            self.push_screen(ErrorScreen(title, f"{error}\n\nNo backup of it loads. The file is left as it is."))
            return

        def answered(restore: bool | None) -> None:
            if not restore:
                return
            try:
                self.store.restore_backup(backup, broken)
            except SaveError as again:
                self.push_screen(ErrorScreen("The backup could not be restored", str(again)))
                return
            self.notify(f"Restored {backup.name}; the broken file is kept in .backups")
            reopen()

        missing = not broken.exists()
        self.push_screen(
            ConfirmScreen(
                "This save is missing" if missing else "This save does not load",
                f"{error}\n\nRestore the newest backup that loads ({backup.name})? "
                + ("" if missing else "The broken file is kept beside it; nothing is deleted."),
                yes="Restore backup",
                no="Leave it",
            ),
            answered,
        )

    def commit_campaign(self, new: Campaign, what: str = "The campaign") -> bool:
        """The open campaign's new values committed by their owner, the handle (one
        transaction: they land whole or the old values stand, on disk and in memory); a
        failure is said as every failed save is (``guarded_save``). Every screen hears of
        a commit that landed (:meth:`campaign_committed`). False when it did not."""
        handle = self.handle
        if handle is None:
            return False
        if not self.guarded_save(what, lambda: handle.commit(new)):
            return False
        self.campaign_committed(what)
        return True

    def campaign_committed(self, what: str = "") -> None:
        """Tell every screen on the stack that the campaign's values were committed (a
        ``CampaignCommitted`` message: a screen that shows them shows them again)."""
        from .screens.common.committed import CampaignCommitted

        for screen in self.screen_stack:
            screen.post_message(CampaignCommitted(what))

    def guarded_save(self, what: str, save: Callable[[], object]) -> bool:
        """Run a save; a failure (full disk, read-only folder, a value that cannot be
        saved) is shown with its reason and False returned, so the caller keeps the
        player where they were. The previous save on disk is untouched."""
        from .screens.common.dialogs import ErrorScreen

        try:
            save()
        except WriteFailed as error:
            self.push_screen(ErrorScreen(f"{what} could not be saved", _write_failed_text(error)))
            return False
        except (SaveError, OSError, TypeError, ValueError) as error:
            self.push_screen(ErrorScreen(f"{what} could not be saved", f"{error}\n\nThe last save on disk is unchanged."))
            return False
        return True

    def _campaign_level(self) -> int:
        """Where campaign screens sit in the stack: right above the home screen, or at
        the bottom when the app started on a campaign."""
        from .screens.home.home import HomeScreen

        return 1 if isinstance(self.screen_stack[0], HomeScreen) else 0

    def _show_campaign(self) -> None:
        from .screens.campaign.campaign import CampaignScreen

        assert self.handle is not None
        self._put_campaign_screen(CampaignScreen(self.handle))

    def _put_campaign_screen(self, screen: Screen) -> None:
        level = self._campaign_level()
        while len(self.screen_stack) > max(level, 1):
            self.pop_screen()
        if level == 0:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def close_campaign(self) -> None:
        if self._opening is not None:  # (left before it was decoded)
            self._opening.cancel()
            self._opening = None
        if self.handle is not None:
            # the campaign's objects go back to the collector, which takes them once the
            # list is up (see Collector.collect_when_idle)
            self._collect_after(self.collector.campaign_closed(running=self.is_running))
            handle, self.handle = self.handle, None
            try:
                handle.close()
            except (SaveError, OSError) as error:  # a prepared campaign not written
                self.notify(f"The campaign could not be saved: {error}", severity="error")

    def _campaign_opened(self) -> None:
        self.collector.campaign_opened()
        if self.handle is None:
            return
        if (self.handle.path / "packs").is_dir():
            self._say_pack_problems()
        from .rules.packs.settings import note_setting_packs, settings_not_in_force

        settings = self.handle.campaign.settings
        # which pack each pack-supplied setting comes from, as the packs here say (kept
        # with the campaign's next save: a laptop without the pack can then name it)
        note_setting_packs(settings, self.rule_data)
        missing = settings_not_in_force(settings, self.rule_data)
        if missing:  # (the campaign opens: its pack may be missing on this machine)
            message = "\n\n".join(f"{m[0].upper()}{m[1:]}." for _f, _v, m in missing)
            self.notify(message, title="A pack this campaign plays is not here",
                        severity="warning", timeout=30)

    def _collect_when_idle(self) -> None:
        self._collect_after(self.collector.collect_when_idle(self._opening is not None,
                                                             self.handle is not None))

    def _collect_after(self, delay: float | None) -> None:
        if delay is not None:
            self.set_timer(delay, self._collect_when_idle)

    def battle_summary(self, number: int) -> BattleSummary:
        summary = summary_of(self.campaign, number)
        if summary is not None:
            return summary
        raise KeyError(f"no battle {number} in {self.campaign.name}")

    def open_battle(self, number: int) -> bool:
        """Continue a battle where it stands: set-up, battle or post-battle.

        The battle file is loaded (and validated) first: one that does not load, or is
        missing while the battle is under way, is said with its ``path:line:col`` and
        the newest backup that loads is offered; the campaign stays open and usable.
        False when the battle was not opened. The file is decoded here, once, into the
        typed parts its stages read (``rules.stages.battle_file``), handed to the screen
        with the stage host (``screens.common.stage_host``)."""
        if self.handle is None:  # the campaign was closed by a key pressed after this one
            return False
        summary = summary_of(self.campaign, number)
        if summary is None:  # a battle file the open left out: said, its backup offered
            left = {lo.number: lo for lo in self.handle.left_out() if lo.number is not None}.get(number)
            if left is not None:
                self._offer_backup(left.save_error(), f"Battle {number} could not be opened",
                                   lambda: self.open_battle(number))
            else:
                self.notify(f"There is no battle {number} in {self.campaign.name}.", severity="warning")
            return False
        data = self._load_battle_file(number, summary.status)
        if data is None:
            return False
        assert self.handle is not None
        from .rules.stages.battle_file import BattleFile
        from .screens.common.stage_host import StageHost, say_not_opened

        try:
            host = StageHost(self, self.handle, BattleFile.from_data(number, data))
            screen = battle_screen(host, BattleStatus(summary.status))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError) as error:
            # the file loads but its content does not make a battle the rules can replay
            say_not_opened(self, f"Battle {number} could not be opened",
                           str(self.handle.battle_path(number)), error)
            return False
        self._say_battle_packs(number, data)
        problem = self.handle.journal_problems.get(number)
        if problem is not None:  # (the tracker's journal: its lines from there left out)
            self.notify(f"Battle {number}'s tracker journal: {problem}. The battle opens as it "
                        "was before that line; the journal is kept in .backups/ as "
                        f"{self.handle.battle_path(number).stem}.events.broken.bak.",
                        severity="warning", timeout=20)
        # Replace whatever battle screen is showing with the one for its new stage.
        level = self._campaign_level()
        while len(self.screen_stack) > level + 1:
            self.pop_screen()
        self.push_screen(screen)
        return True

    def _load_battle_file(self, number: int, status: str) -> dict[str, Any] | None:
        """Battle ``number``'s file, loaded once for the screen that continues it ({} when
        it may be missing at this stage), or None when it does not load: said here, the one
        place a battle file's load failure is shown (with the newest backup that loads)."""
        from .screens.common.dialogs import ErrorScreen

        handle = self.handle
        assert handle is not None
        title = f"Battle {number} could not be opened"
        path = handle.battle_path(number)
        try:
            return handle.load_battle(number)
        except KeyError:
            if status in (BattleStatus.SETUP, BattleStatus.POST_BATTLE, BattleStatus.DONE):
                return {}  # not begun yet, or a battle fought without the tracker
            error = SaveError(path, 1, 1, "the battle file is missing (the battle is under way)")
            self._offer_backup(error, title, lambda: self.open_battle(number))
            return None
        except WriteFailed as error:
            self.push_screen(ErrorScreen(title, _write_failed_text(error)))
            return None
        except SaveError as error:
            self._offer_backup(error, title, lambda: self.open_battle(number))
            return None

    def new_battle(self, *, by_hand: bool = False) -> int:
        """Create the next battle record and open it: its set-up (status "setup"), or,
        ``by_hand``, for a battle fought without the tracker, the post-battle sequence,
        which first asks who fought and how it ended."""
        campaign = self.campaign
        assert self.handle is not None
        number = self.handle.next_battle_number()  # (after a left-out battle's too)
        status = FIRST_BY_HAND if by_hand else FIRST
        summary = BattleSummary(number=number, date=self.today(), status=status)
        # new values, committed by the handle (a failure: the player stays on the
        # campaign screen, the old values stand)
        if not self.commit_campaign(replace(campaign, battles=[*campaign.battles, summary]), "The new battle"):
            return 0
        from .rules.packs.check import pack_records

        # the packs it is played with (issue 35), none too: a battle without the record
        # was set up before battles kept it
        records = pack_records(self.rule_data)
        handle = self.handle
        self.guarded_save("The packs the battle is played with", lambda: (
            handle.update_battle(number, "packs", {"played_with": records})))
        self.open_battle(number)
        return number

    # --- keys and commands ------------------------------------------------------

    def set_keymap(self, keymap: Mapping[str, str]) -> None:
        """Textual's keymap, applied to the app's own bindings too: its priority bindings
        ("?" for the help over a dialog) are read from the app's map on a modal screen,
        which Textual's keymap does not reach (a remapped help key showed "?" there).
        A remapped key keeps its place in the footer and the help
        (:func:`munda_tui.keymap.keep_declared_order`)."""
        from .keymap import keep_declared_order
        from .textual_private import apply_keymap

        keep_declared_order()
        super().set_keymap(keymap)
        apply_keymap(self, keymap)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("help", "help_in_field"):
            # one help key in force (and in the footer): "?" unless a text field would
            # take it as a character, then F1
            typing = _typing(self.focused)
            return typing if action == "help_in_field" else not typing
        return super().check_action(action, parameters)

    def action_help_in_field(self) -> None:
        self.action_help()

    def action_more_keys(self) -> None:
        """The footer's overflow (80 columns): every key of the screen the footer does
        not show (cut for the width, or never shown), in a list; the one picked acts as
        its key would."""
        from .textual_private import FooterKey

        from .screens.common.dialogs import Pick, PickOneScreen
        from .widgets.keys import keys_text

        screen = self.screen
        keys = [k for k in screen.query(FooterKey) if k.display and k.region.width]
        # (the palette's key, docked right, covers any key that runs under it)
        edge = min([k.region.x for k in keys if k.has_class("-command-palette")],
                   default=self.size.width)
        shown = {k.action for k in keys if k.region.right <= edge}
        skip = {"help", "help_in_field", "more_keys", "command_palette", "quit"}
        options: list[Pick[tuple[Any, str]]] = []
        cut: list[Pick[tuple[Any, str]]] = []
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            own = active.node is screen or active.node is self
            if not binding.description or not binding.id or binding.action in seen | shown \
                    | skip or not (own or binding.show):
                continue  # (no id: Textual's own Tab and Ctrl+C, no key of the screen's)
            seen.add(binding.action)
            display = binding.key_display or self.get_key_display(binding)
            about = keys_text(screen, binding.tooltip or binding.description)
            pick = Pick((active.node, binding.action), f"{display}  {about}", active.enabled,
                        "not now")
            (cut if binding.show else options).append(pick)  # cut for the width: first
        options = cut + options
        if not options:
            self.notify("Every key of this screen is in the footer.")
            return

        def picked(choice: tuple[Any, str] | None) -> None:
            if choice is not None:
                node, action = choice
                self.call_next(self.run_action, action, node)

        # keys cut for the width, or only keys this screen keeps out of its footer (the
        # post-battle report's scrolling): the title says which
        title = "More keys (the footer has no room for them)" if cut else \
            "More keys (not in the footer)"
        self.push_screen(PickOneScreen(title, options), picked)

    def action_help(self) -> None:
        from .screens.common.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen.for_screen(self.screen))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help: keys on this screen", "Show the keys of this screen", self.action_help)
        yield SystemCommand("Go home", "Back to the list of campaigns", self.action_go_home)
        for info in self.store.listed():  # as the list last read them: no folder read per open
            if info.error is None:
                yield SystemCommand(
                    f"Open campaign: {info.name}",
                    f"Open {info.name} ({info.slug})",
                    lambda slug=info.slug: self.open_campaign(slug),
                )
        if self.handle is not None:
            for summary in self.handle.campaign.battles:
                yield SystemCommand(
                    f"Open battle {summary.number} ({summary.status})",
                    f"{summary.scenario or 'Battle'} on {summary.date}",
                    lambda n=summary.number: self.open_battle(n),
                )
        extra = getattr(screen, "palette_commands", None)
        if callable(extra):
            yield from extra()

    def action_go_home(self) -> None:
        from .screens.home.home import HomeScreen

        while not isinstance(self.screen, HomeScreen) and len(self.screen_stack) > 1:
            self.pop_screen()
        self.close_campaign()
        if isinstance(self.screen, HomeScreen):
            self.screen.refresh_campaigns()
        else:  # the app started on a campaign: the list takes the bottom of the stack
            self.switch_screen(HomeScreen())


if TYPE_CHECKING:
    from .screens.common.typed_app import MundaServices

    def _services_check(app: MundaApp) -> MundaServices:
        return app  # mypy: MundaApp provides every member screens are typed to use
