"""Forms of the roster: a fighter, an equipment item, a gang.

Each form validates every field through ``rules.roster`` and shows what is
wrong right under the field; it dismisses with the validated values (or
None on Escape). The roster screen applies them: given ``apply``, the form hands the
values over before it closes, and a refusal (the Stash cannot pay, a fourth weapon, a
failed save) is said in the form, which stays open with every field as typed.
"""

from __future__ import annotations

from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Select, TextArea
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.campaign import roster as rr
from munda_tui.rules.core.profile import LABELS
from munda_tui.rules.core.model import (
    CHARACTERISTICS,
    ITEM_KINDS,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Gang,
    GangType,
    TerritoryKind,
)
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen

CHAR_LABELS = LABELS  # the card's column heads (rules.profile)


class FormScreen(DialogScreen[Any]):
    """A modal form: fields with an error line under each; Ctrl+S or Enter in a
    field saves, Escape cancels."""

    # the kit's frame; its own fields' layout in fighter_form.tcss
    CSS_PATH = [DIALOG_CSS, "fighter_form.tcss"]
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="form.save"),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
    ]
    FORM_TITLE = ""

    def __init__(self, initial: dict[str, str],
                 apply: Callable[[Any], str | None] | None = None) -> None:
        super().__init__()
        self.initial = initial
        # applies the checked values: None when done (the form closes), else the reason
        # they were refused (said in the form, every field kept)
        self.apply = apply
        self.refusal = ""

    # --- building blocks ------------------------------------------------------------

    def field_row(self, key: str, label: str, widget: Widget) -> ComposeResult:
        with Horizontal(classes="field-row", id=f"row-{key}"):
            yield Label(label, classes="field-label")
            yield widget
        yield Static("", id=f"e-{key}", classes="field-error")

    def on_mount(self) -> None:
        for static in self.query(".field-error"):
            static.display = False
        self.query(".field").first().focus()

    def set_error(self, target: Static, message: str) -> None:
        target.update(message)
        target.display = bool(message)

    def text_input(self, key: str, placeholder: str = "", **kw: Any) -> Input:
        return Input(self.initial.get(key, ""), placeholder=placeholder, id=f"f-{key}",
                     classes="field", compact=True, **kw)

    def select(self, key: str, options: list[tuple[str, str]]) -> Select[str]:
        value = self.initial.get(key) or options[0][1]
        return Select(options, value=value, allow_blank=False, id=f"f-{key}", classes="field",
                      compact=True)

    def text_area(self, key: str) -> TextArea:
        return TextArea(self.initial.get(key, ""), id=f"f-{key}", classes="field field-area",
                        soft_wrap=True, show_line_numbers=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box"):
            yield Label(self.FORM_TITLE, id="form-title", classes="title")
            with VerticalScroll(id="form-scroll"):
                yield from self.fields()
            yield Static("", id="form-status", classes="field-error")
        yield Footer()

    def fields(self) -> ComposeResult:  # pragma: no cover - every form defines it
        raise NotImplementedError

    # --- values and errors ----------------------------------------------------------

    def values(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for widget in self.query(".field"):
            key = (widget.id or "").removeprefix("f-")
            if isinstance(widget, Input):
                out[key] = widget.value
            elif isinstance(widget, Select):
                out[key] = "" if widget.value is Select.BLANK else str(widget.value)
            elif isinstance(widget, TextArea):
                out[key] = widget.text
        return out

    def show_errors(self, errors: dict[str, str], focus: bool = True) -> None:
        for static in self.query(".field-error").results(Static):
            if static.id and static.id.startswith("e-"):
                self.set_error(static, "")
        for key, message in errors.items():
            self.set_error(self.error_target(key), message)
        self.set_error(self.query_one("#form-status", Static), self.status_text(errors))
        if errors and focus:
            first = next(iter(errors))
            field = self.query(f"#f-{first}")
            if field:
                field.first().focus()

    def status_text(self, errors: dict[str, str]) -> str:
        """The form's last line: the fields to fix, else why the values were refused."""
        if errors:
            return f"{len(errors)} field{'s' if len(errors) != 1 else ''} to fix"
        return self.refusal

    def error_target(self, key: str) -> Static:
        return self.query_one(f"#e-{key}", Static)

    def check(self, values: dict[str, str]) -> tuple[Any, dict[str, str]]:  # pragma: no cover
        raise NotImplementedError

    def action_save(self) -> None:
        result, errors = self.check(self.values())
        self.refusal = ""
        if errors:
            self.show_errors(errors)
            return
        if self.apply is not None:
            reason = self.apply(result)
            if reason:
                self.refusal = f"{reason} (nothing saved; fix it, or {key_for(self, 'form.cancel')}: cancel)"
                self.show_errors({}, focus=False)
                return
        self.dismiss(result)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Once errors are shown, each keystroke checks again: a fixed field's error goes
        (and the count with it) while the player types, focus staying where it is."""
        status = self.query("#form-status")
        if not status or not status.first().display:
            return
        _result, errors = self.check(self.values())
        self.show_errors(errors, focus=False)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FighterFormScreen(FormScreen):
    """Add or edit a fighter; dismisses with ``rules.roster.FighterValues``."""

    HELP_TITLE = "Fighter"
    HELP = (
        "Every field is checked when you save ({key:form.save}, or Enter in a field): names are "
        "unique in the gang, credits, XP, Advancements and kills are whole numbers, never "
        "negative. WS, BS, Ld, Cl, Wil and Int are target numbers (3+, or 3; lower is better), "
        "the others plain numbers; - for none. A new fighter hired now is paid from the Stash. "
        "Skills and injuries: separate them with commas."
    )

    def __init__(self, gang: Gang, fighter: Fighter | None = None,
                 apply: Callable[[Any], str | None] | None = None) -> None:
        super().__init__(rr.fighter_form(fighter), apply)
        self.gang = gang
        self.fighter_id = fighter.id if fighter else None
        self.FORM_TITLE = f"Edit {fighter.name}" if fighter else f"New fighter for {gang.name}"

    def fields(self) -> ComposeResult:
        yield from self.field_row("name", "Name", self.text_input("name", "e.g. Kira Ashfall"))
        yield from self.field_row(
            "type", "Type", self.select("type", [(t.value, t.value) for t in FighterType])
        )
        yield from self.field_row("label", "Gang's name", self.text_input("label", "e.g. Gang Sister"))
        yield from self.field_row(
            "status", "Status",
            self.select("status", [(s.value.capitalize(), s.value) for s in FighterStatus]),
        )
        yield from self.field_row("cost", "Cost", self.text_input("cost", "credits, no equipment"))
        if self.fighter_id is None:  # hiring: the cost comes out of the Stash
            yield from self.field_row("paid", "Paid", self.select("paid", list(rr.PAID_CHOICES)))
        yield from self.field_row("xp", "XP", self.text_input("xp"))
        yield from self.field_row("advancements", "Advancements", self.text_input("advancements"))
        yield from self.field_row("kills", "Kills", self.text_input("kills"))
        yield Label("Characteristics", classes="field-label section")
        with Grid(id="chars"):
            for key in CHARACTERISTICS:
                with Vertical(classes="char"):
                    yield Label(CHAR_LABELS[key], classes="char-label")
                    yield Input(self.initial.get(key, ""), id=f"f-{key}",
                                classes="field char-input", compact=True)
        yield Static("", id="e-chars", classes="field-error")
        yield from self.field_row("skills", "Skills", self.text_input("skills", "comma separated"))
        yield from self.field_row("injuries", "Injuries", self.text_input("injuries", "comma separated"))
        yield from self.field_row("notes", "Notes", self.text_input("notes"))

    def error_target(self, key: str) -> Static:
        if key in CHARACTERISTICS:
            return self.query_one("#e-chars", Static)
        return super().error_target(key)

    def show_errors(self, errors: dict[str, str], focus: bool = True) -> None:
        chars = [msg for key, msg in errors.items() if key in CHARACTERISTICS]
        others = {k: v for k, v in errors.items() if k not in CHARACTERISTICS}
        super().show_errors(others)
        self.set_error(self.query_one("#e-chars", Static), "\n".join(chars))
        self.set_error(self.query_one("#form-status", Static), self.status_text(errors))
        if chars and not others:
            key = next(k for k in errors if k in CHARACTERISTICS)
            self.query_one(f"#f-{key}").focus()

    def check(self, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
        return rr.validate_fighter(self.gang, values, self.fighter_id)


class EquipmentFormScreen(FormScreen):
    """A new item (or one to correct); cost blank (or ?) = unknown. Dismisses with
    ``(Equipment, paid)``: paid is True when a new item is bought now (its cost comes
    out of the Stash)."""

    HELP_TITLE = "Equipment"
    HELP = ("Name, kind (a weapon counts 1 towards a fighter's limit of 3, an Unwieldy weapon "
            "2), cost in credits (blank if unknown: it then adds nothing to the rating) and "
            "quantity. A new item bought now is paid from the Stash.")

    def __init__(self, where: str, item: Equipment | None = None, catalogue: Any = None,
                 apply: Callable[[Any], str | None] | None = None) -> None:
        super().__init__(rr.equipment_form(item), apply)
        self.new = item is None
        self.catalogue = catalogue  # rules.catalogue.Catalogue: names complete, cost and kind fill
        self.FORM_TITLE = f"New equipment for {where}" if item is None else f"{item.name} ({where})"

    def fields(self) -> ComposeResult:
        from textual.suggester import SuggestFromList

        names = self.catalogue.item_names() if self.catalogue is not None else []
        yield from self.field_row("name", "Item", self.text_input(
            "name", "e.g. Lasgun", suggester=SuggestFromList(names, case_sensitive=False)
            if names else None))
        if names:
            yield Static("", id="item-matches", classes="hint")
        yield from self.field_row("kind", "Kind", self.select("kind", [(k, k) for k in ITEM_KINDS]))
        yield from self.field_row("cost", "Cost", self.text_input("cost", "credits; blank = unknown"))
        yield from self.field_row("qty", "Quantity", self.text_input("qty"))
        if self.new:
            yield from self.field_row("paid", "Paid", self.select("paid", list(rr.PAID_CHOICES)))

    def on_input_changed(self, event: Input.Changed) -> None:
        super().on_input_changed(event)
        if event.input.id == "f-name" and self.catalogue is not None and self.new:
            self._complete(event.value)

    def _complete(self, text: str) -> None:
        """Catalogue items matching the name typed, with cost and kind; an exact (or
        the only) match fills them in."""
        from munda_tui.rules.campaign import catalogue as cat

        found = cat.complete(self.catalogue.item_names(), text) if text.strip() else []
        matches = self.query("#item-matches")
        if matches:
            matches.first(Static).update("  ·  ".join(
                cat.item_label(self.catalogue.item(n)) for n in found[:4]))

    def _fill(self, entry: Any) -> None:
        self.query_one("#f-kind", Select).value = entry.kind
        self.query_one("#f-cost", Input).value = "" if entry.cost is None else str(entry.cost)

    def action_save(self) -> None:
        # Enter on a name that only begins a catalogue item takes that item
        if self.catalogue is not None and self.new:
            from munda_tui.rules.campaign import catalogue as cat

            name = self.query_one("#f-name", Input)
            found = cat.complete(self.catalogue.item_names(), name.value)
            entry = self.catalogue.item(name.value)
            if entry is None and name.value.strip() and found \
                    and cat._key(found[0]).startswith(cat._key(name.value)):
                entry = self.catalogue.item(found[0])
            # only an item whose cost is not typed yet takes the catalogue's cost and kind
            if entry is not None and not self.query_one("#f-cost", Input).value.strip():
                name.value = entry.name
                self._fill(entry)
        super().action_save()

    def check(self, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
        item, errors = rr.validate_equipment(values)
        if item is None:
            return None, errors
        return (item, values.get("paid") == rr.BOUGHT), {}


class GangFormScreen(FormScreen):
    """A gang's name, type, player, credits, Reputation, Gang Tactics and notes.
    Dismisses with ``rules.roster.GangValues``."""

    HELP_TITLE = "Gang"
    HELP = ("Credits and Reputation are whole numbers; Credits never negative, Reputation never "
            "below 0 under Gang War (Turf War 2017 sets no floor). Gang Tactics: one card per line.")

    def __init__(self, gang: Gang, other_names: list[str], *, new: bool = False,
                 ruleset: str = "",
                 apply: Callable[[Any], str | None] | None = None) -> None:
        form = rr.gang_form(gang)
        if new:
            form["type"] = GangType.OTHER.value
        super().__init__(form, apply)
        self.other_names = other_names
        self.ruleset = ruleset  # the campaign's: the range of its Reputation
        self.FORM_TITLE = "New gang" if new else f"Edit {gang.name}"

    def fields(self) -> ComposeResult:
        yield from self.field_row("name", "Name", self.text_input("name", "e.g. The Venom Sisters"))
        yield from self.field_row(
            "type", "Type", self.select("type", [(t.value, t.value) for t in GangType])
        )
        # the credits before the player's name: a new gang hires with them, the player
        # is optional
        yield from self.field_row("credits", "Credits", self.text_input("credits"))
        yield from self.field_row("player", "Player", self.text_input("player"))
        yield from self.field_row("reputation", "Reputation", self.text_input("reputation"))
        yield from self.field_row("tactics", "Gang Tactics", self.text_area("tactics"))
        yield from self.field_row("notes", "Notes", self.text_area("notes"))

    def check(self, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
        return rr.validate_gang(values, self.other_names, self.ruleset)


class TerritoryFormScreen(FormScreen):
    """A Territory's name and kind; dismisses with a Territory."""

    HELP_TITLE = "Territory"
    HELP = "A Special Territory adds 50 credits to the Gang Rating (seed 004, Update Gang Rating)."

    def __init__(self, gang: Gang, apply: Callable[[Any], str | None] | None = None) -> None:
        super().__init__({"name": "", "kind": TerritoryKind.TURF.value}, apply)
        self.gang = gang
        self.FORM_TITLE = f"New Territory for {gang.name}"

    def fields(self) -> ComposeResult:
        yield from self.field_row("name", "Territory", self.text_input("name", "e.g. Settlement"))
        yield from self.field_row(
            "kind", "Kind", self.select("kind", [(k.value.capitalize(), k.value) for k in TerritoryKind])
        )

    def check(self, values: dict[str, str]) -> tuple[Any, dict[str, str]]:
        return rr.validate_territory(self.gang, values)
