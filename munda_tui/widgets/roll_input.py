"""An inline roll: ``r`` rolls for me, or type the faces of real dice then Enter.

Enter alone never rolls (a tap meant as "next" must not roll a Lasting Injury):
it says what to do instead. ``r`` is the screen's binding, not this widget's.

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

from munda_tui.rules.dice import DiceError, parse, parse_faces


class RollInput(Widget, can_focus=True):
    """Posts :class:`RollInput.Submitted` with the ``faces`` typed (``None`` never comes
    from this widget; a screen may post it for its ``r`` key)."""

    DEFAULT_CSS = """
    RollInput { height: auto; width: 1fr; padding: 0 1; background: $boost; }
    RollInput:focus { background: $accent 30%; }
    """

    text: reactive[str] = reactive("")

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

    def render(self) -> str:
        if self.text:
            return (f"Faces of {self.expression.source}: {self.text}▏  (Enter to confirm, "
                    "ctrl+u to clear)")
        d66 = " (tens, units)" if "66" in self.expression.source else ""
        if self.by_hand:
            return (f"Type the faces of {self.expression.source}{d66}, then Enter "
                    "(r: roll for me)")
        return (f"r: roll {self.expression.source} for me — or type real dice{d66}, then Enter")

    def on_key(self, event: events.Key) -> None:
        ch = event.character or ""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            if not self.text.strip():
                self.post_message(self.Invalid(
                    self, f"Enter does not roll: press r to roll {self.expression.source} "
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
        elif ch and (ch.isdigit() or ch in " ,"):
            event.stop()
            self.text += ch
