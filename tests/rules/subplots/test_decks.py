"""House Sub-plots: the 130 cards against the seed, their metadata, and the draw."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.core.cards import Card, standard_deck
from munda_tui.rules.core.data import load_data
from munda_tui.rules.core.dice import parse as parse_dice
from munda_tui.rules.prebattle.setup import BattleSetup, SideSetup

SEEDS = Path(__file__).resolve().parents[3] / ".." / "shared" / "seeds"
SEED_FILE = SEEDS / "000_4db11f9c260951bd.txt"
HEADINGS = {
    "cawdor": "Cawdor Sub-plots",
    "delaque": "Delaque Sub-plots",
    "escher": "Escher Sub-plots",
    "goliath": "Goliath Sub-plots",
    "orlock": "Orlock Sub-plots",
    "van-saar": "Van Saar Sub-plots",
    "industrial-sabotage": "Industrial Sabotage (Mechanicus/Spades)",
    "noble-whims": "Noble Whims (Hearts/Imperium)",
    "unforgiving-underhive": "Unforgiving Underhive (Clubs/Chaos)",
    "dark-influences": "Dark Influences (Diamonds/Xenos)",
}
RANK_WORDS = {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K"}


def seed_tables() -> dict[str, dict]:
    """Read the seed independently of the data files: deck -> source, cards."""
    if not SEED_FILE.exists():
        pytest.skip(f"the rules seeds are not beside the repo ({SEEDS} is absent)")
    lines = SEED_FILE.read_text(encoding="utf-8").splitlines()
    tables = {}
    for deck_id, heading in HEADINGS.items():
        i = lines.index(heading)
        source = "Necromunda Rulebook (2018), p150"  # the suit decks share the 2018 RAW line
        j = i + 1
        while not lines[j].startswith("Card\t"):
            m = re.match(r"RAW ✔️ (.+)", lines[j])
            if m:
                source = m.group(1)
            j += 1
        cards = {}
        for line in lines[j + 1 : j + 14]:
            rank, rest = line.split("\t", 1)
            name, text = rest.split(": ", 1)
            cards[RANK_WORDS.get(rank, rank)] = (name, text)
        tables[deck_id] = {"source": source, "cards": cards}
    return tables


# --- the data ----------------------------------------------------------------------------


def test_ten_decks_of_thirteen_cards():
    decks = sp.decks()
    assert [d.id for d in decks] == list(sp.DECK_IDS)
    assert sum(len(d.cards) for d in decks) == 130
    assert len({c.id for c in sp.all_cards()}) == 130
    for d in decks:
        assert [c.rank for c in d.cards] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_every_name_and_text_verbatim_from_the_seed():
    tables = seed_tables()
    checked = 0
    for d in sp.decks():
        table = tables[d.id]
        assert d.source == table["source"], d.id
        for c in d.cards:
            assert (c.name, c.text) == table["cards"][c.rank], c.id
            checked += 1
    assert checked == 130


def test_deck_headers():
    assert sp.deck("noble-whims").name == "Noble Whims"
    assert sp.deck("noble-whims").kind == "suit"
    assert sp.deck("noble-whims").suit == "hearts"
    assert sp.deck("van-saar").name == "Van Saar"
    assert sp.deck("van-saar").house == "Van Saar"
    assert sp.deck("cawdor").source == "House of Faith, p94"
    assert {sp.deck(i).suit for i in sp.SUIT_DECKS.values()} == set(sp.SUIT_DECKS)
    for d in sp.decks():
        assert d.kind == ("house" if d.id in sp.HOUSE_DECKS.values() else "suit")


def test_every_card_has_metadata_and_valid_dice():
    for c in sp.all_cards():
        assert c.reveal in sp.REVEALS, c.id
        assert c.trigger and c.completes, c.id
        assert c.choice in sp.CHOICES and c.keep in sp.KEEPS, c.id
        assert c.rewards, c.id
        for r in c.rewards:
            assert r.kind in sp.REWARD_KINDS and r.to in sp.REWARD_TO, c.id
            if r.kind == "other":
                assert r.note, c.id
            else:
                expr = parse_dice(r.dice)  # raises on a bad expression
                assert expr.maximum >= 1, c.id
            if r.upgrade:
                assert parse_dice(r.upgrade.dice).maximum > 0 and r.upgrade.condition, c.id
            assert r.describe(), c.id


def test_raw_toml_fields_are_all_known():
    known_card = {"rank", "name", "text", "reveal", "trigger", "completes", "discards",
                  "choice", "choose_at", "keep", "choice_range", "choice_types",
                  "choice_types_else", "rewards"}
    known_reward = {"kind", "to", "dice", "upgrade", "note", "penalty", "later", "per", "outcome"}
    for deck_id in sp.DECK_IDS:
        data = load_data(f"subplots/{deck_id}.toml")
        assert set(data) == {"id", "name", "kind", "house", "suit", "source", "intro", "cards"}
        for raw in data["cards"]:
            assert set(raw) <= known_card, raw["name"]
            for rw in raw["rewards"]:
                assert set(rw) <= known_reward, raw["name"]


def test_upgrade_example_from_the_issue():
    # "D3 Reputation, or D6 if the enemy Leader was taken out by your Leader"
    reward = sp.card("escher:A").rewards[0]
    assert (reward.kind, reward.to, reward.dice) == ("reputation", "gang", "D3")
    assert reward.upgrade.dice == "D6"
    assert "Leader" in reward.upgrade.condition
    assert reward.describe().startswith("D3 Reputation, or D6 if")


@pytest.mark.parametrize(
    "card_id, reveal, choice",
    [
        ("cawdor:6", "choose_crew", "fighter"),  # Martyrdom
        ("goliath:K", "choose_crew", "fighter"),  # Naked Brutality
        ("goliath:J", "choose_crew", "crew_reduction"),  # Contempt for the Weak
        ("van-saar:9", "choose_crew", ""),  # Reliable Tech
        ("goliath:3", "start_of_battle", ""),  # Stimmer Rampage
        ("orlock:3", "start_of_battle", "markers"),  # Prospecting Mission
        ("industrial-sabotage:3", "start_of_battle", "random_fighter"),  # Superior Tools
        ("orlock:5", "start_of_battle", "fighter_and_enemy_fighter"),  # Call them Out
    ],
)
def test_issue_examples_are_offered_at_their_moment(card_id, reveal, choice):
    c = sp.card(card_id)
    assert (c.reveal, c.choice) == (reveal, choice)
    assert sp.cards_offered_at(["escher:7", card_id], reveal) == [c]


def test_secret_choices_are_asked_at_the_start_without_revealing():
    dead_of_night = sp.card("delaque:10")
    assert dead_of_night.choice == "secret_number" and dead_of_night.choice_range == (6, 12)
    offered = sp.cards_offered_at(["delaque:10", "delaque:K", "escher:2"], "start_of_battle")
    assert [c.id for c in offered] == ["delaque:10", "delaque:K"]
    assert not sp.reveals_card(dead_of_night, "start_of_battle")
    assert sp.CHOICES[dead_of_night.choice].secret
    assert sp.check_choice(dead_of_night, " 7 ") == "7"
    for bad in ("5", "13", "seven", ""):
        with pytest.raises(sp.SubplotError):
            sp.check_choice(dead_of_night, bad)
    assert sp.check_choice(sp.card("cawdor:6"), "Brother Kane") == "Brother Kane"
    # Martyrdom, revealed at Choose Crew: walked at the start (its fighter left for then),
    # it is revealed there (issue 26.7)
    assert sp.reveals_card(sp.card("cawdor:6"), "start_of_battle")
    assert sp.reveals_card(sp.card("cawdor:6"), "choose_crew")
    with pytest.raises(sp.SubplotError):
        sp.cards_offered_at([], "lunch")


def test_revealed_cards_are_discarded_unless_the_card_says_otherwise():
    assert sp.discard_when_resolved(sp.card("escher:A"))  # Decapitation: immediate reward
    assert sp.after_reveal(sp.card("escher:A")) == "discard"
    assert sp.after_reveal(sp.card("cawdor:Q")) == "end_of_battle"  # Reign of Madness
    assert sp.after_reveal(sp.card("delaque:8")) == "card_says"  # Follow the Leader
    assert sp.card("goliath:5").discards  # Pit Fight is discarded by a non-Melee weapon
    kept = [c for c in sp.all_cards() if not sp.discard_when_resolved(c)]
    assert 0 < len(kept) < 130


def test_build_deck_refuses_bad_data():
    good = load_data("subplots/escher.toml")
    bad = {**good, "cards": [dict(c) for c in good["cards"]]}
    bad["cards"][0] = {**bad["cards"][0], "reveal": "teatime",
                       "rewards": [{"kind": "reputation", "to": "gang", "dice": "D7x"}]}
    with pytest.raises(sp.SubplotError) as info:
        sp.build_deck(bad)
    assert "teatime" in str(info.value) and "escher:A" in str(info.value)
    with pytest.raises(sp.SubplotError):
        sp.build_deck({**good, "cards": good["cards"][:12]})


def test_card_lookup_and_search():
    assert sp.card("noble-whims:10").name == "No Witnesses"
    with pytest.raises(sp.SubplotError):
        sp.card("noble-whims:11")
    with pytest.raises(sp.SubplotError):
        sp.card("tarot:A")
    names = [c.name for c in sp.search("no witnesses")]
    assert names[:2] == ["No Witnesses", "No Witnesses"]
    assert [c.id for c in sp.search("Plentiful")] == ["van-saar:9"]
    assert [c.id for c in sp.search("noble whims")][:13] == [f"noble-whims:{r}" for r in
                                                             ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def test_subplot_for_a_playing_card():
    assert sp.subplot_for(Card("Q", "diamonds")).id == "dark-influences:Q"
    assert sp.subplot_for(Card("A", "spades")).id == "industrial-sabotage:A"
    assert sp.subplot_for(Card("A", "hearts"), "cawdor").id == "cawdor:A"  # suit ignored
    with pytest.raises(sp.SubplotError):
        sp.subplot_for(Card("Joker", "", 1))
    assert sp.house_deck("Van Saar") == "van-saar" and sp.house_deck("Ratskins") is None


def test_export_section():
    section = sp.export_section()
    assert [d["name"] for d in section][:2] == ["Cawdor", "Delaque"]
    assert all(set(d) >= {"id", "name", "kind", "house", "suit", "source", "cards"} for d in section)
    first = section[0]["cards"][0]
    assert set(first) >= {"rank", "name", "text", "reveal", "rewards"}
    assert first["rewards"] == [{"kind": "xp", "to": "every_fighter", "dice": "1"}]


# --- draw order ----------------------------------------------------------------------------

A = sp.Contender("a", "Alpha", 1000, "escher")
B = sp.Contender("b", "Bravo", 1200)


def test_lower_rating_draws_first():
    order = sp.draw_order(B, A)
    assert (order.first, order.second) == ("a", "b")
    assert "lower Gang Rating" in order.reason and order.rolloff == ()


def test_equal_ratings_roll_off_and_reroll_ties():
    b = sp.Contender("b", "Bravo", 1000)
    assert sp.needs_rolloff(A, b)
    with pytest.raises(sp.SubplotError):
        sp.draw_order(A, b)
    with pytest.raises(sp.SubplotError, match="again"):
        sp.draw_order(A, b, [(4, 4)])
    order = sp.draw_order(A, b, [(4, 4), (2, 5)])
    assert (order.first, order.second) == ("b", "a")
    assert order.rolloff == ((4, 4), (2, 5))
    assert "Bravo won the D6 roll-off 5 to 2 after 1 tie" in order.reason
    with pytest.raises(sp.SubplotError):
        sp.draw_order(A, b, [(7, 1)])


@settings(deadline=None)
@given(st.integers(0, 10**6))
def test_roll_off_rerolls_until_decided(seed):
    rolls = sp.roll_off(random.Random(seed))
    assert all(a == b for a, b in rolls[:-1]) and rolls[-1][0] != rolls[-1][1]
    assert all(1 <= f <= 6 for pair in rolls for f in pair)
    b = sp.Contender("b", "Bravo", 1000)
    order = sp.draw_order(A, b, rolls)
    winner = "a" if rolls[-1][0] > rolls[-1][1] else "b"
    assert order.first == winner


@settings(deadline=None)
@given(st.integers(0, 3000), st.integers(0, 3000), st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), max_size=6))
def test_order_is_by_rating_then_roll_off(ra, rb, rolls):
    a, b = sp.Contender("a", "A", ra), sp.Contender("b", "B", rb)
    if ra != rb:
        assert sp.draw_order(a, b, rolls).first == ("a" if ra < rb else "b")
        return
    decisive = next((p for p in rolls if p[0] != p[1]), None)
    if decisive is None:
        with pytest.raises(sp.SubplotError):
            sp.draw_order(a, b, rolls)
    else:
        assert sp.draw_order(a, b, rolls).first == ("a" if decisive[0] > decisive[1] else "b")


# --- the draw ------------------------------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.booleans())
def test_draw_properties(seed, shared, house):
    session = sp.draw_all(
        ["a", "b"], random.Random(seed), shared_deck=shared,
        house_decks={"a": "goliath" if house else None},
    )
    result = session.result()
    jokers_seen = [d for d in session.history if d.is_joker]
    for gang in ("a", "b"):
        side = result.side(gang)
        assert 1 <= len(side.hand) <= sp.MAX_SUBPLOTS
        # every Joker drawn is announced (counted and in the history), and each one
        # added exactly one Sub-plot
        assert side.jokers == sum(1 for d in jokers_seen if d.gang == gang)
        assert len(side.hand) == 1 + side.jokers
        assert len(side.cards) == len(side.hand) + side.jokers
        if not shared:
            assert len(set(side.cards)) == len(side.cards)
    all_codes = [c for s in result.sides.values() for c in s.cards]
    if shared:
        assert len(set(all_codes)) == len(all_codes)  # no card twice in a shared deck
    if house:
        assert all(i.startswith("goliath:") for i in result.side("a").hand)
    assert all(not i.startswith("goliath:") for i in result.side("b").hand)


def test_joker_chain_gives_three_subplots_and_never_more():
    session = sp.SubplotDraw(["a", "b"], rng=random.Random(0))
    assert session.draw("joker").is_joker
    assert session.current == "a" and session.remaining("a") == 2
    assert session.draw("joker").is_joker  # the second Joker: a plain "joker" is Joker 2
    assert session.remaining("a") == 3
    for text in ("AS", "10h", "Q♦"):
        drawn = session.draw(text)
        assert drawn.entered and drawn.subplot is not None
    side = session.sides["a"]
    assert side.hand == ["industrial-sabotage:A", "noble-whims:10", "dark-influences:Q"]
    assert side.jokers == 2 and side.cards == ["JOKER1", "JOKER2", "AS", "10H", "QD"]
    assert session.current == "b"
    with pytest.raises(sp.SubplotError, match="both Jokers have already been drawn from this shared deck"):
        session.draw("joker")
    session.draw()
    assert session.done and len(session.sides["b"].hand) == 1
    with pytest.raises(sp.SubplotError):
        session.draw()


def test_real_cards_are_validated():
    session = sp.SubplotDraw(["a", "b"], rng=random.Random(3))
    with pytest.raises(sp.SubplotError, match="not a"):
        session.draw("eleven of cups")
    session.draw("joker")
    with pytest.raises(sp.SubplotError, match="not a"):
        session.draw("eleven of cups")
    session.draw("queen of diamonds")
    with pytest.raises(sp.SubplotError, match="you have already drawn the Queen of Diamonds"):
        session.draw("QD")
    session.draw("KD")
    # the second player's typed card is checked against their own cards only: a card the
    # first player holds is not refused (that would name it)
    assert session.draw("QD").subplot.id == "dark-influences:Q"
    assert session.done
    # each player with a full deck of their own: the same card is fine for the other
    own = sp.SubplotDraw(["a", "b"], rng=random.Random(3), shared_deck=False)
    own.draw("QD")
    assert own.draw("QD").subplot.id == "dark-influences:Q"


def test_random_draw_skips_cards_typed_earlier():
    rng = random.Random(5)
    session = sp.SubplotDraw(["a", "b"], rng=rng)
    top = next(c for c in session._decks["a"])  # the shuffled deck's top card
    text = "joker 1" if top.is_joker else top.code
    session.draw(text)
    drawn = session.draw() if not session.done else None
    if drawn is not None:
        assert drawn.card != top


def test_draw_all_refuses_extra_cards_and_bad_house_deck():
    with pytest.raises(sp.SubplotError, match="more cards"):
        sp.draw_all(["a"], random.Random(1), entered={"a": ["AS", "2S"]})
    with pytest.raises(sp.SubplotError):
        sp.SubplotDraw(["a"], rng=random.Random(1), house_decks={"a": "noble-whims"})


def test_result_fills_the_battle_setup():
    b = sp.Contender("b", "Bravo", 1000)
    order = sp.draw_order(A, b, [(6, 6), (1, 3)])
    session = sp.draw_all([order.first, order.second], random.Random(9),
                          house_decks={"a": "escher"}, entered={"a": ["joker", "5C", "6C"], "b": ["KH"]})
    result = session.result(order.reason, order.rolloff)
    setup = BattleSetup(number=3, challenger="a", challenged="b",
                        sides=[SideSetup("a"), SideSetup("b")])
    result.apply(setup)
    assert setup.subplots and setup.shared_deck
    assert setup.side("a").hand == ["escher:5", "escher:6"]
    assert setup.side("a").jokers == 1 and setup.side("a").use_house_deck
    assert setup.side("b").hand == ["noble-whims:K"] and not setup.side("b").use_house_deck
    assert setup.rolls[-1]["faces"] == [[6, 6], [1, 3]] and setup.rolls[-1]["winner"] == "b"
    assert BattleSetup.from_data(setup.to_data()).side("a").hand == ["escher:5", "escher:6"]
    assert result.to_data()["order"] == ["b", "a"]


def test_standard_deck_cards_all_map_to_a_subplot():
    for c in standard_deck():
        if not c.is_joker:
            assert sp.subplot_for(c).rank == c.rank


CARD_TEXTS = [c.code for c in standard_deck()] + ["joker", "joker 1", "joker 2", "11h", "ZZ", ""]


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 10**6), st.booleans(),
       st.lists(st.one_of(st.none(), st.sampled_from(CARD_TEXTS)), max_size=20))
def test_typed_and_app_draws_mixed(seed, shared, typed):
    """Whatever mix of typed cards (good, unknown, already drawn) and app draws, the
    hands hold at most three Sub-plots, one more than the Jokers, and no card is drawn
    twice from a deck."""
    session = sp.SubplotDraw(["a", "b"], rng=random.Random(seed), shared_deck=shared)
    for text in typed:
        if session.done:
            break
        try:
            session.draw(text)
        except sp.SubplotError:
            pass  # refused with a message; nothing changes
    while not session.done:
        session.draw()
    for gang in ("a", "b"):
        side = session.sides[gang]
        assert len(side.hand) == 1 + side.jokers <= sp.MAX_SUBPLOTS
        assert len(set(side.cards)) == len(side.cards)
    if shared:  # only a typed card may repeat one the other player holds
        typed_by_b = {d.card.code for d in session.history if d.gang == "b" and d.entered}
        for code in set(session.sides["a"].cards) & set(session.sides["b"].cards):
            assert code in typed_by_b and not code.startswith("JOKER")


# --- the start of the game (issue 12) -------------------------------------------------------


def test_start_of_game_cards_are_the_start_reveals_and_secret_choices():
    hand = ["delaque:10", "delaque:K", "goliath:3", "escher:2", "cawdor:6", "goliath:J"]
    got = [c.id for c in sp.start_of_game_cards(hand, {})]
    # Dead of Night's number, Memory Fades to Myth's fighter, Stimmer Rampage revealed,
    # Martyrdom's fighter not chosen at Choose Crew; not Murder Run, not Contempt for the
    # Weak (a crew reduction cannot be made once crews are set)
    assert got == ["delaque:10", "delaque:K", "goliath:3", "cawdor:6"]
    assert [c.id for c in sp.start_of_game_cards(hand, {"delaque:10": "7"})][0] == "delaque:K"


def test_choice_pools_follow_the_cards_words():
    crew = [("a", "Ann", "Leader"), ("b", "Bea", "Ganger"), ("c", "Cy", "Juve")]
    nephew = sp.card("noble-whims:2")  # "randomly choose one of your Juves, or if none, a Ganger"
    assert sp.choice_pool(nephew, crew) == [("c", "Cy", "Juve")]
    assert sp.choice_pool(nephew, crew[:2]) == [("b", "Bea", "Ganger")]
    leader = sp.card("delaque:8")  # "if the enemy Leader is on the battlefield you must choose them"
    assert sp.choice_pool(leader, crew) == [("a", "Ann", "Leader")]
    assert sp.choice_pool(leader, crew[1:]) == crew[1:]
    assert sp.choice_pool(sp.card("dark-influences:9"), crew) == crew
    picks = {sp.random_pick(crew, random.Random(seed)) for seed in range(40)}
    assert picks == {"a", "b", "c"}
    with pytest.raises(sp.SubplotError):
        sp.random_pick([], random.Random(1))


def test_a_huge_number_chosen_is_out_of_range_not_a_non_number():
    # a player typing 20 nines for Dead of Night's number (6-12) is told the range, not
    # that a whole number is not a whole number
    card = next(c for c in sp.all_cards() if c.choice_range)
    low, high = card.choice_range
    with pytest.raises(sp.SubplotError, match=f"between {low} and {high}"):
        sp.check_choice(card, "99999999999999999999")
    with pytest.raises(sp.SubplotError, match="not a whole number"):
        sp.check_choice(card, "six")
    # Contempt for the Weak: the battle's bounds (the crew), also for a huge number
    contempt = sp.card("goliath:J")
    with pytest.raises(sp.SubplotError, match="between 0 and 1"):
        sp.check_choice(contempt, "99999999999999999999", (0, 1))
    with pytest.raises(sp.SubplotError, match="between 0 and 1"):
        sp.check_choice(contempt, "2", (0, 1))
    assert sp.check_choice(contempt, "1", (0, 1)) == "1"


def test_moment_passed_for_a_card_not_revealed_at_its_moment() -> None:
    """Contempt for the Weak: 'Reveal this card during the Choose Crew step' - in the
    battle, not revealed then, its moment has passed; shown then, nothing is said.
    A start-of-the-battle card passes once round 1 is over; a card of the battle never."""
    from munda_tui.rules.subplots.decks import moment_passed

    assert moment_passed("goliath:J", 1, False, {}) == "Choose Crew"
    assert moment_passed("goliath:J", 1, False, {"goliath:J": "2"}) == ""
    # Martyrdom's fighter may still be chosen in the start walk: round 1 is not over
    assert moment_passed("cawdor:6", 1, False, {}) == ""
    assert moment_passed("cawdor:6", 2, False, {}) == "Choose Crew"
    assert moment_passed("noble-whims:Q", 1, False, {}) == ""
    assert moment_passed("noble-whims:Q", 2, False, {}) == "Start of the battle"
    assert moment_passed("noble-whims:Q", 1, True, {}) == "Start of the battle"
    assert moment_passed("delaque:A", 3, False, {}) == ""  # revealed at a round's start


def test_a_draw_saved_card_by_card_resumes_where_it_was() -> None:
    """The draw is kept from the first card: saved, read back and drawn on, it gives the
    same hands as the draw that never stopped (the decks are the ones shuffled then)."""
    import random

    from munda_tui.rules.subplots.decks import (
        DrawOrder, SubplotDraw, SubplotError, draw_record, resume_draw)

    order = DrawOrder("a", "b", "lower Gang Rating draws first")
    whole = SubplotDraw(["a", "b"], rng=random.Random(277))
    while not whole.done:
        whole.draw()
    for stop in range(1, len(whole.history)):
        session = SubplotDraw(["a", "b"], rng=random.Random(277))
        for _ in range(stop):
            session.draw()
        again, back = resume_draw(draw_record(session, order))
        assert back == order and len(again.history) == stop and again.started
        assert [d.card for d in again.history] == [d.card for d in whole.history[:stop]]
        while not again.done:
            again.draw()
        assert {g: s.hand for g, s in again.sides.items()} == {
            g: s.hand for g, s in whole.sides.items()}
    # separate decks and a typed card
    session = SubplotDraw(["a", "b"], rng=random.Random(3), shared_deck=False)
    session.draw("Q♦")
    again, _ = resume_draw(draw_record(session, order))
    assert again.history[0].entered and again.sides["a"].hand == session.sides["a"].hand
    with pytest.raises(SubplotError, match="cannot be read"):
        resume_draw({"first": "a", "second": "b", "draw": {"order": ["a"], "decks": {}}})
    with pytest.raises(SubplotError, match="cannot be read"):
        resume_draw({"draw": {}})


def test_the_draw_record_never_leaves_in_an_export() -> None:
    from munda_tui.rules.subplots.decks import without_hidden_cards

    data = {"setup": {"sides": [{"gang": "a", "hand": ["escher:2"]}],
                      "subplot_draw": {"first": "a", "draw": {"history": []}}}}
    out, n = without_hidden_cards(data)
    assert "subplot_draw" not in out["setup"] and n == 1
