"""The campaign's catalogue: fighter types and items, learned and loaded from packs.

The campaign's own entries can be corrected (``e``) or deleted (``d``, asks first);
entries from a pack in the config folder are shown with the pack's name and
changed in the pack itself. ``x`` exports the campaign's catalogue as a pack for
another club member.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual import work
from textual.screen import Screen
from textual.widgets import Input
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import DataTable, Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.campaign import catalogue as cat
from munda_tui.rules.core import profile as pr
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.dialogs import ConfirmScreen, DialogScreen, ErrorScreen
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle


def _profile_text(profile: dict[str, int]) -> str:
    return " ".join(pr.format_value(k, profile.get(k)) for k in pr.CHARACTERISTICS)


class EntryScreen(DialogScreen["dict[str, Any] | None"]):
    """Correct one catalogue entry; every field checked as a pack is (rules.catalogue)."""

    DEFAULT_CSS = """
    EntryScreen #entry-box { width: 84; max-width: 100%; height: auto;
        border: thick $primary; background: $surface; padding: 0 1; }
    EntryScreen .entry-row { height: auto; }
    EntryScreen .entry-label { width: 11; color: $text-muted; }
    EntryScreen .entry-row Input { width: 1fr; }
    EntryScreen #entry-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="entry.cancel"),
                Binding("ctrl+s", "save", "Save", id="entry.save")]

    def __init__(self, kind: str, values: dict[str, str], others: cat.Catalogue) -> None:
        super().__init__()
        self.kind = kind  # "fighter_types" | "items"
        self.values = values
        self.others = others  # the rest of the catalogue: names stay unique

    def compose(self) -> ComposeResult:
        with Vertical(id="entry-box"):
            yield Label("Fighter type" if self.kind == "fighter_types" else "Item")
            for key, text in self.values.items():
                with Horizontal(classes="entry-row"):
                    yield Label(key.capitalize(), classes="entry-label")
                    yield Input(text, id=f"e-{key}", compact=True)
            yield Static("", id="entry-error", markup=False)
            yield Static(f"Enter or {key_for(self, 'entry.save')} saves, "
                         f"{key_for(self, 'entry.cancel')} cancels", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        raw = {k: self.query_one(f"#e-{k}", Input).value.strip() for k in self.values}
        entry: dict[str, Any] = {"name": raw["name"]}
        try:
            if self.kind == "fighter_types":
                entry["role"] = raw["role"]
                entry["cost"] = int(raw["cost"]) if raw["cost"].isdigit() else raw["cost"]
                entry["profile"] = raw["profile"]
                entry["equipment"] = [p.strip() for p in raw["equipment"].split(",") if p.strip()]
            else:
                if raw["cost"]:
                    entry["cost"] = int(raw["cost"]) if raw["cost"].isdigit() else raw["cost"]
                entry["kind"] = raw["kind"]
                if raw["rarity"]:
                    entry["rarity"] = raw["rarity"]
            checked = cat.catalogue_from_data({self.kind: [entry]})
        except cat.CatalogueError as error:
            where = error.keypath[-1] if error.keypath else ""
            self.query_one("#entry-error", Static).update(f"{where}: {error.message}")
            return
        taken = (self.others.type(entry["name"]) if self.kind == "fighter_types"
                 else self.others.item(entry["name"]))
        if taken is not None:
            self.query_one("#entry-error", Static).update(
                f"name: {entry['name']!r} is in the catalogue already")
            return
        got = checked.fighter_types[0] if self.kind == "fighter_types" else checked.items[0]
        self.dismiss({"entry": got})

    def action_cancel(self) -> None:
        self.dismiss(None)


class CatalogueScreen(Asking, Screen[None]):
    HELP_TITLE = "Catalogue"
    HELP = ("The fighter types and items this campaign knows: learned from every fighter and "
            "item entered or imported, and loaded from the packs in the config folder's packs/ "
            "(shown with the pack's name). Tab moves between the two lists. {key:catalogue.edit} "
            "corrects an entry of the campaign, {key:catalogue.delete} deletes one (asks first), "
            "{key:catalogue.export} exports the campaign's "
            "catalogue as a pack for another club member.")
    BINDINGS = [
        Binding("e,enter", "edit", "Edit", tooltip="Correct the selected entry", id="catalogue.edit"),
        Binding("d,delete", "delete", "Delete", tooltip="Delete the selected entry (asks first)",
                id="catalogue.delete"),
        Binding("x", "export", "Export pack", tooltip="Write the campaign's catalogue as a pack",
                id="catalogue.export"),
        Binding("escape", "back", "Back", id="catalogue.back"),
    ]
    DEFAULT_CSS = """
    CatalogueScreen #catalogue { padding: 0 1; }
    CatalogueScreen DataTable { height: 1fr; }
    CatalogueScreen .section { text-style: bold; color: $accent; }
    """

    def __init__(self, handle: "CampaignHandle") -> None:
        super().__init__()
        self.handle = handle

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="catalogue"):
            yield Label("", id="cat-title", classes="title")
            yield Label("Fighter types", classes="section")
            yield DataTable(id="types", cursor_type="row", zebra_stripes=True)
            yield Label("Items", classes="section")
            yield DataTable(id="items", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        from munda_tui.rules.campaign.catalogue import Catalogue
        from munda_tui.saves import SaveError
        from munda_tui.saves.catalogue import load_campaign_catalogue, load_packs

        self.title = f"{self.handle.campaign.name}: catalogue"
        try:
            self.own = load_campaign_catalogue(self.handle.path)
        except SaveError as error:
            self.own = Catalogue()
            self.notify(f"The campaign's catalogue did not load: {error}", severity="error")
        packs, problems = load_packs(munda_app(self).config_dir)
        for problem in problems:
            self.notify(f"Catalogue pack not loaded: {problem}", severity="warning", timeout=15)
        self.packs = [c for _p, c in packs]
        types = self.query_one("#types", DataTable)
        for label in ("Type", "Role", "Cost", "Profile", "Equipment", "From"):
            types.add_column(label)
        items = self.query_one("#items", DataTable)
        for label in ("Item", "Kind", "Cost", "Rarity", "From"):
            items.add_column(label)
        self.refresh_tables()
        types.focus()

    def _source(self, kind: str, name: str) -> str:
        own = self.own.type(name) if kind == "types" else self.own.item(name)
        if own is not None:
            return "campaign"
        for pack in self.packs:
            if (pack.type(name) if kind == "types" else pack.item(name)) is not None:
                return f"pack: {pack.name}"
        return ""

    def refresh_tables(self) -> None:
        merged = self.own.merged(*self.packs)
        types = self.query_one("#types", DataTable)
        row = types.cursor_row
        types.clear()
        for t in merged.fighter_types:
            types.add_row(t.name, t.role.value, str(t.cost), _profile_text(t.profile),
                          ", ".join(t.equipment), self._source("types", t.name), key=t.name)
        items = self.query_one("#items", DataTable)
        irow = items.cursor_row
        items.clear()
        for i in merged.items:
            items.add_row(i.name, i.kind, "?" if i.cost is None else str(i.cost), i.rarity,
                          self._source("items", i.name), key=i.name)
        if merged.fighter_types:
            types.move_cursor(row=min(row, len(merged.fighter_types) - 1))
        if merged.items:
            items.move_cursor(row=min(irow, len(merged.items) - 1))
        self.query_one("#cat-title", Label).update(
            f"{len(merged.fighter_types)} fighter types, {len(merged.items)} items"
            + (f" · packs: {', '.join(p.name for p in self.packs)}" if self.packs else "")
            + ("" if merged.fighter_types or merged.items else
               " · learned as you enter fighters and items, or loaded from packs"))

    def _selected(self) -> tuple[str, str] | None:
        focused = self.focused
        table: DataTable = (focused if isinstance(focused, DataTable)
                                 else self.query_one("#types", DataTable))
        if table.row_count == 0:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return ("types" if table.id == "types" else "items"), str(key.value)

    def _save(self, message: str) -> None:
        from munda_tui.saves.catalogue import save_campaign_catalogue

        try:
            save_campaign_catalogue(self.handle.path, self.own)
        except OSError as error:
            self.app.push_screen(ErrorScreen("Could not save the catalogue", str(error)))
            return
        self.notify(message)
        self.refresh_tables()

    def _own_only(self, kind: str, name: str) -> bool:
        if self._source(kind, name) != "campaign":
            self.notify(f"{name} comes from a pack: change it in the pack's file.",
                        severity="warning")
            return False
        return True

    @work(group="dialog")
    async def action_edit(self) -> None:
        picked = self._selected()
        if picked is None or not self._own_only(*picked):
            return
        kind, name = picked
        if kind == "types":
            t = self.own.type(name)
            assert t is not None
            values = {"name": t.name, "role": t.role.value, "cost": str(t.cost),
                      "profile": _profile_text(t.profile), "equipment": ", ".join(t.equipment)}
            others = cat.Catalogue(fighter_types=[x for x in self.own.fighter_types if x is not t])
            data_kind = "fighter_types"
        else:
            i = self.own.item(name)
            assert i is not None
            values = {"name": i.name, "kind": i.kind,
                      "cost": "" if i.cost is None else str(i.cost), "rarity": i.rarity}
            others = cat.Catalogue(items=[x for x in self.own.items if x is not i])
            data_kind = "items"

        result: dict[str, Any] | None = await self.ask(EntryScreen(data_kind, values, others))
        if result is None:
            return
        if kind == "types":
            types = self.own.fighter_types
            types[next(n for n, t in enumerate(types) if t.name == name)] = result["entry"]
        else:
            items = self.own.items
            items[next(n for n, i in enumerate(items) if i.name == name)] = result["entry"]
        self._save(f"Saved {result['entry'].name}")

    @work(group="dialog")
    async def action_delete(self) -> None:
        picked = self._selected()
        if picked is None or not self._own_only(*picked):
            return
        kind, name = picked

        if not await self.ask(ConfirmScreen(
                f"Delete {name} from the catalogue?",
                "Fighters and items on the rosters keep it; only the catalogue forgets it.",
                yes="Delete", no="Keep")):
            return
        (self.own.remove_type if kind == "types" else self.own.remove_item)(name)
        self._save(f"{name} deleted from the catalogue")

    @work(group="dialog")
    async def action_export(self) -> None:
        from munda_tui.screens.common.dialogs import LineScreen
        from munda_tui.saves.catalogue import write_file

        default = str(Path.cwd() / f"{self.handle.campaign.id}-pack.toml")

        path: str | None = await self.ask(LineScreen(
            "Export the catalogue as a pack: the file to write",
            value=default, placeholder="a file path"))
        if path is None:
            return
        pack = cat.Catalogue(self.handle.campaign.name, list(self.own.fighter_types),
                             list(self.own.items))
        try:
            write_file(Path(path).expanduser(), pack)
        except OSError as error:
            self.app.push_screen(ErrorScreen("Could not write the pack", str(error)))
            return
        self.notify(f"Wrote {len(pack.fighter_types)} fighter types and {len(pack.items)} "
                    f"items to {path}: it loads from <config dir>/packs/", timeout=10)

    def action_back(self) -> None:
        self.app.pop_screen()
