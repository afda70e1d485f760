"""Campaign settings: post-battle ruleset, Lasting Injury table, Sub-plot decks,
shared or separate deck, strict secrecy, dice by app or by hand.

Changes are made to a copy; Ctrl+S saves them to the campaign, Escape leaves
without saving.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual import work
from textual.widgets import Input, Select, Switch
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.core.limits import RANGES
from munda_tui.rules.campaign.career import xp_events
from munda_tui.rules.core.model import Settings
from munda_tui.rules.core.data import RuleData
from munda_tui.rules.core.rulesets import ruleset_choices
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.screens.common.dialogs import ConfirmScreen, ErrorScreen
from munda_tui.rules.core.readings import for_setting
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle
    from munda_tui.saves.packs import PackSet

#: field -> (label, options or None for a switch, explanation); the post-battle
#: sequences (options ``RULESET_FILES``) are the ruleset files (rules.rulesets), listed
#: when the screen is built (see setting_options)
RULESET_FILES: list[tuple[str, Any]] = []
CHOICES: dict[str, tuple[str, list[tuple[str, Any]] | None, str]] = {
    "post_battle_ruleset": (
        "Post-battle sequence",
        RULESET_FILES,
        "Which post-battle sequence the campaign plays after each battle.",
    ),
    "lasting_injury_table": (
        "Lasting Injury table",
        [("Rulebook 2018", "rulebook-2018"), ("Core Rulebook 2023", "core-2023")],
        "The table rolled on when a fighter goes Out of Action.",
    ),
    "subplot_decks": (
        "Sub-plot decks",
        [("House deck when possible", "house"), ("Suit decks (2018 Rulebook)", "suit")],
        "A House gang draws from its own House deck, or every gang from the suit decks.",
    ),
    "shared_deck": (
        "One shared deck",
        None,
        "On: the players draw from one shared deck. Off: each player has a full deck, an "
        "option the seed does not describe.",
    ),
    "strict_secrecy": (
        "Strict secrecy",
        None,
        "On: no discreet markers of hidden Sub-plots on the shared screen.",
    ),
    "dice_by_hand": (
        "Real dice by default",
        None,
        "On: dice prompts ask for the faces of real dice first. Off: the app rolls.",
    ),
    "turf_fixer_merc_two_actions": (
        "Fixer Merc: 2 actions",
        None,
        "On: a Merc with Fixer is \"a fighter who has the Fixer skill\" and takes two "
        "Post-Battle Actions. Off: one action, as Gang War gives a Merc with Fixer.",
    ),
}


XP_AWARD_MAX = RANGES[("Settings", "xp_awards")][1]


def setting_options(key: str, data: RuleData | None = None, current: Any = None,
                    from_packs: dict[str, str] | None = None) -> list[tuple[str, Any]] | None:
    """The (label, value) choices of a setting (None: a switch): the rulesets of the
    package and the packs in force (``data``); a value the campaign has that none of them
    has (its pack is missing) is offered as it is, said so."""
    options = CHOICES[key][1]
    found = ruleset_choices(data) if options is RULESET_FILES else options
    if key == "lasting_injury_table" and found is not None and data is not None:
        from munda_tui.rules.postbattle.core import injury_tables

        listed = [v for _l, v in found]  # (the packs' tables after the package's)
        found = [*found, *((t.get("title", tid), tid) for tid, t in injury_tables(data).items()
                          if tid not in listed)]
    if found is not None and current is not None and current not in [v for _l, v in found]:
        pack = (from_packs or {}).get(key, "")
        found = [*found, (f"{current} (unknown here: its pack {pack!r} is not in force)" if pack
                          else f"{current} (unknown: a typo, or its pack is missing)", current)]
    return found


def packs_text(packs: "PackSet") -> str:
    """The packs in force for the campaign, one line each (docs/packs.md)."""
    from munda_tui.saves.packs import describe

    if not packs.packs:
        lines = ["None. A club's own rules go in <config>/packs/<pack>/ (yours) or "
                 "<campaign>/packs/<pack>/ (the campaign's): munda-tui pack new, docs/packs.md."]
    else:
        lines = []
        for p in packs.packs:
            where = "yours" if p.where == "player" else "the campaign's"
            lines.append(f"{p.title} {p.version} ({where}, {p.id}): {describe(p)}")
    if packs.problems:
        lines.append(f"{len(packs.problems)} pack file(s) left out: munda-tui pack check")
    return "\n".join(lines)


class SettingsScreen(Asking, Screen[None]):
    HELP_TITLE = "Settings"
    HELP = ("The campaign's rules choices. {key:settings.save} saves; {key:settings.back} leaves "
            "(asking first if you changed something).")
    CSS_PATH = "settings.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("escape", "back", "Back", id="settings.back"),
    ]

    def __init__(self, handle: "CampaignHandle") -> None:
        super().__init__()
        self.handle = handle
        self.draft: Settings = replace(handle.campaign.settings)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="settings"):
            yield Label(f"Settings of {self.handle.campaign.name}", classes="title")
            for key, (label, _options, about) in CHOICES.items():
                value = getattr(self.draft, key)
                options = setting_options(key, munda_app(self).rule_data, value,
                                          self.draft.from_packs)
                with Vertical(classes="setting"):
                    with Horizontal(classes="setting-row"):
                        yield Label(label, classes="setting-label")
                        if options is None:
                            yield Switch(value=bool(value), id=f"s-{key}")
                            yield Label("On" if value else "Off", id=f"state-{key}",
                                        classes="switch-state")
                        else:
                            yield Select(options, value=str(value), allow_blank=False,
                                         id=f"s-{key}", classes="setting-select", compact=True)
                    for r in for_setting(key):  # the seed's words this setting reads
                        about += f"\nReading \"{r.title}\": {r.seed}"
                    yield Static(about, classes="hint setting-about", markup=False)
            yield Label("XP awards", classes="title")
            yield Static("What each event in the tracker's log earns, from your rulebook (the "
                         "seeds do not print it; blank: nothing). Wrap Up (Turf War 2017: End "
                         "of Battle Events) proposes each fighter's XP from these.", classes="hint setting-about")
            for event in xp_events(munda_app(self).rule_data):
                value = self.draft.xp_awards.get(event["id"])
                with Horizontal(classes="setting-row"):
                    yield Label(event["label"].capitalize(), classes="setting-label")
                    yield Input("" if value is None else str(value), id=f"xp-{event['id']}",
                                placeholder="XP", classes="setting-select", compact=True)
                yield Static(event["per"], classes="hint setting-about")
            yield Label("Packs in force", classes="title")
            yield Static(packs_text(munda_app(self).packs), id="settings-packs",
                         classes="hint setting-about", markup=False)
            yield Static("", id="settings-status", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#s-post_battle_ruleset").focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        key = (event.select.id or "").removeprefix("s-")
        if key == "post_battle_ruleset":
            self.draft.post_battle_ruleset = str(event.value)
        elif key in CHOICES:
            setattr(self.draft, key, str(event.value))
        self._status()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        key = (event.switch.id or "").removeprefix("s-")
        if key in CHOICES:
            setattr(self.draft, key, event.value)
            self.query_one(f"#state-{key}", Label).update("On" if event.value else "Off")
        self._status()

    def on_input_changed(self, event: Input.Changed) -> None:
        key = (event.input.id or "").removeprefix("xp-")
        awards = dict(self.draft.xp_awards)  # a new table: the campaign's is not touched
        text = event.value.strip()
        self.bad_xp: set[str] = getattr(self, "bad_xp", set())
        self.bad_xp.discard(key)
        if not text:
            awards.pop(key, None)
        elif text.isdigit() and len(text) <= 6 and int(text) <= XP_AWARD_MAX:
            awards[key] = int(text)
        else:
            self.bad_xp.add(key)
        self.draft.xp_awards = awards
        self._status()

    @property
    def changed(self) -> bool:
        return self.draft != self.handle.campaign.settings

    def _status(self) -> None:
        bad = sorted(getattr(self, "bad_xp", set()))
        self.query_one("#settings-status", Static).update(
            f"XP awards: {', '.join(bad)} must be a whole number of XP, 0 to {XP_AWARD_MAX} (or blank)." if bad
            else keys_text(self, "Changed: {key:settings.save} to save.") if self.changed else ""
        )

    def action_save(self) -> None:
        if getattr(self, "bad_xp", set()):
            self._status()
            return
        from munda_tui.rules.packs.settings import note_setting_packs

        settings = replace(self.draft)
        note_setting_packs(settings, munda_app(self).rule_data)  # (the pack it is from)
        # new values, committed by the handle: they land whole or the old settings stand
        if not munda_app(self).commit_campaign(replace(self.handle.campaign, settings=settings),
                                               "The settings"):
            return
        self.draft = replace(settings)
        self.notify("Settings saved")
        self._status()

    @work(group="dialog")
    async def action_back(self) -> None:
        if not self.changed:
            self.dismiss(None)
            return
        if await self.ask(
            ConfirmScreen("Leave without saving?", "Your changes to the settings are lost.",
                          yes="Leave", no="Stay")
        ):
            self.dismiss(None)
