"""The home screen: the campaigns in the data dir; open, create, delete."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual import work
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import DataTable, Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.core.model import unique_id
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer

# The forms and dialogs are imported when first used: the home screen is the
# first frame, and start-up time is felt at the table.


class HomeScreen(Asking, Screen[None]):
    HELP_TITLE = "Campaigns"
    HELP = (
        "Your campaigns, saved as TOML in the data folder shown below. Open one to see "
        "its gangs, start a battle or continue one where you left it."
    )
    # home.tcss is loaded with the app's own CSS (MundaApp.CSS_PATH): the home screen is
    # the app's default screen, which Textual styles from the app's stylesheet.
    BINDINGS = [
        Binding("enter", "open_campaign", "Open", priority=True, id="home.open_campaign"),
        Binding("n", "new", "New campaign", id="home.new"),
        Binding("D", "add_demo", "Add demo", id="home.add_demo"),
        Binding("d,delete", "delete", "Delete", id="home.delete"),
        Binding("q", "app.quit", "Quit", show=False, id="home.quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Label("Campaigns", classes="title")
            yield DataTable(id="campaigns", cursor_type="row", zebra_stripes=True)
            yield Static("", id="empty", classes="hint")
            yield Static("", id="where", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Campaign", "Folder", "State")
        self.query_one("#where", Static).update(
            f"Saves: {munda_app(self).store.campaigns_dir}"
        )

    def on_screen_resume(self) -> None:
        # also sent when the screen is first shown: the one place the list is read
        self.refresh_campaigns()

    def refresh_campaigns(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        infos = munda_app(self).store.list_campaigns()
        for info in infos:
            state = "ok" if info.error is None else f"cannot load: {info.error}"
            table.add_row(info.name, info.slug, state, key=info.slug)
        empty = self.query_one("#empty", Static)
        empty.update(
            "" if infos else keys_text(self, "No campaigns yet. Press {key:home.new} to create one, "
                                        "or {key:home.add_demo} for the demo campaign.")
        )
        table.focus()
        self.refresh_bindings()  # Open and Delete only with a campaign to act on

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open_campaign", "delete"):
            # asked by the footer also while the screen is being taken down: no table, no crash
            tables = self.query(DataTable)
            return bool(tables) and tables.first().row_count > 0
        return True

    def _selected_slug(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(row_key.value)

    def action_open_campaign(self) -> None:
        slug = self._selected_slug()
        if slug is not None:
            munda_app(self).open_campaign(slug)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        munda_app(self).open_campaign(str(event.row_key.value))

    def action_new(self) -> None:
        from munda_tui.screens.home.new_campaign import NewCampaignRequest, NewCampaignScreen

        taken = {info.slug for info in munda_app(self).store.list_campaigns()}

        def create(request: NewCampaignRequest) -> str | None:
            from munda_tui.rules.packs.settings import note_setting_packs

            campaign = request.to_campaign(unique_id(request.name, taken))
            note_setting_packs(campaign.settings, munda_app(self).rule_data)  # (a pack's ruleset)
            return None if self._create(campaign) else "The campaign could not be created"

        defaults = munda_app(self).config.new_campaign_settings()  # config.toml's
        self.app.push_screen(NewCampaignScreen(taken, defaults, create))

    def action_add_demo(self) -> None:
        from munda_tui.rules.campaign.demo import demo_campaign

        infos = munda_app(self).store.list_campaigns()
        taken = {info.slug for info in infos}
        names = {info.name for info in infos}
        campaign = demo_campaign()
        campaign.id = unique_id(campaign.id, taken)
        if campaign.name in names:  # a second demo: told apart in the list by its number
            n = 2
            while f"{campaign.name} ({n})" in names:
                n += 1
            campaign.name = f"{campaign.name} ({n})"
        self._create(campaign)

    def _create(self, campaign) -> bool:  # type: ignore[no-untyped-def]
        """Create and select the campaign; False (said in an error dialog) when it fails."""
        from munda_tui.screens.common.dialogs import ErrorScreen

        store = munda_app(self).store
        from munda_tui.saves.errors import SaveError

        try:
            store.create_campaign(campaign).close()
        except (SaveError, OSError) as error:  # say it, lose nothing
            self.app.push_screen(ErrorScreen("Could not create the campaign", str(error)))
            return False
        self.refresh_campaigns()
        table = self.query_one(DataTable)
        table.move_cursor(row=table.get_row_index(campaign.id))
        self.notify(f"Created {campaign.name}")
        return True

    @work(group="dialog")
    async def action_delete(self) -> None:
        from munda_tui.screens.common.dialogs import ConfirmScreen, ErrorScreen

        slug = self._selected_slug()
        if slug is None:
            return

        if not await self.ask(ConfirmScreen(
            f"Delete the campaign '{slug}'?",
            "Its gangs and battle history go with it. This cannot be undone.",
            yes="Delete",
            no="Keep",
        )):
            return
        from munda_tui.saves.errors import SaveError

        try:
            munda_app(self).store.delete_campaign(slug)
        except (SaveError, OSError) as error:
            self.app.push_screen(ErrorScreen("Could not delete the campaign", str(error)))
            return
        self.refresh_campaigns()
        self.notify(f"Deleted {slug}")
