"""``munda_app(self)``: the running MundaApp's services, typed.

Textual types ``node.app`` as ``App[Any]``, so ``self.app.rng`` or
``self.app.open_battle(n)`` would need a ``type: ignore`` in every screen. Screens and
step panels ask ``munda_app(self)`` instead and get :class:`MundaServices`, the part of
MundaApp a screen may use, checked by mypy.

The screens never import the app, not even for the type checker: the app imports the
screens, and an annotation-only import back made an import circle (the layers test
fails on any, annotation imports included). ``munda_tui.app`` checks that MundaApp
provides every member of :class:`MundaServices` (mypy, ``_services_check``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar, cast, overload

if TYPE_CHECKING:
    import random
    from pathlib import Path

    from textual.screen import Screen

    from munda_tui.rules.core.data import RuleData
    from munda_tui.rules.core.model import Campaign
    from munda_tui.saves import CampaignHandle, SaveError, Store
    from munda_tui.saves.packs import PackSet
    from munda_tui.saves.config import Config

T = TypeVar("T")


class MundaServices(Protocol):
    """What screens use of the app beyond Textual's own: the RNG, the store, the open
    campaign, navigation and the guarded save."""

    rng: random.Random
    store: Store
    handle: CampaignHandle | None
    config_dir: Path
    config: Config

    def today(self) -> str: ...

    @property
    def packs(self) -> PackSet: ...

    @property
    def rule_data(self) -> RuleData: ...

    def forget_packs(self) -> None: ...

    def open_campaign(self, slug: str) -> bool: ...

    def open_battle(self, number: int) -> bool: ...

    def new_battle(self, *, by_hand: bool = False) -> int: ...

    def guarded_save(self, what: str, save: Callable[[], object]) -> bool: ...

    def commit_campaign(self, new: Campaign, what: str = "The campaign") -> bool: ...

    def campaign_committed(self, what: str = "") -> None: ...

    def offer_backup(self, error: SaveError, title: str, reopen: Callable[[], object]) -> None: ...

    def action_go_home(self) -> None: ...

    @overload
    async def push_screen_wait(self, screen: Screen[T], *, mode: str | None = None) -> T: ...

    @overload
    async def push_screen_wait(self, screen: str, *, mode: str | None = None) -> Any: ...


class InApp(Protocol):
    """A screen or widget (or a protocol of one): anything that runs in an app."""

    @property
    def app(self) -> Any: ...


def munda_app(node: InApp) -> MundaServices:
    """The MundaApp ``node`` (a screen or widget) runs in."""
    return cast("MundaServices", node.app)


def rule_data_of(node: object) -> RuleData | None:
    """The rule data in force in the app ``node`` runs in (the packs'); None, the package's
    alone, for a node made before an app runs it or in an app that has none (a dialog
    shown by itself)."""
    try:
        app = node.app  # type: ignore[attr-defined]
    except RuntimeError:  # (Textual's NoActiveAppError: no app yet)
        return None
    data: RuleData | None = getattr(app, "rule_data", None)
    return data
