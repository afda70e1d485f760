"""A form to create a campaign: its name and post-battle ruleset, validated."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen
from textual.widgets import Input, Select
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import Button
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.core.limits import NAME_MAX
from munda_tui.rules.core.model import Campaign, Settings, slugify
from munda_tui.rules.core.rulesets import ruleset_choices
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer


@dataclass
class NewCampaignRequest:
    name: str
    ruleset: str
    #: the rest of the rules choices: the config's defaults for new campaigns
    defaults: Settings = field(default_factory=Settings)

    def to_campaign(self, slug: str) -> Campaign:
        return Campaign(id=slug, name=self.name,
                        settings=replace(self.defaults, post_battle_ruleset=self.ruleset))


def too_long(name: str) -> str:
    return (f"The name is too long: {len(name.strip()):,} characters, at most {NAME_MAX}. "
            "Ctrl+U clears it.")


def validate_name(name: str, taken: set[str]) -> str:
    """The error for a campaign name, or "" when it is fine."""
    name = name.strip()
    if not name:
        return "Give the campaign a name."
    if len(name) > NAME_MAX:
        return too_long(name)
    if slugify(name) in taken:
        return f"A campaign '{slugify(name)}' exists already: choose another name."
    return ""


class NewCampaignScreen(DialogScreen[NewCampaignRequest | None]):
    # the kit's frame; its own form's layout in new_campaign.tcss
    CSS_PATH = [DIALOG_CSS, "new_campaign.tcss"]
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="new_campaign.cancel")]

    def __init__(self, taken: set[str], defaults: Settings | None = None,
                 create: Callable[[NewCampaignRequest], str | None] | None = None) -> None:
        super().__init__()
        self.taken = taken
        self.defaults = defaults or Settings()  # the config's defaults for new campaigns
        # creates the campaign: None when done (the form closes), else why it failed (said
        # here, the name and the ruleset kept)
        self.create = create

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Label("New campaign", classes="title")
            yield Label("Name")
            # no max_length: a paste too long would be refused or cut without a word; the
            # field holds it and says it is too long
            yield Input(placeholder="e.g. Spring Sump Wars", id="name")
            yield Static("", id="name-error", classes="error-text")
            yield Label("Post-battle sequence")
            # every ruleset file in rules/data/postbattle, in order (rules.rulesets); the
            # config's default first chosen
            choices = ruleset_choices(munda_app(self).rule_data)
            default = self.defaults.post_battle_ruleset
            yield Select(choices, value=default if default in [v for _l, v in choices]
                         else choices[0][1],
                         allow_blank=False, id="ruleset")
            yield Button("Create (Enter)", id="create", variant="primary")
            yield Static(f"{key_for(self, 'new_campaign.cancel')} to cancel", classes="hint")
        yield Footer()

    def on_input_changed(self, event: Input.Changed) -> None:
        long = len(event.value.strip()) > NAME_MAX
        self.query_one("#name-error", Static).update(too_long(event.value) if long else "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._submit()

    def _submit(self) -> None:
        name = self.query_one("#name", Input).value
        error = validate_name(name, self.taken)
        if error:
            self.query_one("#name-error", Static).update(error)
            self.query_one("#name", Input).focus()
            return
        ruleset = str(self.query_one("#ruleset", Select).value)
        request = NewCampaignRequest(name.strip(), ruleset, self.defaults)
        reason = self.create(request) if self.create is not None else None
        if reason:
            self.query_one("#name-error", Static).update(
                f"{reason} ({key_for(self, 'new_campaign.cancel')}: cancel)")
            return
        self.dismiss(request)

    def action_cancel(self) -> None:
        self.dismiss(None)
