"""A gang's roster: fighters in a sortable table, their equipment and the Stash.

Every edit goes through ``rules.roster`` as new values: it edits a copy of the gang,
and the campaign handle commits the campaign with that gang in one transaction that
lands whole or leaves the old values (:meth:`RosterScreen.edit`; nothing is undone by
hand). The tables follow the commit's ``CampaignCommitted`` message; the Gang Rating
shown is always the computed one, and a change to it is announced.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from munda_tui.widgets.plain import DataTable, Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.campaign import roster as rr
from munda_tui.rules.campaign.career import captives, status_text as career_status
from munda_tui.rules.core.profile import format_value
from munda_tui.rules.core.model import (
    CHARACTERISTICS,
    WEAPON_LIMIT,
    Equipment,
    Fighter,
    FighterStatus,
    Gang,
    Territory,
)
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.committed import CampaignCommitted
from munda_tui.screens.common.dialogs import DIALOG_CSS, ConfirmScreen, ListDialog
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.screens.campaign.fighter_form import (
    CHAR_LABELS,
    EquipmentFormScreen,
    FighterFormScreen,
    GangFormScreen,
    TerritoryFormScreen,
)
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for, keys_text

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle

#: Sort order cycled by the sort key: "" = roster order.
SORTS: list[tuple[str, str]] = [
    ("", "roster order"),
    ("name", "name"),
    ("type", "type"),
    ("status", "status"),
    ("xp", "XP"),
    ("advancements", "Advancements"),
    ("rating", "rating"),
]

DIM_STATUSES = {FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED}


def item_text(item: Equipment) -> str:
    return (f"{item.qty}x " if item.qty > 1 else "") + item.name


def kind_mark(item: Equipment) -> str:
    """How the item counts towards the weapon limit: (w) 1, (Unwieldy) 2."""
    return {"weapon": " (w)", "Unwieldy weapon": " (Unwieldy)"}.get(item.kind, "")


def cost_text(item: Equipment) -> str:
    if item.cost is None:
        return "?"
    return str(item.cost * item.qty)


def status_text(f: Fighter) -> str:
    return f.status.value.capitalize()


#: the fighter table's columns: (key, label, width at 100 columns; None: as wide as needed).
#: Long cells are cut with an ellipsis; the detail view below shows them in full.
ROSTER_COLUMNS: tuple[tuple[str, str, int | None], ...] = (
    ("name", "Name", 16), ("type", "Type", 10), ("status", "Status", 9), ("xp", "XP", None),
    ("advancements", "Adv", None), ("rating", "Rating", None), ("equipment", "Equipment", 16),
    ("injuries", "Injuries", 9), ("skills", "Skills", 9),
)


def clip(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when cut."""
    if width is None or len(text) <= width:
        return text
    return text[: max(0, width - 1)] + "…"


def column_widths(screen_width: int) -> dict[str, int | None]:
    """Widths so that every column fits ``screen_width`` (the extra goes to Equipment,
    Injuries and Skills)."""
    widths = {key: width for key, _label, width in ROSTER_COLUMNS}
    extra = max(0, screen_width - 100)
    for key, share in (("equipment", 2), ("injuries", 1), ("skills", 1)):
        widths[key] = (widths[key] or 0) + extra * share // 4
    # narrower: Equipment gives first, then the rest (3 more: room for a scrollbar)
    short = max(0, 100 - screen_width) + (3 if screen_width < 100 else 0)
    for key, least in (("equipment", 8), ("name", 12), ("injuries", 6), ("skills", 6),
                       ("status", 6), ("type", 7)):
        give = min(short, (widths[key] or 0) - least)
        if give > 0:
            widths[key] = (widths[key] or 0) - give
            short -= give
    return widths


#: keys that act on the selected fighter: left out while the gang has none
FIGHTER_ACTIONS = frozenset({"edit_fighter", "retire", "retire_to_pool", "delete",
                             "copy_fighter", "move_item"})


class RosterScreen(Asking, Screen[None]):
    HELP_TITLE = "Roster"
    HELP = (
        "The gang's fighters, the selected fighter's equipment and the Stash. Equipment "
        "moves only between a fighter and the Stash ({key:roster.move_item}), never between two fighters "
        "(seed 004, Distribute Equipment); the Gang Rating follows. Retiring ({key:roster.retire}) puts a "
        "fighter's equipment in the Stash unless they are a Hired Gun; {key:roster.retire_to_pool} sends a fighter to "
        "the Merc / Bounty Hunter pool (their equipment goes with them). Costs shown as ? are "
        "unknown and add nothing to the rating. A fighter carries at most three weapons, an "
        "Unwieldy weapon counting two (w / Unwieldy beside the item); {key:roster.edit_item} corrects an item's "
        "kind and cost, {key:roster.remove_item} removes it after asking. Hiring ({key:roster.add_fighter}) and buying ({key:roster.add_item}) take the cost "
        "from the Stash unless marked free; Wealth is the Gang Rating plus the Stash."
    )
    CSS_PATH = "roster.tcss"
    BINDINGS = [
        Binding("a", "add_fighter", "Add", tooltip="Add a fighter (hire)", id="roster.add_fighter"),
        Binding("e", "edit_fighter", "Edit", tooltip="Edit the selected fighter (or Enter)", id="roster.edit_fighter"),
        Binding("R", "retire", "Retire", tooltip="Retire the selected fighter", id="roster.retire"),
        Binding("P", "retire_to_pool", "To the Merc pool", show=False,
                tooltip="The fighter leaves to become a Merc or Bounty Hunter: equipment lost",
                id="roster.retire_to_pool"),
        Binding("d,delete", "delete", "Delete", tooltip="Delete the fighter card (a mistake)", id="roster.delete"),
        Binding("plus,equals_sign", "add_item", "Add item", key_display="+",
                tooltip="New item on the fighter, or in the Stash when it has focus", id="roster.add_item"),
        Binding("m", "move_item", "Move item",
                tooltip="Item to the Stash; from the Stash (focused) to the selected fighter", id="roster.move_item"),
        Binding("x", "remove_item", "Remove item", show=False,
                tooltip="Remove the item (sold, spent or lost; asks first)", id="roster.remove_item"),
        Binding("h", "hire", "Hire", tooltip="Hire from the catalogue: a type (completion as "
                "you type), a name; the cost comes off the Stash", id="roster.hire"),
        Binding("c", "copy_fighter", "Copy", tooltip="Copy the selected fighter (type, profile, "
                "equipment; asks the name; paid from the Stash)", id="roster.copy_fighter"),
        Binding("i", "edit_item", "Edit item", show=False,
                tooltip="Correct the item: name, kind, cost, quantity", id="roster.edit_item"),
        Binding("o", "sort", "Sort", tooltip="Sort by the next column", id="roster.sort"),
        Binding("O", "sort_reverse", "Reverse sort", show=False, tooltip="Reverse the sort", id="roster.sort_reverse"),
        Binding("g", "edit_gang", "Gang",
                tooltip="Edit the gang: name, credits, Reputation, Gang Tactics", id="roster.edit_gang"),
        Binding("t", "territories", "Territories", tooltip="Territories: add, remove, Special", id="roster.territories"),
        Binding("escape", "back", "Back", tooltip="Back to the campaign", id="roster.back"),
    ]

    def __init__(self, handle: "CampaignHandle", gang_id: str) -> None:
        super().__init__()
        self.handle = handle
        self.gang_id = gang_id
        self.sort_index = 0
        self.sort_reverse = False
        self._select: str | None = None  # (the fighter an edit added: selected when it lands)

    @property
    def gang(self) -> Gang:
        return self.handle.campaign.gang(self.gang_id)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="roster"):
            yield Label("", id="gang-title", classes="title")
            yield Static("", id="gang-summary", classes="hint")
            yield DataTable(id="fighters", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="lower"):
                yield Static("", id="fighter-detail")
                with Vertical(id="items"):
                    yield Label("", id="gear-title", classes="section")
                    yield DataTable(id="gear", cursor_type="row", show_header=False)
                    yield Label("", id="stash-title", classes="section")
                    yield DataTable(id="stash", cursor_type="row", show_header=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._load_catalogue()
        table = self.query_one("#fighters", DataTable)
        self.widths = column_widths(self.app.size.width)
        for key, label, _width in ROSTER_COLUMNS:
            table.add_column(label, key=key, width=self.widths[key])
        for tid in ("#gear", "#stash"):
            items = self.query_one(tid, DataTable)
            items.add_column("Item", key="item")
            items.add_column("Cr", key="cost")
        self.refresh_all()
        table.focus()

    # --- display ----------------------------------------------------------------------

    def refresh_all(self, select: str | None = None) -> None:
        gang = self.gang
        self.query_one("#gang-title", Label).update(
            f"{gang.name}  ·  {gang.type.value}  ·  Gang Rating {gang.rating}"
        )
        territories = ", ".join(t.name + (" (S)" if t.kind.value == "special" else "")
                                for t in gang.territories) or "none"
        sort_key, sort_label = SORTS[self.sort_index]
        held = ", ".join(f"{f.name} ({g.name})" for g, f in captives(self.handle.campaign, gang.id))
        held = f" · Holds captive: {held}" if held else ""
        # the retired are off the roster, kept apart (seed 004: "removed from the gang's
        # roster"), as the dead are among the fallen: named here, not in the table
        left = ", ".join(f"{f.name} ({f.status.value})" for f in gang.departed)
        left = f" · Left the roster: {left}" if left else ""
        from munda_tui.rules.campaign.counters import gang_text

        # the club's own counters (a pack's, issue 35): "Scrap 3 · "
        counters = gang_text(gang, munda_app(self).rule_data)
        self.query_one("#gang-summary", Static).update(
            f"Reputation {gang.reputation} · Stash {gang.credits} cr · Wealth {gang.wealth} · "
            + (f"{counters} · " if counters else "")
            + f"{len(gang.tactics)} Tactics · Territories: {territories}"
            + held + left
            + (f" · sorted by {sort_label}" if sort_key else "")
            + (" (reversed)" if self.sort_reverse and sort_key else "")
        )
        table = self.query_one("#fighters", DataTable)
        current = select or self.selected_fighter_id()
        table.clear()
        fighters = rr.sorted_fighters(gang.fighters, sort_key, self.sort_reverse)
        for f in fighters:
            style = "dim" if f.status in DIM_STATUSES else ""
            cells = [
                f.name, f.label or f.type.value, status_text(f), str(f.xp), str(f.advancements),
                str(f.rating) + ("*" if f.unknown_costs else ""),
                ", ".join(item_text(e) for e in f.equipment),
                ", ".join(i.name for i in f.injuries),
                ", ".join(f.skills),
            ]
            table.add_row(*(Text(clip(c, w), style=style)
                            for c, w in zip(cells, self.widths.values())), key=f.id)
        if current is not None:
            ids = [f.id for f in fighters]
            if current in ids:
                table.move_cursor(row=ids.index(current))
        self.refresh_items()
        self.refresh_bindings()  # the fighter keys only with a fighter to act on

    def refresh_items(self) -> None:
        gang = self.gang
        fighter = self.selected_fighter()
        gear = self.query_one("#gear", DataTable)
        gear_row = gear.cursor_row
        gear.clear()
        detail = self.query_one("#fighter-detail", Static)
        if fighter is None:
            self.query_one("#gear-title", Label).update("Equipment")
            detail.update(keys_text(self, "No fighters yet: press {key:roster.add_fighter} to add one."))
        else:
            self.query_one("#gear-title", Label).update(
                f"{fighter.name}: {fighter.rating} cr · weapons {fighter.weapon_count}/{WEAPON_LIMIT}")
            for i, item in enumerate(fighter.equipment):
                gear.add_row(item_text(item) + kind_mark(item), cost_text(item), key=str(i))
            if fighter.equipment:
                gear.move_cursor(row=min(gear_row, len(fighter.equipment) - 1))
            detail.update(self.detail_text(fighter))
        stash = self.query_one("#stash", DataTable)
        stash_row = stash.cursor_row
        stash.clear()
        value = rr.stash_value(gang)
        self.query_one("#stash-title", Label).update(f"Stash equipment ({value} cr)")
        for i, item in enumerate(gang.stash):
            stash.add_row(item_text(item) + kind_mark(item), cost_text(item), key=str(i))
        if gang.stash:
            stash.move_cursor(row=min(stash_row, len(gang.stash) - 1))

    def detail_text(self, f: Fighter) -> Text:
        text = Text()
        text.append(f"{f.name}", style="bold")
        text.append(f"  {f.type.value}" + (f" ({f.label})" if f.label else "") + "\n")
        if f.characteristics:
            heads = "".join(f"{CHAR_LABELS[k]:>4}" for k in CHARACTERISTICS)
            values = "".join(
                f"{format_value(k, f.characteristics.get(k)):>4}" for k in CHARACTERISTICS
            )
            text.append(heads + "\n", style="dim")
            text.append(values + "\n")
        text.append(f"Cost {f.cost} · XP {f.xp} · Adv {f.advancements} · Kills {f.kills}\n")
        if f.status is not FighterStatus.ACTIVE:
            line = career_status(f, {g.id: g.name for g in self.handle.campaign.gangs})
            text.append(line[0].upper() + line[1:] + "\n", style="bold")
        for inj in f.injuries:
            bits = ", ".join(x for x in (inj.effect, f"battle {inj.battle}" if inj.battle else "") if x)
            text.append(f"Injury: {inj.name}" + (f" ({bits})" if bits else "") + "\n")
        if f.skills:
            text.append(f"Skills: {', '.join(f.skills)}\n")
        if f.unknown_costs:
            n = len(f.unknown_costs)
            text.append(f"* {n} item{'s' if n > 1 else ''} of unknown cost (?): the rating "
                        "counts only known costs\n", style="dim")
        if f.notes:
            text.append(f.notes + "\n", style="italic")
        return text

    # --- selection --------------------------------------------------------------------

    def selected_fighter_id(self) -> str | None:
        table = self.query_one("#fighters", DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(row_key.value)

    def selected_fighter(self) -> Fighter | None:
        fid = self.selected_fighter_id()
        return None if fid is None else self.gang.fighter(fid)

    def _row(self, table_id: str) -> int | None:
        table = self.query_one(table_id, DataTable)
        return table.cursor_row if table.row_count else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "fighters":
            self.refresh_items()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "fighters":
            event.stop()
            self.action_edit_fighter()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        keys = [k for k, _ in SORTS]
        key = str(event.column_key.value)
        if event.data_table.id == "fighters" and key in keys:
            index = keys.index(key)
            self.sort_reverse = not self.sort_reverse if index == self.sort_index else False
            self.sort_index = index
            self.refresh_all()

    # --- saving -----------------------------------------------------------------------

    def edit(self, change: Callable[[Gang], str], landed: Callable[[], None] | None = None) -> bool:
        """A roster edit as new values (issue 33.4): ``change`` edits a copy of the gang
        and says what it did (a RosterError it raises is the caller's to show: nothing is
        committed); the campaign with that gang is committed by the handle, in one
        transaction that lands whole or leaves the old values, on disk and in memory (a
        failure is said in the error dialog). The tables follow the commit's message
        (:meth:`on_campaign_committed`); ``landed`` runs once they did (before the
        catalogue learns the gang). False when nothing was committed."""
        campaign = self.handle.campaign
        old = self.gang
        gang = deepcopy(old)
        message = change(gang)
        new = replace(campaign, gangs=[gang if g.id == old.id else g for g in campaign.gangs])
        if not munda_app(self).commit_campaign(new):
            self._select = None
            return False
        if landed is not None:
            landed()
        if gang.rating != old.rating:
            message += f" · Gang Rating {old.rating} → {gang.rating}"
        message += f" · Wealth {gang.wealth}"
        self.notify(message)
        self.learn(gang.fighters, gang.stash)  # every fighter and item entered
        return True

    def _edited(self, change: Callable[[Gang], str], landed: Callable[[], None] | None = None) -> str | None:
        """:meth:`edit` for a form: None when committed, else what the form says (the
        rules' refusal, or that the campaign could not be saved)."""
        try:
            return None if self.edit(change, landed) else self.NOT_SAVED
        except rr.RosterError as error:
            return str(error)

    def on_campaign_committed(self, message: CampaignCommitted) -> None:
        """The campaign's values were committed (an edit here, or elsewhere): the roster
        shows the gang's new values (a fighter just added selected)."""
        select, self._select = self._select, None
        if self.is_attached and not self.handle.closed and any(
                g.id == self.gang_id for g in self.handle.campaign.gangs):
            self.refresh_all(select=select)

    def _fail(self, error: Exception) -> None:
        self.notify(str(error), severity="error")

    #: what a form says when the save failed (the error dialog gives the details)
    NOT_SAVED = "The campaign could not be saved"

    # --- fighters ---------------------------------------------------------------------

    def action_add_fighter(self) -> None:
        gang = self.gang

        def apply(values: rr.FighterValues) -> str | None:
            def change(g: Gang) -> str:
                fighter = rr.add_fighter(g, values, paid=values.hired)
                self._select = fighter.id
                paid = f" for {values.cost} credits from the Stash" if values.hired and values.cost else ""
                return f"Hired {fighter.name}{paid}" if values.hired else f"Added {fighter.name}"

            return self._edited(change)

        self.app.push_screen(FighterFormScreen(gang, apply=apply))

    def action_edit_fighter(self) -> None:
        fighter = self.selected_fighter()
        if fighter is None:
            return
        gang = self.gang

        def apply(values: rr.FighterValues) -> str | None:
            def change(g: Gang) -> str:
                rr.update_fighter(g, fighter.id, values)
                return f"Saved {g.fighter(fighter.id).name}"

            return self._edited(change)

        self.app.push_screen(FighterFormScreen(gang, fighter, apply=apply))

    @work(group="dialog")
    async def _confirm_then(self, question: ConfirmScreen, change: Callable[[Gang], str]) -> None:
        """Ask ``question`` (from a worker); on yes make ``change`` as an edit
        (:meth:`edit`). A RosterError is shown, nothing committed."""
        if not await self.ask(question):
            return
        self._edit_or_say(change)

    def _edit_or_say(self, change: Callable[[Gang], str]) -> None:
        try:
            self.edit(change)
        except rr.RosterError as error:
            self._fail(error)

    def action_retire(self) -> None:
        fighter = self.selected_fighter()
        if fighter is None:
            return
        hired = fighter.type in rr.HIRED
        detail = (
            "A Hired Gun takes their equipment with them."
            if hired else "Their equipment is recovered to the Stash."
        )

        def retire(g: Gang) -> str:
            items = rr.retire_fighter(g, fighter.id)
            extra = f", {len(items)} items to the Stash" if items else ""
            return f"{fighter.name} retired{extra}"

        self._confirm_then(
            ConfirmScreen(f"Retire {fighter.name}?", detail, yes="Retire", no="Keep"), retire)

    def action_retire_to_pool(self) -> None:
        fighter = self.selected_fighter()
        if fighter is None:
            return
        def leave(g: Gang) -> str:
            rr.retire_fighter(g, fighter.id, to_pool=True)
            return f"{fighter.name} left for the Merc / Bounty Hunter pool"

        self._confirm_then(
            ConfirmScreen(f"{fighter.name} becomes a Merc or Bounty Hunter?",
                          "Agreed with the Arbitrator: the fighter takes their equipment and it "
                          "is lost (seed 004, Retiring Fighters Equipment Retention).",
                          yes="Leave", no="Keep"),
            leave)

    def action_delete(self) -> None:
        fighter = self.selected_fighter()
        if fighter is None:
            return
        def delete(g: Gang) -> str:
            rr.delete_fighter(g, fighter.id)
            return f"Deleted {fighter.name}"

        self._confirm_then(
            ConfirmScreen(
                f"Delete {fighter.name}?",
                "The fighter card and the equipment on it are removed, as if never on the "
                f"roster. To let a fighter leave by the rules, retire them "
                f"({key_for(self, 'roster.retire')}) instead.",
                yes="Delete", no="Keep",
            ),
            delete)

    # --- equipment --------------------------------------------------------------------

    # --- the catalogue ------------------------------------------------------------------

    def _load_catalogue(self) -> None:
        """The campaign's catalogue and the packs in the config folder (bad ones said)."""
        from munda_tui.rules.campaign.catalogue import Catalogue
        from munda_tui.saves.catalogue import load_campaign_catalogue, load_packs
        from munda_tui.saves import SaveError

        try:
            self.own_catalogue = load_campaign_catalogue(self.handle.path)
        except SaveError as error:
            self.own_catalogue = Catalogue()
            self.notify(f"The campaign's catalogue did not load: {error}", severity="error",
                        timeout=15)
        packs, problems = load_packs(munda_app(self).config_dir)
        for problem in problems:
            self.notify(f"Catalogue pack not loaded: {problem}", severity="warning", timeout=15)
        self.packs = [c for _path, c in packs]
        for gang in self.handle.campaign.gangs:  # imported or entered before: learned too
            self.learn(gang.fighters, gang.stash)

    @property
    def catalogue(self):  # type: ignore[no-untyped-def]
        return self.own_catalogue.merged(*self.packs)

    def learn(self, fighters=(), items=()) -> None:  # type: ignore[no-untyped-def]
        """The campaign's catalogue learns the fighters' types and the items entered."""
        from munda_tui.saves.catalogue import save_campaign_catalogue

        changed = self.own_catalogue.learn_gang(fighters, items)
        if changed:
            try:
                save_campaign_catalogue(self.handle.path, self.own_catalogue)
            except OSError as error:
                self.notify(f"The catalogue could not be saved: {error}", severity="warning")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in FIGHTER_ACTIONS and not self.gang.fighters:
            return False  # nothing to edit, retire, delete, copy or give an item to
        # asked by the footer for every key at every change: the focused widget's id, not
        # a query of the screen (a walk of every widget, most of a key's time here); also
        # while the screen is being taken down (no table, no crash)
        focused = self.focused
        fighters = focused is not None and focused.id == "fighters"
        if action == "copy_fighter":
            return fighters
        if action == "edit_item":
            return not fighters
        return True

    def action_hire(self) -> None:
        from munda_tui.rules.campaign import catalogue as cat
        from munda_tui.screens.campaign.hire import HireChoice, HireScreen

        gang = self.gang

        def attempt(choice: HireChoice) -> str | None:
            """Hire now; the reason when refused (the dialog stays open, nothing is
            saved: a new type is learned only with a hire that is saved)."""
            own = self.own_catalogue
            # a new type's items are known to the hire, not yet to the catalogue
            items = [i for i in choice.new_items if own.item(i.name) is None] \
                if choice.new_type else []
            new_type = choice.new_type and own.type(choice.entry.name) is None
            trial = cat.Catalogue(own.name, own.fighter_types + [choice.entry] * new_type,
                                  own.items + items).merged(*self.packs)

            def change(g: Gang) -> str:
                credits = g.credits
                fighter = cat.hire(g, trial, choice.entry, choice.name)
                self._select = fighter.id
                return (f"Hired {fighter.name} ({choice.entry.name}) "
                        f"for {credits - g.credits} credits from the Stash")

            def learned() -> None:  # (the catalogue learns a new type with a hire that landed)
                own.items.extend(items)
                if new_type:
                    own.fighter_types.append(choice.entry)

            refused = self._edited(change, learned)
            if refused is not None:
                return refused
            if choice.new_type:
                from munda_tui.saves.catalogue import save_campaign_catalogue

                try:
                    save_campaign_catalogue(self.handle.path, own)
                except OSError as error:
                    self.notify(f"The catalogue could not be saved: {error}", severity="warning")
            return None

        self.app.push_screen(HireScreen(gang, self.catalogue, attempt))

    def action_copy_fighter(self) -> None:
        from munda_tui.rules.campaign import catalogue as cat
        from munda_tui.screens.common.dialogs import LineScreen, squash

        fighter = self.selected_fighter()
        if fighter is None:
            return
        gang = self.gang

        def copy_named(name: str) -> str | None:
            """Hire the copy now; the reason when refused (the name stays typed)."""
            if name.lower() in {f.name.lower() for f in gang.fighters}:
                return f"{name} is taken in this gang."

            def change(g: Gang) -> str:
                credits = g.credits
                copy = cat.copy_fighter(g, g.fighter(fighter.id), name)
                self._select = copy.id
                return (f"Hired {copy.name}, a copy of {fighter.name}, "
                        f"for {credits - g.credits} credits from the Stash")

            try:
                return None if self.edit(change) else self.NOT_SAVED
            except rr.RosterError as error:
                return f"{error} ({key_for(self, 'line.cancel')}: cancel)"

        self.app.push_screen(LineScreen(f"Copy {fighter.name} ({fighter.label or fighter.type.value}): "
                                        "the new fighter's name", placeholder="the new fighter's name",
                                        check=copy_named, clean=squash))

    def _items_focus(self) -> str:
        """Which list the equipment keys act on: the Stash when it has focus,
        else the selected fighter."""
        return "stash" if self.focused is self.query_one("#stash", DataTable) else "gear"

    def action_add_item(self) -> None:
        if self._items_focus() == "stash":
            owner, where = rr.STASH, "the Stash"
        else:
            fighter = self.selected_fighter()
            if fighter is None:
                return
            owner, where = fighter.id, fighter.name

        def apply(answer: tuple[Equipment, bool]) -> str | None:
            item, paid = answer

            def change(g: Gang) -> str:
                rr.add_equipment(g, owner, item, paid=paid)
                bought = f" for {item.value} credits from the Stash" if paid else ""
                return f"{item_text(item)} added to {where}{bought}"

            return self._edited(change)

        self.app.push_screen(EquipmentFormScreen(where, catalogue=self.catalogue, apply=apply))

    def action_move_item(self) -> None:
        fighter = self.selected_fighter()
        if self._items_focus() == "stash":
            index = self._row("#stash")
            if index is None or fighter is None:
                self.notify("Select an item in the Stash and a fighter to give it to.",
                            severity="warning")
                return
            source, dest, where = rr.STASH, fighter.id, f"to {fighter.name}"
        else:
            index = self._row("#gear")
            if index is None or fighter is None:
                self.notify("Select an item on a fighter (or Tab to the Stash).",
                            severity="warning")
                return
            source, dest, where = fighter.id, rr.STASH, "to the Stash"
        def change(g: Gang) -> str:
            moved = rr.move_equipment(g, source, index, dest)
            return f"Moved {item_text(moved)} {where}"

        self._edit_or_say(change)

    @work(group="dialog")
    async def action_remove_item(self) -> None:
        gang = self.gang
        if self._items_focus() == "stash":
            owner, index, where = rr.STASH, self._row("#stash"), "the Stash"
        else:
            fighter = self.selected_fighter()
            if fighter is None:
                return
            owner, index, where = fighter.id, self._row("#gear"), fighter.name
        if index is None:
            return
        items = rr.holder(gang, owner)
        if not 0 <= index < len(items):
            return
        name = item_text(replace(items[index], qty=1))

        if not await self.ask(
                ConfirmScreen(f"Remove {name} from {where}?",
                              "Sold, spent or lost: the item leaves the roster (no credits back).",
                              yes="Remove", no="Keep")):
            return
        def change(g: Gang) -> str:
            removed = rr.remove_equipment(g, owner, index)
            return f"Removed {item_text(removed)} from {where}"

        self._edit_or_say(change)

    def action_edit_item(self) -> None:
        gang = self.gang
        if self._items_focus() == "stash":
            owner, index, where = rr.STASH, self._row("#stash"), "the Stash"
        else:
            fighter = self.selected_fighter()
            if fighter is None:
                return
            owner, index, where = fighter.id, self._row("#gear"), fighter.name
        items = rr.holder(gang, owner)
        if index is None or not 0 <= index < len(items):
            return
        old = replace(items[index])

        def apply(answer: tuple[Equipment, bool]) -> str | None:
            def change(g: Gang) -> str:
                new = rr.update_equipment(g, owner, index, answer[0])
                return f"{new.name}: {new.kind}, {cost_text(new)} credits"

            return self._edited(change)

        self.app.push_screen(EquipmentFormScreen(where, old, apply=apply))

    # --- sorting, gang, territories -----------------------------------------------------

    def action_sort(self) -> None:
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self.sort_reverse = self.sort_index > 0 and SORTS[self.sort_index][0] in ("xp", "advancements", "rating")
        self.refresh_all()

    def action_sort_reverse(self) -> None:
        self.sort_reverse = not self.sort_reverse
        self.refresh_all()

    def action_edit_gang(self) -> None:
        gang = self.gang
        others = [g.name for g in self.handle.campaign.gangs if g.id != gang.id]

        def apply(values: rr.GangValues) -> str | None:
            def change(g: Gang) -> str:
                rr.update_gang(g, values)
                return f"Saved {g.name}"

            return self._edited(change)

        ruleset = str(self.handle.campaign.settings.post_battle_ruleset)
        self.app.push_screen(GangFormScreen(gang, others, ruleset=ruleset, apply=apply))

    @work(group="dialog")
    async def action_territories(self) -> None:
        await self.ask(TerritoriesScreen(lambda: self.gang, self.edit))

    def action_back(self) -> None:
        self.dismiss(None)


class TerritoriesScreen(ListDialog[None]):
    """The gang's Territories: add, remove, and mark a Special Territory (+50 to
    the Gang Rating) or a Stronghold."""

    HELP_TITLE = "Territories"
    HELP = "{key:territories.kind} cycles the kind: Turf, Special (adds 50 to the Gang Rating), Stronghold."
    # the kit's frame; its own box and list in roster.tcss (tests/screens/test_dialog_kit.py)
    CSS_PATH = [DIALOG_CSS, "roster.tcss"]
    BINDINGS = [
        Binding("a", "add", "Add", id="territories.add"),
        Binding("k", "kind", "Kind", id="territories.kind"),
        Binding("x,delete", "remove", "Remove", id="territories.remove"),
        Binding("escape", "close", "Close", id="territories.close"),
    ]

    def __init__(self, gang: Callable[[], Gang], edit: Callable[[Callable[[Gang], str]], bool]) -> None:
        super().__init__()
        self._gang = gang
        self.edit = edit  # (the roster's: a change of a copy of the gang, committed)

    @property
    def gang(self) -> Gang:
        """The gang as the campaign's values have it now (new after each commit)."""
        return self._gang()

    def _edit(self, change: Callable[[Gang], str]) -> str | None:
        try:
            if not self.edit(change):
                return RosterScreen.NOT_SAVED
        except rr.RosterError as error:
            return str(error)
        self.refresh_table()
        return None

    def _edit_or_say(self, change: Callable[[Gang], str]) -> None:
        """An edit made by a key: the rules' refusal said (a failed save says itself)."""
        refused = self._edit(change)
        if refused is not None and refused != RosterScreen.NOT_SAVED:
            self.notify(refused, severity="error")

    def compose(self) -> ComposeResult:
        with Vertical(id="territories-box"):
            yield Label(f"Territories of {self.gang.name}", classes="title")
            yield DataTable(id="territories", cursor_type="row")
            yield Static(keys_text(self, "{key:territories.add} add · {key:territories.kind} kind · "
                                         "{key:territories.remove} remove · {key:territories.close} close"),
                         classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Territory", key="name")
        table.add_column("Kind", key="kind")
        self.refresh_table()
        table.focus()

    def refresh_table(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for i, t in enumerate(self.gang.territories):
            table.add_row(t.name, t.kind.value.capitalize(), key=str(i))
        if self.gang.territories:
            table.move_cursor(row=min(row, len(self.gang.territories) - 1))

    def _index(self) -> int | None:
        table = self.query_one(DataTable)
        return table.cursor_row if table.row_count else None

    def action_add(self) -> None:
        def apply(territory: Territory) -> str | None:
            def change(g: Gang) -> str:
                rr.add_territory(g, territory)
                return f"{territory.name} added"

            return self._edit(change)

        self.app.push_screen(TerritoryFormScreen(self.gang, apply=apply))

    def action_kind(self) -> None:
        index = self._index()
        if index is None:
            return
        def change(g: Gang) -> str:
            t = rr.cycle_territory_kind(g, index)
            return f"{t.name} is now {t.kind.value}"

        self._edit_or_say(change)

    def action_remove(self) -> None:
        index = self._index()
        if index is None:
            return
        def change(g: Gang) -> str:
            t = rr.remove_territory(g, index)
            return f"{t.name} removed"

        self._edit_or_say(change)

    def line_taken(self, lines: object) -> None:
        """A Territory's number puts the cursor on it (the kind and remove keys act there)."""

    def action_close(self) -> None:
        self.dismiss(None)
