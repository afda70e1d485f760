"""Import a gang exported by Yaktribe into the open campaign.

Enter reads the file and shows what would be imported: the gang, its
fighters, the computed Gang Rating beside the file's with the reason for any
difference, and what to check. Ctrl+S adds it to the campaign. A file that
cannot be read or is not a Yaktribe export is explained and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input
from munda_tui.widgets.plain import Label, OptionList, Static
from munda_tui.widgets.header import Header
from textual.widgets.option_list import Option

from munda_tui.rules.core.wording import plural
from munda_tui.rules.core.model import FighterStatus, FighterType
from munda_tui.rules.campaign.yaktribe import YaktribeImport
from munda_tui.saves.errors import SaveError
from munda_tui.saves.importer import GangImportError, import_yaktribe, read_yaktribe
from munda_tui.widgets.footer import Footer
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.keys import Where, key_for, keys_text

#: One key per role for the fighter type names the importer cannot place.
ROLE_KEYS: tuple[tuple[str, FighterType], ...] = (
    ("l", FighterType.LEADER), ("c", FighterType.CHAMPION), ("p", FighterType.PROSPECT),
    ("s", FighterType.SPECIALIST), ("g", FighterType.GANGER), ("j", FighterType.JUVE),
    ("b", FighterType.BRUTE), ("h", FighterType.HANGER_ON), ("r", FighterType.HIRED_GUN),
    ("y", FighterType.BOUNTY_HUNTER), ("d", FighterType.DRAMATIS_PERSONAE),
)

def role_id(role: FighterType) -> str:
    """The binding id of a role's key (the keymap's name for it)."""
    return f"import_gang.role-{role.value.lower().replace(' ', '-')}"


#: the roles' keys as a text names them: ``{key:<id>}`` placeholders (widgets.keys)
ROLE_PLACEHOLDERS = "  ".join(f"{{key:{role_id(role)}}} {role.value}" for _k, role in ROLE_KEYS)

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle


def preview_text(result: YaktribeImport, node: "Where | None" = None) -> Text:
    """What the file holds; the importer's notes name keys by binding id (filled as
    ``node`` has them: the screen's keys in force)."""
    g = result.gang
    counts: dict[FighterStatus, int] = {}
    for f in g.fighters:
        counts[f.status] = counts.get(f.status, 0) + 1
    text = Text()
    text.append(f"{g.name}", style="bold")
    text.append(f"  {g.type.value}  ·  {plural(len(g.fighters), 'fighter')} ("
                + ", ".join(f"{n} {s.value}" for s, n in counts.items()) + ")"
                # the file's dead leave the roster for the gang's fallen (seed 004)
                + (f" and {len(g.fallen)} fallen (dead in the file)" if g.fallen else "")
                + "\n")
    text.append(f"Credits {g.credits} · Reputation {g.reputation} · Territories: "
                f"{', '.join(t.name for t in g.territories) or 'none'} · "
                f"{len(g.tactics)} Gang Tactics\n\n")
    check = result.rating
    text.append("Gang Rating: ", style="bold")
    text.append(f"computed {check.computed}")
    if check.file is not None:
        text.append(f", file {check.file}")
    text.append("  ✔ same\n" if check.matches else "  ≠\n",
                style="green" if check.matches else "yellow")
    text.append(check.reason + "\n")
    if result.notes:
        text.append("\nNotes\n", style="bold")
        for note in result.notes:
            text.append(f"• {note if node is None else keys_text(node, note)}\n")
    if result.warnings:
        text.append("\nTo check\n", style="bold yellow")
        for warning in result.warnings:
            text.append(f"• {warning}\n")
    return text


class ImportGangScreen(Screen[None]):
    HELP_TITLE = "Import a gang"
    HELP = (
        "On Yaktribe, a gang's JSON export is at https://yaktribe.games/underhive/json/gang/<id>.json. "
        "Save it, type its path and press Enter to check it; {key:import_gang.import} imports the gang into this "
        "campaign. Equipment has no cost in the export: it is recorded as unknown. "
        "Fighter type names the app cannot place are listed under the path: pick each with "
        "up/down and press the key of its role (" + ROLE_PLACEHOLDERS + "); the answers are "
        "remembered in the campaign for the next import."
    )
    CSS_PATH = "import_gang.tcss"
    BINDINGS = [
        Binding("ctrl+s", "import", "Import", id="import_gang.import"),
        Binding("escape", "back", "Back", id="import_gang.back"),
        *(Binding(key, f"role('{role.value}')", role.value, show=False, id=role_id(role)) for key, role in ROLE_KEYS),
    ]

    def __init__(self, handle: "CampaignHandle") -> None:
        super().__init__()
        self.handle = handle
        self.result: YaktribeImport | None = None
        self.path: Path | None = None
        self.roles: dict[str, FighterType] = {}  # type name -> the role the player gave

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="import"):
            yield Label(f"Import a Yaktribe gang into {self.handle.campaign.name}", classes="title")
            yield Static(f"The gang's JSON file (Enter to check it, {key_for(self, 'import_gang.import')} "
                         "to import):", classes="hint")
            yield Input(placeholder="e.g. ~/Downloads/157849.json", id="path")
            yield Static("", id="import-error", classes="error-text")
            yield Static("", id="roles-hint")
            yield OptionList(id="roles")
            with VerticalScroll(id="preview-box"):
                yield Static("", id="preview")
        yield Footer()

    def on_mount(self) -> None:
        self.show_roles()
        self.query_one("#path", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#import-error", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.check()

    def check(self) -> bool:
        text = self.query_one("#path", Input).value.strip()
        error = self.query_one("#import-error", Static)
        preview = self.query_one("#preview", Static)
        self.result = None
        self.show_roles()
        if not text:
            error.update("Type the path of the gang's JSON file.")
            return False
        path = Path(text).expanduser()
        try:
            campaign = self.handle.campaign
            result = read_yaktribe(path, taken_ids={g.id for g in campaign.gangs},
                                   roles=campaign.fighter_roles,
                                   ruleset=str(campaign.settings.post_battle_ruleset),
                                   rule_data=munda_app(self).rule_data)  # (a pack's roles)
        except GangImportError as exc:
            error.update(str(exc))
            preview.update("")
            return False
        self.result, self.path = result, path
        self.roles = {}
        error.update("")
        preview.update(preview_text(result, self))
        self.show_roles()
        if result.unknown_types:
            self.query_one("#roles", OptionList).focus()
        return True

    # --- the role of each type name the importer cannot place --------------------------
    def show_roles(self) -> None:
        roles = self.query_one("#roles", OptionList)
        hint = self.query_one("#roles-hint", Static)
        unknown = self.result.unknown_types if self.result else {}
        keep = roles.highlighted or 0
        roles.clear_options()
        roles.display = hint.display = bool(unknown)
        if not unknown:
            return
        left = sum(1 for label in unknown if label not in self.roles)
        hint.update(Text.assemble(
            ("Fighter types the app cannot place", "bold"),
            f" ({left} to answer): ↑/↓ a type, then its role: {keys_text(self, ROLE_PLACEHOLDERS)}"))
        for label, names in unknown.items():
            role = self.roles.get(label)
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            roles.add_option(Option(
                f"{label} ({len(names)}: {shown}) → {role.value if role else '?'}", id=label))
        roles.highlighted = min(keep, len(unknown) - 1)

    def action_role(self, role: str) -> None:
        roles = self.query_one("#roles", OptionList)
        if self.result is None or not self.result.unknown_types or roles.highlighted is None:
            return
        labels = list(self.result.unknown_types)
        label = labels[roles.highlighted]
        self.roles[label] = FighterType(role)
        self.show_roles()
        after = [i for i, name in enumerate(labels) if name not in self.roles]
        if after:
            roles.highlighted = next((i for i in after if i > labels.index(label)), after[0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "role":  # only while the list of type names has the focus
            return isinstance(self.focused, OptionList)
        return True

    def action_import(self) -> None:
        typed = Path(self.query_one("#path", Input).value.strip()).expanduser()
        if self.result is None or self.path != typed:  # not checked yet, or another file
            if not self.check():
                return
        assert self.path is not None
        missing = [label for label in (self.result.unknown_types if self.result else {})
                   if label not in self.roles]
        if missing:
            self.query_one("#import-error", Static).update(
                f"Give each fighter type a role first ({len(missing)} left: "
                f"{', '.join(missing)}): ↑/↓ and the role's key.")
            self.query_one("#roles", OptionList).focus()
            return
        try:
            result = import_yaktribe(self.handle, self.path, roles=self.roles,
                                     rule_data=munda_app(self).rule_data)
        except GangImportError as exc:
            self.query_one("#import-error", Static).update(str(exc))
            return
        except (SaveError, OSError) as exc:  # a disk fault: the campaign is unchanged
            self.query_one("#import-error", Static).update(f"Could not save the campaign: {exc}")
            return
        munda_app(self).campaign_committed("The import")  # (the screens show the new gang)
        check = result.rating
        self.notify(
            f"Imported {result.gang.name}: Gang Rating {check.computed}"
            + (f" (file {check.file})" if check.file is not None else "")
        )
        self.dismiss(None)

    def action_back(self) -> None:
        self.dismiss(None)
