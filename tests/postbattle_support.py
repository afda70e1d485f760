"""Shared set-up for the post-battle tests: the demo campaign with battle 1 fought."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from munda_tui.rules.battle.events import outcome_to_data
from munda_tui.rules.core.model import BattleSummary, Campaign
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome

ESCHER, GOLIATH = "venom-sisters", "iron-skulls"


def demo_outcome() -> BattleOutcome:
    """Venom Sisters beat the Iron Skulls: two Escher Seriously Injured, one Goliath
    Out of Action, a Goliath who fled."""
    F = FighterOutcome
    return BattleOutcome(
        battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, scenario="Stand-off",
        battlefield="Underhive", rounds=5,
        fighters=[
            F(ESCHER, "vexa-nightshade", xp=2),
            F(ESCHER, "sable-thorn"),
            F(ESCHER, "lys-venom", EndState.SERIOUSLY_INJURED, consumables_spent=["Frag grenades"]),
            F(ESCHER, "mara-quill", EndState.SERIOUSLY_INJURED),
            F(ESCHER, "ria-cinder", xp=1),
            F(GOLIATH, "brakk-ironjaw"),
            F(GOLIATH, "dak-cinderfist", EndState.OUT_OF_ACTION,
              taken_out_by=f"{ESCHER}/vexa-nightshade"),
            F(GOLIATH, "thug-varro", EndState.FLED),
        ],
        takes_prisoners={ESCHER: True, GOLIATH: True},
    )


def seed_battle(data_dir: Path, *, ruleset: str = "gang-war", outcome: BattleOutcome | None = None,
                tracker: bool = True) -> str:
    """Save the demo campaign with battle 1 waiting for its post-battle sequence."""
    from support import ensure_demo  # the demo written once per process, then copied
    from munda_tui.saves import Store

    slug = ensure_demo(data_dir)
    store = Store(data_dir)
    with store.open_campaign(slug) as h:
        c: Campaign = h.campaign
        c.settings.post_battle_ruleset = ruleset
        c.battles = [BattleSummary(number=1, date="2026-01-15", scenario="Stand-off",
                                   gangs=[ESCHER, GOLIATH], status="post-battle")]
        h.save()
        data: dict[str, Any] = {}
        if tracker:
            data["battle"] = {"log": [], "outcome": outcome_to_data(outcome or demo_outcome())}
        h.save_battle(1, data)
    return slug


# --- driving the rules -------------------------------------------------------------------

import copy  # noqa: E402
import random  # noqa: E402

from munda_tui.rules.postbattle import sequence as pb  # noqa: E402
from munda_tui.rules.campaign.demo import demo_campaign  # noqa: E402


def make_seq(ruleset: str = "gang-war", outcome: BattleOutcome | None = None,
             campaign: Campaign | None = None, draft: dict[str, Any] | None = None) -> pb.PostBattle:
    c = campaign or demo_campaign()
    if not any(b.number == 1 for b in c.battles):
        c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    return pb.PostBattle(c, 1, draft or pb.new_draft(ruleset),
                         outcome if outcome is not None else demo_outcome())


def answer_default(seq: pb.PostBattle, rng: random.Random) -> None:
    """Answer the pending prompt as a hurried player would (roll, default, 0)."""
    p = seq.pending
    assert p is not None
    if p.kind == "roll":
        seq.roll_for_me(rng)
    elif p.kind == "choice":
        seq.answer(p.default)
    elif p.kind == "multi":
        seq.answer(p.default or [])
    elif p.kind == "number":
        seq.answer(p.default if p.default is not None else max(0, p.minimum or 0))
    else:
        seq.answer(p.default or "Something")


def drive(seq: pb.PostBattle, rng: random.Random, until: str | None = None,
          faces: dict[str, list[int]] | None = None, max_moves: int = 2000) -> pb.PostBattle:
    """Answer and advance until step ``until`` is current with nothing pending (or the end).
    ``faces``: prompt id -> faces to enter instead of rolling."""
    faces = faces or {}
    for _ in range(max_moves):
        if until and seq.step["id"] == until and seq.pending is None:
            return seq
        if seq.pending is not None:
            if seq.pending.kind == "roll" and seq.pending.id in faces:
                seq.answer({"faces": faces[seq.pending.id], "entered": True})
            else:
                answer_default(seq, rng)
            continue
        if seq.at_end:
            return seq
        seq.advance()
    raise AssertionError("the sequence did not finish")


def roundtrip(draft: dict[str, Any]) -> dict[str, Any]:
    """What a battle file gives back: the draft through TOML and back."""
    from munda_tui.saves import codec, tomlemit
    import tomllib

    text = tomlemit.dumps(codec.battle_to_data({"postbattle": draft}))
    data = tomllib.loads(text)
    data.pop("schema_version", None)
    return data["postbattle"]


class Crash(Exception):
    """A simulated power cut."""


class MemoryHandle:
    """A CampaignHandle stand-in that keeps 'disk' as copies and can crash on a write."""

    def __init__(self, campaign: Campaign, battle: dict[str, Any]) -> None:
        self.disk_campaign = copy.deepcopy(campaign)
        self.disk_battles = {1: copy.deepcopy(battle)}
        self.campaign = copy.deepcopy(campaign)
        self.crash_on: set[str] = set()  # "campaign", "battle:N" (N-th battle save from now)
        self.battle_saves = 0
        self.campaign_saves = 0

    def reopen(self) -> "MemoryHandle":
        """The app restarted: memory is gone, the disk is read again."""
        h = MemoryHandle(self.disk_campaign, self.disk_battles[1])
        h.disk_battles = copy.deepcopy(self.disk_battles)
        return h

    def save(self) -> None:
        if "campaign" in self.crash_on:
            raise Crash("campaign save")
        self.disk_campaign = copy.deepcopy(self.campaign)
        self.campaign_saves += 1

    def commit(self, campaign: Campaign) -> None:
        """New values: written, then adopted (a crash leaves the old, as the handle does)."""
        if "campaign" in self.crash_on:
            raise Crash("campaign save")
        self.disk_campaign = copy.deepcopy(campaign)
        self.campaign = campaign
        self.campaign_saves += 1

    def load_battle(self, n: int) -> dict[str, Any]:
        return copy.deepcopy(self.disk_battles[n])

    def save_battle(self, n: int, data: dict[str, Any]) -> None:
        self.battle_saves += 1
        if f"battle:{self.battle_saves}" in self.crash_on:
            raise Crash("battle save")
        self.disk_battles[n] = roundtrip_battle(data)


def roundtrip_battle(data: dict[str, Any]) -> dict[str, Any]:
    from munda_tui.saves import codec, tomlemit
    import tomllib

    out = tomllib.loads(tomlemit.dumps(codec.battle_to_data(data)))
    out.pop("schema_version", None)
    return out


def seed_roll(data_dir: Path) -> str:
    """The demo campaign, battle 1's post-battle sequence asking its first roll."""
    slug = seed_battle(data_dir)
    import random

    from munda_tui.saves import Store

    with Store(data_dir).open_campaign(slug) as h:
        data = h.load_battle(1)
        seq = pb.PostBattle(h.campaign, 1, pb.new_draft("gang-war"), demo_outcome())
        rng = random.Random(3)
        while seq.pending is None or seq.pending.kind != "roll":
            if seq.pending is not None:
                answer_default(seq, rng)
            else:
                seq.advance()
        data["postbattle"] = seq.draft
        h.save_battle(1, data)
    return slug
