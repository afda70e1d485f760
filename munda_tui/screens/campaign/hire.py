"""Hiring from the catalogue: pick a fighter type (completion as you type), a name, done.

A type the catalogue does not know yet is entered in the same dialog, one line a
field: role, cost, the profile on one line (``5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+``, or
twelve digits, which move on by themselves once the twelfth is typed) and the
default equipment (``Pistol, Knife 5, Vest 10a``; a new item is a weapon unless its
kind follows its cost, and each item's kind and cost show as it is typed). Enter
moves on; the last Enter hires. The screen only asks: the roster applies the
result through :mod:`munda_tui.rules.campaign.catalogue` (the cost comes off the Stash), handed
``attempt``; a hire refused (the Stash cannot pay, over the weapon limit, a failed save)
is said here and the dialog stays open with every field as typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from munda_tui.screens.common.dialogs import DialogScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.campaign import catalogue as cat
from munda_tui.rules.core import profile as pr
from munda_tui.rules.core.model import FighterType, Gang
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for

ROLES = [r.value for r in FighterType]
PROFILE_DIGITS = re.compile(r"[0-9-]{12}")  # a whole profile, one digit a value


@dataclass
class HireChoice:
    """What the dialog decided: the type (new ones included), the fighter's name and
    the items the catalogue learns with a new type."""

    entry: cat.TypeEntry
    name: str
    new_type: bool = False
    new_items: list[cat.ItemEntry] = field(default_factory=list)


class HireScreen(DialogScreen["HireChoice | None"]):
    """Hire a fighter by type and name; dismisses with a :class:`HireChoice`."""

    DEFAULT_CSS = """
    HireScreen #hire-box {
        width: 84; max-width: 100%; height: auto; border: thick $primary;
        background: $surface; padding: 0 1;
    }
    HireScreen #hire-title { text-style: bold; }
    HireScreen .hire-row { height: auto; }
    HireScreen .hire-label { width: 11; color: $text-muted; }
    HireScreen .hire-row Input { width: 1fr; }
    HireScreen #hire-matches, HireScreen #hire-cost, HireScreen #hire-gear {
        color: $text-muted; height: auto; }
    HireScreen #hire-error { color: $error; height: auto; }
    HireScreen .hidden { display: none; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="hire.cancel")]
    HELP_TITLE = "Hire"
    HELP = ("Type the fighter type (its first letters, or a word of it; Enter takes the first "
            "match, a match's number takes that one), then the name. A new type asks its role, cost, profile on one line "
            "(M WS BS S T W I A Ld Cl Wil Int; twelve digits move on by themselves) and default "
            "equipment (a new item with its cost, a weapon unless a kind letter follows: "
            "Vest 10a, g wargear, c consumable, u Unwieldy); the catalogue learns it. "
            "The whole cost comes off the Stash.")

    def __init__(self, gang: Gang, catalogue: cat.Catalogue,
                 attempt: Callable[[HireChoice], str | None] | None = None) -> None:
        super().__init__()
        self.gang = gang
        self.catalogue = catalogue
        # hires the choice: None when hired (the dialog closes), else why it was refused
        self.attempt = attempt
        self.entry: cat.TypeEntry | None = None  # the type picked (None: new)
        self.new_items: list[cat.ItemEntry] = []
        self._auto_moved = False  # the profile's twelfth digit moved on to the equipment
        self._error_text = ""  # what the error line says now
        self._type_text = ""  # the type field as it was before its last change
        self._shown: list[str] = []  # the types the matches line shows, numbered from 1

    def _row(self, key: str, label: str, placeholder: str, suggest: list[str] | None = None,
             hidden: bool = False) -> ComposeResult:
        with Horizontal(classes="hire-row" + (" new-type hidden" if hidden else ""),
                        id=f"row-{key}"):
            yield Label(label, classes="hire-label")
            yield Input(placeholder=placeholder, id=f"h-{key}", compact=True,
                        suggester=SuggestFromList(suggest, case_sensitive=False)
                        if suggest else None)

    def compose(self) -> ComposeResult:
        names = self.catalogue.type_names()
        with Vertical(id="hire-box"):
            yield Label(f"Hire for {self.gang.name} (Stash {self.gang.credits} cr)",
                        id="hire-title")
            yield from self._row("type", "Type", "a type from the catalogue, or a new one",
                                 names + [r for r in ROLES if self.catalogue.type(r) is None])
            yield Static("", id="hire-matches", markup=False)
            yield from self._row("name", "Name", "the fighter's name")
            yield from self._row("role", "Role", "Leader, Champion, Ganger, Juve ...", ROLES,
                                 hidden=True)
            yield from self._row("cost", "Cost", "credits (the fighter, no equipment)",
                                 hidden=True)
            yield from self._row("profile", "Profile", "M WS BS S T W I A Ld Cl Wil Int, "
                                 "e.g. 5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+", hidden=True)
            yield from self._row("equipment", "Equipment",
                                 "items, commas; new ones with cost (Knife 5, Vest 10a)",
                                 self.catalogue.item_names(), hidden=True)
            yield Static("", id="hire-gear", markup=False, classes="new-type hidden")
            yield Static("", id="hire-cost", markup=False)
            yield Static("", id="hire-error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#h-type", Input).focus()
        self._show_matches("")

    # --- helpers ----------------------------------------------------------------------

    def _value(self, key: str) -> str:
        return self.query_one(f"#h-{key}", Input).value.strip()

    def _error(self, text: str) -> None:
        self._error_text = text
        self.query_one("#hire-error", Static).update(text)

    def _matches(self, text: str) -> list[str]:
        return cat.complete(self.catalogue.type_names(), text)

    def _show_matches(self, text: str) -> None:
        found = self._matches(text)
        self._shown = []
        if not self.catalogue.fighter_types:
            line = "The catalogue is empty: a new type is learned as you hire it."
        elif not found:
            line = "No such type yet: Enter makes it a new one."
        else:
            entries = [e for n in found[:4] if (e := self.catalogue.type(n)) is not None]
            self._shown = [e.name for e in entries]
            line = "  ·  ".join(f"{i} {cat.type_label(e)}" for i, e in enumerate(entries, start=1))
        self.query_one("#hire-matches", Static).update(line)

    def _new_type(self, on: bool) -> None:
        for row in self.query(".new-type"):
            row.set_class(not on, "hidden")

    def _show_cost(self) -> None:
        if self.entry is None:
            self.query_one("#hire-cost", Static).update("")
            return
        total = cat.hire_cost(self.catalogue, self.entry)
        gear = ", ".join(self.entry.equipment) or "no equipment"
        self.query_one("#hire-cost", Static).update(
            f"{self.entry.name}: {self.entry.role.value}, {self.entry.cost} cr + {gear} = "
            f"{total} cr from the Stash ({self.gang.credits} cr)")

    # --- input ------------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "h-type":
            before, self._type_text = self._type_text, event.value
            if not self._match_number(before, event.value):
                self._show_matches(event.value)
        elif event.input.id == "h-profile" and event.input.has_focus:
            if self._error_text.startswith("Profile:"):
                self._error("")  # the line is being fixed: the old count no longer holds
            self._profile_typed(event.value)
        elif event.input.id == "h-equipment":
            self._auto_moved = self._auto_moved and not event.value.strip()
            self._show_gear(event.value)

    def _match_number(self, before: str, text: str) -> bool:
        """A match's number typed after the type's letters takes that match, as Enter
        takes the first (a digit that is part of a type's name stays typed)."""
        digit = text[len(before):]
        if not (text.startswith(before) and len(digit) == 1 and digit in "123456789"):
            return False
        if int(digit) > len(self._shown) or self._matches(text):
            return False
        self.query_one("#h-type", Input).value = self._shown[int(digit) - 1]
        self._after_type()
        return True

    def _profile_typed(self, text: str) -> None:
        """Twelve digits (or ``-``) are a whole profile: on to the equipment, no Enter.
        A line with spaces or ``+`` may go on, so it waits for Enter."""
        if not PROFILE_DIGITS.fullmatch(text):
            return
        try:
            cat.parse_profile_line(text)
        except pr.ProfileError as error:
            self._error(f"Profile: {error}")
            return
        self._error("")
        self._auto_moved = True
        self._focus("equipment")

    def _show_gear(self, text: str) -> None:
        """Each item of the equipment line as it will be hired: kind and cost."""
        known, shown = self.catalogue, []
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            try:
                names, new = cat.parse_equipment_line(part, known)
            except ValueError:  # said in full on Enter; while typing, briefly
                shown.append(f"{part}: new, give its cost")
                continue
            had = [n for n in names if known.item(n) is not None]
            known = known.merged(cat.Catalogue(items=new))
            for n in names:
                label = cat.item_label(known.item(n) or cat.ItemEntry(n))
                if n in had and any(i.name == n for i in new):  # typed a cost it has
                    label = label[:-1] + ": the catalogue's)"
                shown.append(label)
        self.query_one("#hire-gear", Static).update("  ·  ".join(shown))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._error("")
        step = (event.input.id or "").removeprefix("h-")
        getattr(self, f"_after_{step}")()

    def _focus(self, key: str) -> None:
        self.query_one(f"#h-{key}", Input).focus()

    def _after_type(self) -> None:
        text = self._value("type")
        if not text:
            self._error("Type a fighter type (or the first letters of one).")
            return
        found = self._matches(text)
        known = self.catalogue.type(text) or (self.catalogue.type(found[0]) if found else None)
        field_ = self.query_one("#h-type", Input)
        if known is not None:
            self.entry = known
            field_.value = known.name
            self._new_type(False)
        else:
            # a new type; named after a role (what the field suggests as you type) it
            # takes that role
            role = next((r for r in ROLES if r.lower().startswith(text.lower())), None)
            if role is not None:
                field_.value = role
            self.entry = None
            self._new_type(True)
            self.query_one("#h-role", Input).value = role or ""
        self._show_cost()
        self._focus("name")

    def _after_name(self) -> None:
        name = self._value("name")
        if not name:
            self._error("Give the fighter a name.")
            return
        if name.lower() in (f.name.lower() for f in self.gang.fighters):
            self._error(f"{self.gang.name} already has a fighter named {name}.")
            return
        if self.entry is not None:
            if self._affordable(self.entry):
                self._hire(HireChoice(self.entry, name))
            return
        self._focus("role" if not self._value("role") else "cost")

    def _after_role(self) -> None:
        text = self._value("role")
        found = cat.complete(ROLES, text) if text else []
        if not found:
            self._error(f"{text!r} is not a role; one of: {', '.join(ROLES)}")
            return
        self.query_one("#h-role", Input).value = found[0]
        self._focus("cost")

    def _after_cost(self) -> None:
        text = self._value("cost")
        if not text.isdigit():
            self._error(f"The cost is a whole number of credits (found {text!r}).")
            return
        self._focus("profile")

    def _after_profile(self) -> None:
        try:
            cat.parse_profile_line(self._value("profile"))
        except pr.ProfileError as error:
            self._error(f"Profile: {error}")
            return
        self._focus("equipment")

    def _after_equipment(self) -> None:
        if self._auto_moved and not self._value("equipment"):
            # an Enter out of habit after the twelfth digit must not hire a fighter bare
            self._auto_moved = False
            self._error("The profile is in. Type the equipment, or Enter again to hire "
                        "with none.")
            return
        name, type_name = self._value("name"), self._value("type")
        if not name:
            self._focus("name")
            return
        try:
            role = FighterType(self._value("role"))
        except ValueError:
            self._focus("role")
            return
        if not self._value("cost").isdigit():
            self._focus("cost")
            return
        try:
            profile = cat.parse_profile_line(self._value("profile"))
        except pr.ProfileError as error:
            self._error(f"Profile: {error}")
            self._focus("profile")
            return
        try:
            gear, new_items = cat.parse_equipment_line(self._value("equipment"), self.catalogue)
        except ValueError as error:
            self._error(f"Equipment: {error}")
            return
        entry = cat.TypeEntry(type_name, role, int(self._value("cost")), profile, gear)
        if self._affordable(entry, new_items):
            self._hire(HireChoice(entry, name, new_type=True, new_items=new_items))

    def _hire(self, choice: HireChoice) -> None:
        """Hire through ``attempt``: refused, the reason is said and every field stays."""
        reason = self.attempt(choice) if self.attempt is not None else None
        if reason:
            self._error(f"{reason}: nothing hired (fix a field, or {key_for(self, 'hire.cancel')}: cancel)")
            return
        self.dismiss(choice)

    def _affordable(self, entry: cat.TypeEntry, new_items: list[cat.ItemEntry] = ()) -> bool:  # type: ignore[assignment]
        """Said here, before anything changes: the Stash must hold the whole cost."""
        total = cat.hire_cost(self.catalogue.merged(cat.Catalogue(items=list(new_items))), entry)
        if total > self.gang.credits:
            self._error(f"{entry.name} costs {total} credits with its equipment; the Stash "
                        f"holds {self.gang.credits} ({key_for(self, 'hire.cancel')}: cancel)")
            return False
        return True

    def action_cancel(self) -> None:
        self.dismiss(None)
