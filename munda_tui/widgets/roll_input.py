"""An inline roll: ``r`` rolls for me, or type the faces of real dice then Enter.

Enter alone never rolls (a tap meant as "next" must not roll a Lasting Injury):
it says what to do instead. ``r`` is the screen's binding (``ROLL_BINDING``), not this
widget's: every text here names the key in force for it (``widgets.keys.key_for``).
A key bound on the screen is the binding's while the prompt is empty: with the roll
remapped to ``space``, space on an empty prompt rolls. Once a face is typed, the faces
are the player's: a digit, a space or a comma is typed (a space between faces separates
them, whatever it is bound to) and the roll key rolls nothing, it says how to confirm or
clear the faces first (real dice typed ``3 5`` are never thrown away for a random roll,
nor carried to the next prompt).

Unlike :class:`munda_tui.screens.common.dice_prompt.DicePrompt` (a modal), this sits
inside a screen so a roll costs one key. It only takes digits, spaces and
commas, so letter keys still reach the screen's bindings; Backspace takes the
last character back and Ctrl+U clears the faces, as in a text field.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from munda_tui.rules.core.dice import DiceError, parse, parse_faces
from munda_tui.widgets.keys import key_for, keys_in_force


class RollInput(Widget, can_focus=True):
    """Posts :class:`RollInput.Submitted` with the ``faces`` typed (``None`` never comes
    from this widget; a screen may post it for its ``r`` key)."""

    DEFAULT_CSS = """
    RollInput { height: auto; width: 1fr; padding: 0 1; background: $boost; }
    RollInput:focus { background: $accent 30%; }
    """

    text: reactive[str] = reactive("")

    #: the binding id of the screen's key that rolls for the player
    ROLL_BINDING = "post_battle.roll"

    class Submitted(Message):
        def __init__(self, widget: "RollInput", faces: list[int] | None) -> None:
            super().__init__()
            self.widget = widget
            self.faces = faces

    class Invalid(Message):
        def __init__(self, widget: "RollInput", error: str) -> None:
            super().__init__()
            self.widget = widget
            self.error = error

    def __init__(self, expression: str, *, id: str | None = None,
                 classes: str | None = None, by_hand: bool = False) -> None:
        super().__init__(id=id, classes=classes)
        self.expression = parse(expression)
        self.by_hand = by_hand  # the campaign rolls real dice: the prompt asks for faces first

    def _bound(self, key: str) -> bool:
        """Whether ``key`` is a key of a binding in force here (it goes to the binding)."""
        from textual.app import ScreenStackError
        from textual.dom import NoScreen

        try:
            return key in self.screen.active_bindings
        except (NoScreen, ScreenStackError, RuntimeError):  # not on a screen (yet), or no
            return False  # app (NoActiveAppError, a RuntimeError): nothing is bound

    def render(self) -> str:
        if self.text:
            return (f"Faces of {self.expression.source}: {self.text}▏  (Enter to confirm, "
                    "ctrl+u to clear)")
        roll = key_for(self, self.ROLL_BINDING)
        d66 = " (tens, units)" if "66" in self.expression.source else ""
        if len(self.expression.dice) > 1 and self._bound("space"):
            d66 = f"{d66} (space or comma between the faces)"
        if self.by_hand:
            return (f"Type the faces of {self.expression.source}{d66}, then Enter "
                    f"({roll}: roll for me)")
        return (f"{roll}: roll {self.expression.source} for me — or type real dice{d66}, then Enter")

    def _rolls(self, key: str) -> bool:
        """Whether ``key`` is a key of the roll binding in force here."""
        return key in keys_in_force(self, self.ROLL_BINDING)

    def on_key(self, event: events.Key) -> None:
        ch = event.character or ""
        typed = bool(self.text)  # faces are being typed: the prompt is the player's
        face = bool(ch) and (ch.isdigit() or ch in " ,")
        if typed and not face and self._rolls(event.key):
            # the roll key with faces typed rolls nothing (it would throw the faces away)
            event.stop()
            event.prevent_default()
            self.post_message(self.Invalid(
                self, f"Faces typed ({self.text.strip()}): Enter to confirm them, or "
                f"ctrl+u to clear them, then {key_for(self, self.ROLL_BINDING)} rolls for you"))
            return
        if event.key not in ("enter", "backspace", "ctrl+u") and not (typed and face) \
                and self._bound(event.key):
            return  # a key bound on the screen (space remapped to roll) goes to its binding
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            if not self.text.strip():
                self.post_message(self.Invalid(
                    self, f"Enter does not roll: press {key_for(self, self.ROLL_BINDING)} to "
                    f"roll {self.expression.source} "
                    "for me, or type the faces of your dice, then Enter"))
                return
            try:
                faces = parse_faces(self.expression, self.text)
            except DiceError as error:
                self.post_message(self.Invalid(self, str(error)))
                return
            self.text = ""
            self.post_message(self.Submitted(self, faces))
        elif event.key == "backspace":
            event.stop()
            self.text = self.text[:-1]
        elif event.key == "ctrl+u":  # clears the faces, as in every text field
            event.stop()
            self.text = ""
        elif face:
            event.stop()
            event.prevent_default()
            self.text += ch
