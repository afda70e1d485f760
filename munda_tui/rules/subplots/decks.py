"""House Sub-plots: the ten decks, the draw, and what happens to a revealed card.

Source: seed 000 (Core Rulebook 2023 p243, Rulebook 2018 p150; the House decks
from the six House of ... books). The cards are data in ``data/subplots/<deck>.toml``.

The draw, in order:

1. ``draw_order``: the gang with the lower Gang Rating draws first; on equal
   ratings a D6 roll-off decides (ties re-rolled: ``roll_off(rng)`` or faces
   the players entered).
2. ``SubplotDraw``: each player in turn draws one card (from the app's
   shuffled deck, or the real card they typed). A Joker is shown to the
   opponent and replaced by two cards; a second Joker repeats the process, for
   at most three Sub-plots. A House gang may use its House deck (rank only);
   otherwise the suit picks one of the 2018 decks. With one shared deck (the
   default) cards the app drew for the first player are out of its deck for the
   second; a card a player types is checked against their own cards only (never
   against the opponent's hidden hand), Jokers against every Joker shown.
3. ``SubplotDraw.result()`` -> ``DrawResult``; ``DrawResult.apply(setup)``
   fills ``BattleSetup`` (``SideSetup.hand``, ``jokers``, ``use_house_deck``).

Later in the battle: ``cards_offered_at(hand, moment)`` lists the cards to
offer at Choose Crew / start of battle (with ``CHOICES[card.choice]`` telling
what to ask), and ``discard_when_resolved(card)`` says whether a revealed card
goes straight to the discard pile ("Unless otherwise noted, once a card has been
revealed, and its effects have been resolved, it is discarded").

Card ids are ``"<deck id>:<rank>"`` (ARCHITECTURE.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol, Sequence

from ..core import limits as limits
from ..core.cards import RANK_NAMES, RANKS, SUITS, Card, CardError, parse_card, standard_deck
from ..core.data import RuleData, given
from ..core.dice import parse as parse_dice

# The decks are the files in data/subplots: each says its id, kind ("house" or "suit") and
# its house (a GangType value) or suit, so a new deck is one data file. DECK_IDS (House
# decks first, then the suit decks in suit order), SUIT_DECKS (suit -> the 2018 Rulebook
# deck it stands for) and HOUSE_DECKS (House -> its own deck) are read from them when first
# asked for (module __getattr__ below), never at import.
#: "Never more than three" Sub-plots in one hand.
MAX_SUBPLOTS = 3

#: When a card is revealed, in battle order, with a label for screens.
REVEALS: dict[str, str] = {
    "choose_crew": "Choose Crew",
    "start_of_battle": "Start of the battle",
    "start_of_round": "Start of a round",
    "event": "During the battle, when it happens",
    "discretion": "When you choose",
    "end_phase": "End phase",
    "end_of_battle": "End of the battle",
    "wrap_up": "Wrap-up",
    "post_battle": "Post-battle",
}
#: How long a revealed card stays in play ("" = discarded once resolved).
KEEPS: dict[str, str] = {
    "": "discarded once resolved",
    "end_of_round": "stays in play until the end of the round",
    "end_of_battle": "stays in play until the end of the battle",
    "card_says": "stays in play until the card says to discard it",
}
REWARD_KINDS: dict[str, str] = {
    "reputation": "Reputation",
    "credits": "credits",
    "xp": "XP",
    "gang_tactics": "Gang Tactics",
    "other": "",
}
REWARD_TO = ("gang", "fighter", "every_fighter")
#: what a reward is gained once per ("" once): "crew_removed", each fighter a Choose Crew
#: Sub-plot took off the starting crew (Contempt for the Weak)
REWARD_PER = ("", "crew_removed")
#: a reward gained only if the gang wins the battle, or only if it loses it ("" either way)
REWARD_OUTCOMES = ("", "win", "lose")


@dataclass(frozen=True)
class Choice:
    """What a card asks its owner for when it is revealed (or secretly at the start)."""

    id: str
    prompt: str
    kind: str  # "fighter" | "enemy_fighter" | "fighter_and_enemy_fighter" | "number" | "text"
    random: bool = False  # picked at random (the app may roll it)
    secret: bool = False  # chosen without revealing the card


CHOICES: dict[str, Choice] = {
    c.id: c
    for c in (
        Choice("", "", ""),
        Choice("fighter", "Choose one of your fighters", "fighter"),
        Choice("enemy_fighter", "Choose one of your opponent's fighters", "enemy_fighter"),
        Choice("fighter_and_enemy_fighter",
               "Choose one of your fighters and one of your opponent's fighters",
               "fighter_and_enemy_fighter"),
        Choice("random_fighter", "Randomly select one of your fighters", "fighter", random=True),
        Choice("random_enemy_fighter", "Randomly select one of your opponent's fighters",
               "enemy_fighter", random=True),
        Choice("secret_fighter", "Secretly choose one of your fighters", "fighter", secret=True),
        Choice("secret_enemy_fighter", "Secretly choose an enemy fighter", "enemy_fighter",
               secret=True),
        Choice("secret_number", "Secretly choose a number", "number", secret=True),
        Choice("crew_reduction", "How many fighters do you remove from your crew?", "number"),
        Choice("point", "Describe the point you choose", "text"),
        Choice("markers", "Describe where you place the markers", "text"),
        Choice("terrain", "Describe the terrain (or doors) you choose", "text"),
    )
}


class SubplotError(ValueError):
    """A card, deck or draw step that is not valid, with a player-readable message."""


@dataclass(frozen=True)
class Upgrade:
    dice: str
    condition: str


@dataclass(frozen=True)
class Reward:
    kind: str  # reputation | credits | xp | gang_tactics | other
    to: str  # gang | fighter | every_fighter
    dice: str  # a munda_tui.rules.core.dice expression ("" only for kind "other")
    upgrade: Upgrade | None = None
    note: str = ""
    penalty: bool = False  # lost rather than gained (e.g. Stimmer Rampage on a loss)
    later: bool = False  # for a later event ("each later rally"): not banked on reveal
    # gained once per something the set-up counts ("for each fighter that was removed from
    # your starting crew": "crew_removed"); "" for once
    per: str = ""
    # "win" / "lose": gained only if the gang wins / loses ("If you lose, your gang's
    # Reputation is decreased by D3"); once the log says who won, the other is not asked
    outcome: str = ""

    def describe(self) -> str:
        """'D3 Reputation, or D6 if ...' / '1 XP (every fighter)' / the note for 'other'."""
        if self.kind == "other":
            return self.note
        what = REWARD_KINDS[self.kind]
        if self.kind == "credits":
            text = f"{self.dice} credits"
        elif self.kind == "gang_tactics" and self.dice == "1":
            text = "1 Gang Tactic"
        else:
            text = f"{self.dice} {what}"
        if self.penalty:
            text = f"-{text}"
        if self.to == "every_fighter":
            text += " to every fighter"
        elif self.to == "fighter":
            text += " to the fighter"
        if self.upgrade:
            text += f", or {self.upgrade.dice} if {self.upgrade.condition}"
        if self.note:
            text += f" ({self.note})"
        return text

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "to": self.to, "dice": self.dice}
        if self.upgrade:
            data["upgrade"] = {"dice": self.upgrade.dice, "condition": self.upgrade.condition}
        if self.note:
            data["note"] = self.note
        if self.penalty:
            data["penalty"] = True
        if self.per:
            data["per"] = self.per
        if self.outcome:
            data["outcome"] = self.outcome
        return data


@dataclass(frozen=True)
class SubplotCard:
    deck: str  # deck id
    rank: str  # "A", "2".."10", "J", "Q", "K"
    name: str  # verbatim from the seed
    text: str  # verbatim from the seed
    reveal: str
    trigger: str
    completes: str
    discards: str
    choice: str
    choose_at: str
    keep: str
    rewards: tuple[Reward, ...]
    choice_range: tuple[int, int] | None = None
    # the fighters the choice is made among, as the card says: those of ``choice_types``
    # if the crew has any, else those of ``choice_types_else`` (empty: any fighter)
    choice_types: tuple[str, ...] = ()
    choice_types_else: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.deck}:{self.rank}"

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def choice_info(self) -> Choice:
        return CHOICES[self.choice]

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "rank": self.rank, "name": self.name, "text": self.text,
            "reveal": self.reveal, "trigger": self.trigger, "completes": self.completes,
            "discards": self.discards, "choice": self.choice, "choose_at": self.choose_at,
            "keep": self.keep, "rewards": [r.to_data() for r in self.rewards],
        }
        if self.choice_range:
            data["choice_range"] = list(self.choice_range)
        if self.choice_types:
            data["choice_types"] = list(self.choice_types)
        if self.choice_types_else:
            data["choice_types_else"] = list(self.choice_types_else)
        return data


@dataclass(frozen=True)
class Deck:
    id: str
    name: str  # the seed's deck name: "Cawdor", "Noble Whims", ...
    kind: str  # house | suit
    house: str  # "Cawdor" ... for House decks
    suit: str  # "spades" ... for suit decks
    source: str  # "House of Faith, p94"
    intro: str
    cards: tuple[SubplotCard, ...]

    def card(self, rank: str) -> SubplotCard:
        for c in self.cards:
            if c.rank == rank:
                return c
        raise SubplotError(f"no {rank} in the {self.name} deck")

    def to_data(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "kind": self.kind, "house": self.house,
            "suit": self.suit, "source": self.source,
            "cards": [c.to_data() for c in self.cards],
        }


# --- loading and checking the data ---------------------------------------------------


def build_deck(data: dict[str, Any]) -> Deck:
    """Build and validate one deck from its parsed TOML; SubplotError on bad data."""
    deck_id = data.get("id", "")
    problems: list[str] = []
    if data.get("kind") not in ("house", "suit"):
        problems.append(f"kind {data.get('kind')!r} is not house or suit")
    cards = []
    for raw in data.get("cards", []):
        where = f"{deck_id}:{raw.get('rank')}"
        for key in ("rank", "name", "text", "reveal", "trigger", "completes"):
            if not isinstance(raw.get(key), str) or (key != "completes" and not raw.get(key)):
                problems.append(f"{where}: missing {key}")
        if raw.get("reveal") not in REVEALS:
            problems.append(f"{where}: reveal {raw.get('reveal')!r} is not one of {list(REVEALS)}")
        if raw.get("choice", "") not in CHOICES:
            problems.append(f"{where}: choice {raw.get('choice')!r} unknown")
        if raw.get("choose_at", "") not in ("", *REVEALS):
            problems.append(f"{where}: choose_at {raw.get('choose_at')!r} unknown")
        if raw.get("keep", "") not in KEEPS:
            problems.append(f"{where}: keep {raw.get('keep')!r} unknown")
        rewards = []
        if not raw.get("rewards"):
            problems.append(f"{where}: no rewards")
        for rw in raw.get("rewards", []):
            kind, to, dice = rw.get("kind"), rw.get("to"), rw.get("dice", "")
            if kind not in REWARD_KINDS:
                problems.append(f"{where}: reward kind {kind!r} unknown")
            if to not in REWARD_TO:
                problems.append(f"{where}: reward to {to!r} unknown")
            if rw.get("per", "") not in REWARD_PER:
                problems.append(f"{where}: reward per {rw.get('per')!r} unknown")
            if rw.get("outcome", "") not in REWARD_OUTCOMES:
                problems.append(f"{where}: reward outcome {rw.get('outcome')!r} unknown")
            if kind == "other" and not rw.get("note"):
                problems.append(f"{where}: an 'other' reward needs a note")
            for expr in ([dice] if dice or kind != "other" else []) + (
                [rw["upgrade"]["dice"]] if "upgrade" in rw else []
            ):
                try:
                    parse_dice(expr)
                except ValueError as error:
                    problems.append(f"{where}: {error}")
            upgrade = rw.get("upgrade")
            rewards.append(
                Reward(
                    kind=kind, to=to, dice=dice,
                    upgrade=Upgrade(upgrade["dice"], upgrade.get("condition", "")) if upgrade else None,
                    note=rw.get("note", ""), penalty=bool(rw.get("penalty", False)),
                    later=bool(rw.get("later", False)), per=str(rw.get("per", "")),
                    outcome=str(rw.get("outcome", "")),
                )
            )
        rng = raw.get("choice_range")
        cards.append(
            SubplotCard(
                deck=deck_id, rank=raw.get("rank", ""), name=raw.get("name", ""),
                text=raw.get("text", ""), reveal=raw.get("reveal", ""),
                trigger=raw.get("trigger", ""), completes=raw.get("completes", ""),
                discards=raw.get("discards", ""), choice=raw.get("choice", ""),
                choose_at=raw.get("choose_at", ""), keep=raw.get("keep", ""),
                rewards=tuple(rewards), choice_range=(int(rng[0]), int(rng[1])) if rng else None,
                choice_types=tuple(raw.get("choice_types", ())),
                choice_types_else=tuple(raw.get("choice_types_else", ())),
            )
        )
    ranks = [c.rank for c in cards]
    if sorted(ranks, key=RANKS.index if set(ranks) <= set(RANKS) else str) != list(RANKS):
        problems.append(f"{deck_id}: ranks {ranks} are not A..K once each")
    if problems:
        raise SubplotError("; ".join(problems))
    return Deck(
        id=deck_id, name=data["name"], kind=data["kind"], house=data.get("house", ""),
        suit=data.get("suit", ""), source=data["source"], intro=data.get("intro", ""),
        cards=tuple(cards),
    )


def decks(data: RuleData | None = None) -> tuple[Deck, ...]:
    """Every deck in data/subplots and the packs': House decks first (by id), then the
    suit decks in suit order (spades, hearts, clubs, diamonds). SubplotError if two decks
    claim one suit or one House."""
    data = given(data)
    return data.memo("decks", lambda: _build_decks(data))


def _build_decks(data: RuleData) -> tuple[Deck, ...]:
    # the package's own decks built once (the package's RuleData keeps them), a pack's here
    package = {d.id: d for d in decks()} if data.packs else {}
    built = [package[item.id] if not item.source.pack and item.id in package
             else build_deck(dict(item.data)) for item in data.items("subplots")]
    houses = sorted((d for d in built if d.kind == "house"), key=lambda d: d.id)
    suits = sorted((d for d in built if d.kind != "house"),
                   key=lambda d: (SUITS.index(d.suit) if d.suit in SUITS else len(SUITS), d.id))
    for attr, group in (("house", houses), ("suit", suits)):
        claimed = [getattr(d, attr) for d in group]
        twice = sorted({c for c in claimed if claimed.count(c) > 1})
        if twice:
            raise SubplotError(f"more than one Sub-plot deck for {attr} {', '.join(twice)}")
    return tuple(houses + suits)


def deck_ids(data: RuleData | None = None) -> tuple[str, ...]:
    return tuple(d.id for d in decks(data))


def suit_deck_ids(data: RuleData | None = None) -> dict[str, str]:
    """suit -> the deck it stands for (the 2018 Rulebook's four)."""
    return {d.suit: d.id for d in decks(data) if d.kind != "house" and d.suit}


def house_deck_ids(data: RuleData | None = None) -> dict[str, str]:
    """House (GangType value) -> its own deck."""
    return {d.house: d.id for d in decks(data) if d.kind == "house"}


def __getattr__(name: str) -> Any:
    # the package's deck lists, read from the deck files when first used (see the note
    # at the top); with packs: deck_ids(data), suit_deck_ids(data), house_deck_ids(data)
    lists = {"DECK_IDS": deck_ids, "SUIT_DECKS": suit_deck_ids, "HOUSE_DECKS": house_deck_ids}
    if name in lists:
        return lists[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deck(deck_id: str, data: RuleData | None = None) -> Deck:
    for d in decks(data):
        if d.id == deck_id:
            return d
    raise SubplotError(f"no Sub-plot deck {deck_id!r} (decks: {', '.join(deck_ids(data))})")


def all_cards(data: RuleData | None = None) -> list[SubplotCard]:
    return [c for d in decks(data) for c in d.cards]


def card(card_id: str, data: RuleData | None = None) -> SubplotCard:
    """The Sub-plot with id ``"<deck>:<rank>"``; SubplotError if there is none."""
    deck_id, _, rank = card_id.partition(":")
    return deck(deck_id, data).card(rank)


def house_deck(gang_type: str, data: RuleData | None = None) -> str | None:
    """The House deck id for a gang type ("Cawdor" -> "cawdor"), None if it has none."""
    return house_deck_ids(data).get(str(gang_type))


def subplot_for(playing_card: Card, house: str | None = None,
                data: RuleData | None = None) -> SubplotCard:
    """The Sub-plot a drawn playing card stands for: with a House deck id, its rank in
    that deck (suits ignored); otherwise the suit's 2018 deck."""
    if playing_card.is_joker:
        raise SubplotError("a Joker is not a Sub-plot: show it and draw two more cards")
    if house:
        return deck(house, data).card(playing_card.rank)
    return deck(suit_deck_ids(data)[playing_card.suit], data).card(playing_card.rank)


def search(query: str, data: RuleData | None = None) -> list[SubplotCard]:
    """Cards whose name, text or deck name contain every word of the query
    (case-insensitive); name matches first."""
    words = query.lower().split()
    if not words:
        return all_cards(data)
    named, texted = [], []
    for c in all_cards(data):
        name = f"{c.name} {deck(c.deck, data).name}".lower()
        if all(w in name for w in words):
            named.append(c)
        elif all(w in f"{name} {c.text.lower()}" for w in words):
            texted.append(c)
    return named + texted


# --- during the battle ------------------------------------------------------------------


def cards_offered_at(hand: Iterable[str], moment: str,
                     data: RuleData | None = None) -> list[SubplotCard]:
    """The cards of a hand to offer their owner at ``moment`` ("choose_crew",
    "start_of_battle", ...): those revealed then, and those whose secret choice
    is made then (e.g. Dead of Night's number, chosen at the start of the game)."""
    if moment not in REVEALS:
        raise SubplotError(f"{moment!r} is not a moment of the battle ({', '.join(REVEALS)})")
    return [c for c in (card(i, data) for i in hand) if c.reveal == moment or c.choose_at == moment]


def start_of_game_cards(hand: Iterable[str], choices: dict[str, str],
                        data: RuleData | None = None) -> list[SubplotCard]:
    """The cards its owner walks once the crews are known and before round 1: those
    revealed "at the start of the game/battle", those whose secret choice is made then
    (Dead of Night's number, Follow the Leader's enemy, Memory Fades to Myth's fighter),
    and Choose Crew cards whose choice was not made in the pre-battle. Cards already
    walked (a choice recorded in ``choices``) are left out."""
    out = []
    for c in (card(i, data) for i in hand):
        if c.id in choices:
            continue
        if "start_of_battle" in (c.reveal, c.choose_at) or (
                "choose_crew" in (c.reveal, c.choose_at) and c.choice_info.kind == "fighter"):
            out.append(c)
    return out


def shown_before_round_1(hand: Iterable[str], choices: dict[str, str],
                         data: RuleData | None = None) -> list[str]:
    """The cards of a hand both players saw before round 1: revealed at Choose Crew (in
    the pre-battle) or in the start-of-the-battle walk, with an open choice recorded in
    ``choices`` (``""`` when the card asks nothing). Secret choices (Dead of Night's
    number) leave their card hidden. In the hand's order; unknown ids are skipped."""
    out = []
    for card_id in hand:
        if card_id not in choices:
            continue
        try:
            c = card(card_id, data)
        except SubplotError:
            continue
        if c.reveal in ("choose_crew", "start_of_battle") and not c.choice_info.secret:
            out.append(card_id)
    return out


def moment_passed(card_id: str, round_: int, ended: bool, choices: dict[str, str],
                  data: RuleData | None = None) -> str:
    """In the battle (the tracker), the moment of a card not yet revealed that has passed,
    in words ("Choose Crew"), or "" while the card may still be revealed as it says. A
    Choose Crew card passes with the pre-battle (a fighter choice left for the start walk
    passes with it); a start-of-the-battle card once round 1 is over. Cards shown before
    round 1 (a choice recorded in ``choices``) are not asked about."""
    try:
        c = card(card_id, data)
    except SubplotError:
        return ""
    if card_id in choices:
        return ""
    walked_at_start = c.reveal == "start_of_battle" or (
        c.reveal == "choose_crew" and c.choice_info.kind == "fighter")
    if c.reveal == "choose_crew" and not walked_at_start:
        return REVEALS["choose_crew"]
    if walked_at_start and (round_ > 1 or ended):
        return REVEALS[c.reveal]
    return ""


def choice_pool(c: SubplotCard, fighters: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The fighters (id, name, type) the card's choice is made among: those of its
    ``choice_types`` if there are any, else those of ``choice_types_else`` (or all)."""
    if c.choice_types:
        first = [f for f in fighters if f[2] in c.choice_types]
        if first:
            return first
    if c.choice_types_else:
        return [f for f in fighters if f[2] in c.choice_types_else]
    return list(fighters)


def random_pick(pool: Sequence[tuple[str, ...]], rng: random.Random) -> str:
    """A fighter picked at random from the pool (its id); SubplotError if it is empty."""
    if not pool:
        raise SubplotError("no fighter to pick from")
    return rng.choice(list(pool))[0]


def reveals_card(c: SubplotCard, moment: str) -> bool:
    """True when the card is revealed at ``moment`` (False for a secret choice made then).
    A Choose Crew card whose fighter choice is left for the start of the battle (Martyrdom:
    "Reveal this Sub-plot during the Choose Crew step") is revealed in that walk: both
    players see it from then on (:func:`shown_before_round_1`)."""
    if c.reveal == moment:
        return True
    return (moment == "start_of_battle" and c.reveal == "choose_crew"
            and not c.choice_info.secret)


def check_choice(c: SubplotCard, value: str, bounds: tuple[int, int] | None = None) -> str:
    """Validate an owner's answer to the card's choice; returns the stored value.
    Numbers must be whole and inside ``bounds`` when the battle sets them (Contempt for
    the Weak: the crew), else ``choice_range`` (Dead of Night: 6-12)."""
    info = CHOICES[c.choice]
    value = value.strip()
    if not info.id:
        return ""
    if not value:
        raise SubplotError(f"{c.name}: {info.prompt.lower()}")
    if info.kind == "number":
        low, high = bounds or c.choice_range or (0, 99)
        try:
            number = limits.parse_int(value)
        except limits.LimitError:  # a whole number, too many digits: out of the card's range
            raise SubplotError(f"{c.name}: choose a number between {low} and {high}") from None
        except ValueError:
            raise SubplotError(f"{c.name}: {limits.show_text(value)} is not a whole number") from None
        if not low <= number <= high:
            raise SubplotError(f"{c.name}: choose a number between {low} and {high}")
        return str(number)
    return value


def discard_when_resolved(c: SubplotCard) -> bool:
    """True when the card is discarded as soon as it is revealed and resolved (the
    default rule); False when the card stays in play (see ``c.keep``)."""
    return c.keep == ""


def after_reveal(c: SubplotCard) -> str:
    """What happens to the card once revealed: 'discard', 'end_of_round',
    'end_of_battle' or 'card_says' (the tracker keeps it until then)."""
    return "discard" if discard_when_resolved(c) else c.keep


# --- the draw order -----------------------------------------------------------------------


@dataclass(frozen=True)
class Contender:
    """One player's gang at the draw."""

    gang: str  # gang id
    name: str
    rating: int
    house_deck: str | None = None  # deck id when the gang is a House gang


@dataclass(frozen=True)
class DrawOrder:
    first: str  # gang id
    second: str
    reason: str
    rolloff: tuple[tuple[int, int], ...] = ()  # (first listed gang, second listed gang) faces


def needs_rolloff(a: Contender, b: Contender) -> bool:
    return a.rating == b.rating


def roll_off(rng: random.Random) -> list[tuple[int, int]]:
    """A D6 roll-off, re-rolling ties: every pair rolled (the last one decides)."""
    rolls = []
    while True:
        pair = (rng.randint(1, 6), rng.randint(1, 6))
        rolls.append(pair)
        if pair[0] != pair[1]:
            return rolls


def draw_order(a: Contender, b: Contender, rolloff: Sequence[tuple[int, int]] = ()) -> DrawOrder:
    """Who draws first: the lower Gang Rating; on equal ratings the higher D6 of the
    roll-off (``rolloff`` pairs are (a's die, b's die); ties are re-rolled). Raises
    SubplotError when ratings are equal and the rolls given do not decide yet."""
    if a.rating != b.rating:
        low, high = (a, b) if a.rating < b.rating else (b, a)
        return DrawOrder(
            low.gang, high.gang,
            f"{low.name} has the lower Gang Rating ({low.rating} against {high.rating})",
        )
    used: list[tuple[int, int]] = []
    for fa, fb in rolloff:
        for face in (fa, fb):
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise SubplotError(f"{face!r} is not a D6 face (1-6)")
        used.append((fa, fb))
        if fa != fb:
            win, lose = (a, b) if fa > fb else (b, a)
            ties = len(used) - 1
            again = f" after {ties} tie{'s' if ties > 1 else ''}" if ties else ""
            return DrawOrder(
                win.gang, lose.gang,
                f"Equal Gang Ratings ({a.rating}): {win.name} won the D6 roll-off "
                f"{max(fa, fb)} to {min(fa, fb)}{again}",
                tuple(used),
            )
    raise SubplotError(
        f"Equal Gang Ratings ({a.rating}): roll a D6 each"
        + (" again (tie)" if used else "")
    )


# --- the draw -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """One card taken from the deck."""

    gang: str
    card: Card
    subplot: SubplotCard | None  # None for a Joker
    entered: bool  # typed by the player (a real deck) rather than drawn by the app

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker


class SideToFill(Protocol):
    """A side of the set-up a draw fills (``rules.prebattle.setup.SideSetup``, above
    this package)."""

    @property
    def gang(self) -> str: ...
    use_house_deck: bool
    hand: list[str]
    jokers: int


class SetupToFill(Protocol):
    """The set-up a draw fills (``rules.prebattle.setup.BattleSetup``, above this
    package)."""

    subplots: bool
    shared_deck: bool

    @property
    def sides(self) -> Sequence[SideToFill]: ...
    @property
    def rolls(self) -> list[dict[str, Any]]: ...


@dataclass
class SideDraw:
    gang: str
    use_house_deck: bool = False
    deck: str = ""  # the House deck id, or "" for the suit decks
    cards: list[str] = field(default_factory=list)  # playing-card codes drawn, Jokers included
    hand: list[str] = field(default_factory=list)  # Sub-plot card ids
    jokers: int = 0

    def to_data(self) -> dict[str, Any]:
        return {
            "gang": self.gang, "use_house_deck": self.use_house_deck, "deck": self.deck,
            "cards": list(self.cards), "hand": list(self.hand), "jokers": self.jokers,
        }


@dataclass
class DrawResult:
    """What the draw screen hands back (dismiss value) and the CLI prints."""

    order: list[str]  # gang ids, first drawer first
    reason: str  # why that order
    rolloff: list[tuple[int, int]]  # D6 pairs (first listed gang, second listed gang); [] if none
    shared_deck: bool
    sides: dict[str, SideDraw]

    def side(self, gang: str) -> SideDraw:
        return self.sides[gang]

    def apply(self, setup: SetupToFill) -> None:
        """Fill a ``rules.setup.BattleSetup``: Sub-plots on, the deck setting, each
        side's hand, Jokers and House-deck choice, and the roll-off for the report."""
        setup.subplots = True
        setup.shared_deck = self.shared_deck
        for side in setup.sides:
            draw = self.sides.get(side.gang)
            if draw is None:
                continue
            side.hand = list(draw.hand)
            side.jokers = draw.jokers
            side.use_house_deck = draw.use_house_deck
        if self.rolloff:
            setup.rolls.append(
                {
                    "step": "subplots",
                    "what": "D6 roll-off for the Sub-plot draw order",
                    "faces": [list(p) for p in self.rolloff],
                    "winner": self.order[0],
                }
            )

    def to_data(self) -> dict[str, Any]:
        return {
            "order": list(self.order), "reason": self.reason,
            "rolloff": [list(p) for p in self.rolloff], "shared_deck": self.shared_deck,
            "sides": {g: s.to_data() for g, s in self.sides.items()},
        }


class SubplotDraw:
    """The draw, step by step, for one or two players (pure; the screen and the CLI
    drive it). ``current`` is the gang drawing now (None when done); ``draw()``
    takes the top card of the shuffled deck, ``draw("Q♦")`` records a real card."""

    def __init__(
        self,
        order: Sequence[str],
        *,
        rng: random.Random,
        house_decks: dict[str, str | None] | None = None,
        shared_deck: bool = True,
        data: RuleData | None = None,
    ) -> None:
        if not order or len(set(order)) != len(order):
            raise SubplotError("the draw needs one or two different gangs")
        self.data = data  # the decks in force (a pack's House deck)
        self.order = list(order)
        self.shared_deck = shared_deck
        self.sides: dict[str, SideDraw] = {}
        for gang in self.order:
            deck_id = (house_decks or {}).get(gang)
            if deck_id is not None and deck_id not in house_deck_ids(data).values():
                raise SubplotError(f"{deck_id!r} is not a House deck")
            self.sides[gang] = SideDraw(gang, use_house_deck=bool(deck_id), deck=deck_id or "")
        self._targets = {gang: 1 for gang in self.order}
        self._decks: dict[str, list[Card]] = {}
        if shared_deck:
            shared = standard_deck()
            rng.shuffle(shared)
            for gang in self.order:
                self._decks[gang] = shared
        else:
            for gang in self.order:
                own = standard_deck()
                rng.shuffle(own)
                self._decks[gang] = own
        self._drawn: dict[str, list[Card]] = {g: [] for g in self.order}  # per side
        self.history: list[Drawn] = []

    # state
    @property
    def current(self) -> str | None:
        for gang in self.order:
            if len(self.sides[gang].hand) < self._targets[gang]:
                return gang
        return None

    @property
    def done(self) -> bool:
        return self.current is None

    def remaining(self, gang: str) -> int:
        """Cards this side still has to draw."""
        return self._targets[gang] - len(self.sides[gang].hand)

    def _out_of_deck(self, gang: str) -> list[Card]:
        if self.shared_deck:
            return [c for g in self.order for c in self._drawn[g]]
        return list(self._drawn[gang])

    def parse(self, text: str, gang: str | None = None) -> Card:
        """Read a card a player typed and check it can be drawn now (SubplotError)."""
        gang = gang or self.current
        if gang is None:
            raise SubplotError("the draw is over")
        try:
            typed = parse_card(text)
        except CardError as error:
            raise SubplotError(str(error)) from None
        # A typed card is checked against the typing player's own cards only: refusing a
        # card because the opponent drew it would name the opponent's Sub-plot. Jokers
        # are shown to both players ("immediately show it to their opponent"), so with
        # one shared deck every Joker drawn is public and counts.
        own = self._drawn[gang]
        jokers = self._out_of_deck(gang) if typed.is_joker else own
        if typed.is_joker and not any(ch.isdigit() for ch in text):
            free = [j for j in (Card("Joker", "", 1), Card("Joker", "", 2)) if j not in jokers]
            if free:
                typed = free[0]  # a plain "joker": whichever Joker is still in the deck
        if typed.is_joker and typed in jokers:
            label = f"Joker {typed.index} has" if any(ch.isdigit() for ch in text) else "both Jokers have"
            raise SubplotError(
                f"{label} already been drawn"
                + (" from this shared deck" if self.shared_deck else " from your deck")
            )
        if not typed.is_joker and typed in own:
            raise SubplotError(f"you have already drawn the {typed.long_name}")
        return typed

    def draw(self, entered: str | Card | None = None) -> Drawn:
        """Draw the next card for the current side: from the shuffled deck, or the real
        card the player typed (validated: unknown cards and cards already out of the
        deck are refused with SubplotError)."""
        gang = self.current
        if gang is None:
            raise SubplotError("the draw is over: every Sub-plot has been drawn")
        deck_cards = self._decks[gang]
        if entered is None:
            out = set(self._out_of_deck(gang))
            pick = next((c for c in deck_cards if c not in out), None)
            if pick is None:  # pragma: no cover - 54 cards, at most 8 drawn
                raise SubplotError("the deck is empty")
            was_entered = False
        else:
            pick = self.parse(entered.code if isinstance(entered, Card) else entered, gang)
            was_entered = True
        return self._take(gang, pick, was_entered)

    def _take(self, gang: str, pick: Card, was_entered: bool) -> Drawn:
        self._drawn[gang].append(pick)
        side = self.sides[gang]
        side.cards.append(pick.code)
        if pick.is_joker:
            side.jokers += 1
            # the Joker is replaced by two new cards: one more Sub-plot, three at most
            self._targets[gang] = min(self._targets[gang] + 1, MAX_SUBPLOTS)
            drawn = Drawn(gang, pick, None, was_entered)
        else:
            sub = subplot_for(pick, side.deck or None, self.data)
            side.hand.append(sub.id)
            drawn = Drawn(gang, pick, sub, was_entered)
        self.history.append(drawn)
        return drawn

    def drawn_by(self, gang: str) -> list[Drawn]:
        return [d for d in self.history if d.gang == gang]

    @property
    def started(self) -> bool:
        """A card has been drawn (a player has seen it): the draw is kept from now on."""
        return bool(self.history)

    def to_data(self) -> dict[str, Any]:
        """The draw so far, to save as each card is drawn and resume where it was: the
        order, the decks as shuffled, and every card taken (hands are secret: the set-up
        file is the players' own, never a shared screen or an export)."""
        decks: dict[str, list[str]] = {}
        for gang in self.order:
            deck_cards = self._decks[gang]
            decks[gang] = [c.code for c in deck_cards]
        return {
            "order": list(self.order), "shared_deck": self.shared_deck,
            "house_decks": {g: self.sides[g].deck for g in self.order},
            "decks": decks,
            "history": [{"gang": d.gang, "card": d.card.code, "entered": d.entered}
                        for d in self.history],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], rule_data: RuleData | None = None) -> "SubplotDraw":
        """A draw saved by :meth:`to_data`, at the card it had reached (SubplotError when
        the data cannot be read)."""
        try:
            order = [str(g) for g in data["order"]]
            houses = {str(g): (str(d) or None) for g, d in dict(data.get("house_decks") or {}).items()}
            shared = bool(data.get("shared_deck", True))
            # the decks are the saved ones: the constructor's shuffle is replaced below
            session = cls(order, rng=random.Random(0), house_decks=houses, shared_deck=shared,
                          data=rule_data)
            decks = {g: [parse_card(str(c)) for c in data["decks"][g]] for g in order}
            if shared:
                one = decks[order[0]]
                session._decks = {g: one for g in order}
            else:
                session._decks = decks
            for ev in data.get("history") or []:
                gang = str(ev["gang"])
                if gang != session.current:
                    raise SubplotError(f"{gang} did not draw then")
                pick = parse_card(str(ev["card"]))
                session._take(gang, pick, bool(ev.get("entered", False)))
        except SubplotError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, CardError) as error:
            raise SubplotError(f"the saved Sub-plot draw cannot be read ({error})") from None
        return session

    def result(self, reason: str = "", rolloff: Sequence[tuple[int, int]] = ()) -> DrawResult:
        if not self.done:
            raise SubplotError(f"{self.current} has not finished drawing")
        return DrawResult(
            order=list(self.order), reason=reason, rolloff=[(int(a), int(b)) for a, b in rolloff],
            shared_deck=self.shared_deck, sides=self.sides,
        )


def draw_record(session: SubplotDraw, order: DrawOrder) -> dict[str, Any]:
    """What the set-up keeps of a draw (``BattleSetup.subplot_draw``), saved from the first
    card on so a hand once seen is never drawn again: the order and why, then the draw."""
    return {"first": order.first, "second": order.second, "reason": order.reason,
            "rolloff": [list(p) for p in order.rolloff], "draw": session.to_data()}


def rolloff_record(rolls: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """What the set-up keeps of a roll-off for the draw order made before the first
    card (the same ``subplot_draw`` slot; :func:`draw_record` replaces it once the draw
    starts): closing the app must not give the players a second roll-off."""
    return {"rolloff": [list(p) for p in rolls]}


def draw_begun(record: dict[str, Any]) -> bool:
    """Whether a saved record holds a draw (else only its roll-off, or nothing)."""
    return bool(record) and "draw" in record


def saved_rolloff(record: dict[str, Any]) -> list[tuple[int, int]]:
    """The roll-off pairs a record keeps (SubplotError if they are not D6 faces)."""
    try:
        pairs = [(int(a), int(b)) for a, b in record.get("rolloff") or ()]
    except (TypeError, ValueError) as error:
        raise SubplotError(f"the saved Sub-plot roll-off cannot be read ({error})") from None
    if any(not 1 <= f <= 6 for p in pairs for f in p):
        raise SubplotError("the saved Sub-plot roll-off holds a face that is not 1-6")
    return pairs


def resume_draw(record: dict[str, Any],
                data: RuleData | None = None) -> tuple[SubplotDraw, DrawOrder]:
    """The draw and its order from :func:`draw_record`'s data (SubplotError if unreadable)."""
    try:
        order = DrawOrder(str(record["first"]), str(record["second"]), str(record.get("reason", "")),
                          tuple((int(a), int(b)) for a, b in record.get("rolloff") or ()))
        draw = record["draw"]
    except (KeyError, TypeError, ValueError) as error:
        raise SubplotError(f"the saved Sub-plot draw cannot be read ({error})") from None
    if not isinstance(draw, dict):
        raise SubplotError("the saved Sub-plot draw cannot be read")
    return SubplotDraw.from_data(draw, data), order


def draw_all(
    order: Sequence[str],
    rng: random.Random,
    *,
    house_decks: dict[str, str | None] | None = None,
    shared_deck: bool = True,
    entered: dict[str, Sequence[str]] | None = None,
    data: RuleData | None = None,
) -> SubplotDraw:
    """Run a whole draw at once: each side's typed cards first (in order), then the
    app's deck. Used by the CLI and tests."""
    session = SubplotDraw(order, rng=rng, house_decks=house_decks, shared_deck=shared_deck,
                          data=data)
    queues = {g: list((entered or {}).get(g, ())) for g in order}
    while not session.done:
        gang = session.current
        assert gang is not None
        session.draw(queues[gang].pop(0) if queues[gang] else None)
    leftovers = {g: q for g, q in queues.items() if q}
    if leftovers:
        extra = ", ".join(c for q in leftovers.values() for c in q)
        raise SubplotError(f"more cards typed than the draw needs: {extra}")
    return session


def export_section(data: RuleData | None = None) -> list[dict[str, Any]]:
    """``rules export``: every deck with every card (``subplot_decks``); a pack's deck
    names its pack and file."""
    data = given(data)
    sources = {item.id: item.source for item in data.items("subplots")}
    out = []
    for d in decks(data):
        row = d.to_data()
        source = sources.get(d.id)
        if source is not None and source.pack:
            row.update(pack=source.pack, file=source.file)
        out.append(row)
    return out


# --- what may leave the table: exports and reports ---------------------------------------


def public_cards(setup_data: dict[str, Any], log: Iterable[dict[str, Any]],
                 data: RuleData | None = None) -> dict[str, set[str]]:
    """Per gang, the Sub-plots both players have seen: revealed in the battle log, or
    shown in the pre-battle with an open choice (Choose Crew / start of the battle)."""
    out: dict[str, set[str]] = {}
    for ev in log:
        if isinstance(ev, dict) and ev.get("kind") == "reveal":
            out.setdefault(str(ev.get("gang", "")), set()).add(str(ev.get("card", "")))
    for side in setup_data.get("sides", []) or []:
        if not isinstance(side, dict):
            continue
        for card_id in (side.get("subplot_choices") or {}):
            try:
                c = card(card_id, data)
            except SubplotError:  # (a card of a pack not in force: kept hidden)
                continue
            if c.reveal in ("choose_crew", "start_of_battle") and not c.choice_info.secret:
                out.setdefault(str(side.get("gang", "")), set()).add(card_id)
    return out


def without_hidden_cards(data: dict[str, Any],
                         rule_data: RuleData | None = None) -> tuple[dict[str, Any], int]:
    """A battle file's data with every Sub-plot not yet revealed left out (for an export
    another player reads): hands keep only public cards, secret choices of hidden cards
    go, and undone or rejected reveals of hidden cards are dropped. Returns the copy and
    how many cards were left out (each side records its own count as
    ``subplots_withheld``)."""
    import copy

    data = copy.deepcopy(data)
    setup = data.get("setup")
    battle = data["battle"] if isinstance(data.get("battle"), dict) else {}
    if not isinstance(setup, dict):
        return data, 0
    public = public_cards(setup, battle.get("log", []) or [], rule_data)
    setup.pop("subplot_draw", None)  # the draw record holds every hand and the decks
    withheld = 0
    for side in setup.get("sides", []) or []:
        if not isinstance(side, dict):
            continue
        mine = public.get(str(side.get("gang", "")), set())
        hand = [c for c in side.get("hand", []) or []]
        kept = [c for c in hand if c in mine]
        if len(kept) != len(hand):
            side["subplots_withheld"] = len(hand) - len(kept)
            withheld += len(hand) - len(kept)
        side["hand"] = kept
        choices = side.get("subplot_choices") or {}
        side["subplot_choices"] = {c: v for c, v in choices.items() if c in mine}
    if battle:
        def public_event(ev: object) -> bool:
            if not isinstance(ev, dict) or ev.get("kind") not in ("reveal", "reward"):
                return True
            return str(ev.get("card", "")) in public.get(str(ev.get("gang", "")), set())

        for key in ("redo", "rejected"):
            if isinstance(battle.get(key), list):
                battle[key] = [ev for ev in battle[key] if public_event(ev)]
        seen = battle.get("seen")
        if isinstance(seen, dict):
            battle["seen"] = {g: [c for c in cs if c.split("@")[0] in public.get(g, set())]
                              for g, cs in seen.items()}
    return data, withheld
