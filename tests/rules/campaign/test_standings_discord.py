"""Club standings (campaign sort) and the Discord-sized report (#15)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs
from support import examples

from munda_tui.rules.campaign import standings as st
from munda_tui.rules.campaign.discord import LIMIT, discord_messages
from munda_tui.rules.core.model import BattleSummary, Gang
from munda_tui.rules.campaign.report import campaign_summary
from munda_tui.rules.campaign.report_doc import render_markdown
from munda_tui.rules.core.wording import plural, possessive


def test_wealth_is_rating_plus_the_stash_credits_and_kills_add_up(demo_campaign) -> None:
    g = demo_campaign.gang("venom-sisters")
    g.credits = 85
    assert st.wealth(g) == g.rating + 85 == g.wealth
    g.fighters[0].kills, g.fighters[1].kills = 3, 2
    assert st.kills(g) == 5


def test_standings_sort_by_every_column_and_cycle(demo_campaign) -> None:
    c = demo_campaign
    esc, gol = c.gang("venom-sisters"), c.gang("iron-skulls")
    c.gangs.append(Gang(id="third", name="Third"))
    assert esc.rating < gol.rating
    assert [g.id for g in st.standings(c, "rating")] == ["iron-skulls", "venom-sisters", "third"]
    esc.credits = 10_000  # the richest, not the highest rated
    assert st.standings(c, "wealth")[0] is esc
    assert st.standings(c, "reputation")[0] is esc  # 7 against 6
    c.battles = [BattleSummary(1, gangs=["venom-sisters", "third"], winner="third",
                               status="done"),
                 BattleSummary(2, gangs=["iron-skulls", "venom-sisters"], status="done")]
    assert [g.id for g in st.standings(c, "record")] == ["third", "iron-skulls",
                                                         "venom-sisters"]
    gol.fighters[0].kills = 4
    assert st.standings(c, "kills")[0] is gol
    order = [""]
    for _ in range(6):
        order.append(st.next_column(order[-1]))
    assert order == ["", "rating", "wealth", "reputation", "record", "kills", ""]
    assert st.standings(c, "") == c.gangs
    with pytest.raises(KeyError, match="known: rating"):
        st.standings(c, "shoe-size")


def test_standings_sort_by_a_clubs_own_counter(demo_campaign) -> None:
    """Issue 35: a pack's counter is a standings column: after Kills in the cycle, the
    most first, a gang that holds none counts 0 (on main the cycle knew five columns)."""
    c = demo_campaign
    esc, gol = c.gang("venom-sisters"), c.gang("iron-skulls")
    c.gangs.append(Gang(id="third", name="Third"))
    esc.counters["our_scrap"], gol.counters["our_scrap"] = 2, 5
    counters = [("our_scrap", "Our scrap")]
    assert [g.id for g in st.standings(c, "counter:our_scrap")] == ["iron-skulls", "venom-sisters", "third"]
    assert st.column("counter:our_scrap", counters).title == "Our scrap"
    assert st.column("counter:gone").title == "gone"  # (a counter no pack declares: its id)
    order = ["kills"]
    for _ in range(2):
        order.append(st.next_column(order[-1], counters))
    assert order == ["kills", "counter:our_scrap", ""]
    assert st.next_column("kills") == ""  # (no counters: as before)
    with pytest.raises(KeyError):
        st.column("counter:")


def test_plurals_and_possessives() -> None:
    assert plural(1, "gang") == "1 gang" and plural(0, "gang") == "0 gangs"
    assert plural(2, "battle") == "2 battles"
    assert possessive("The Marauders") == "The Marauders'"
    assert possessive("Vexa") == "Vexa's"


def test_the_campaign_report_in_discord_messages(demo_campaign) -> None:
    c = demo_campaign
    for i in range(12):  # a long roster: the report needs several messages
        f = c.gangs[0].fighters[i % len(c.gangs[0].fighters)]
        c.gangs[0].fighters.append(type(f)(id=f"x{i}", name=f"Extra Sister {i}",
                                           skills=["Combat Virtuoso", "Escape Artist"]))
    md = render_markdown(campaign_summary(c))
    messages = discord_messages(md)
    assert len(md) > LIMIT and len(messages) > 1
    assert all(len(m) <= LIMIT for m in messages)
    assert messages[0].startswith("# Demo: Ashfall Sump")
    body = "\n".join(messages)
    assert "| The Venom Sisters |" not in body  # no Markdown tables: Discord shows none
    assert body.count("```") % 2 == 0 and all(m.count("```") % 2 == 0 for m in messages)
    assert "Extra Sister 11" in body and "The Iron Skulls" in body
    # every word outside the tables is kept, in order; every table row is in a code block
    prose = [w for line in md.splitlines() if not line.startswith("|") for w in line.split()]
    code, text, inside = [], [], False
    for line in body.splitlines():
        if line == "```":
            inside = not inside
        else:
            (code if inside else text).append(line)
    assert [w for line in text for w in line.split()] == prose
    rows = [line for line in md.splitlines() if line.startswith("|") and "---" not in line]
    flat = [" ".join(line.split()) for line in code]
    for row in rows:
        cells = " ".join(c.strip() for c in row.strip("|").split("|") if c.strip())
        assert " ".join(cells.split()) in flat, row


@settings(max_examples=examples(60), deadline=None)
@given(hs.lists(hs.text(alphabet="ab |#-\n", max_size=300), max_size=30),
       hs.integers(min_value=40, max_value=400))
def test_no_message_is_ever_longer_than_the_limit(parts, limit) -> None:
    for m in discord_messages("\n".join(parts), limit=limit):
        assert 0 < len(m) <= limit


def test_a_table_header_wider_than_a_message_is_cut_too() -> None:
    # found by the property above: the fenced header alone was 41 characters for a limit of 40
    for m in discord_messages("|aaaaaaaaaaa||a", limit=40):
        assert 0 < len(m) <= 40


def test_a_gang_named_as_a_mention_pings_nobody(demo_campaign) -> None:
    """A report pasted into Discord: a gang named "@everyone" (or a fighter "<@123>")
    shows as named, with a zero-width space that keeps Discord from pinging."""
    demo_campaign.gangs[0].name = "@everyone's Sisters"
    demo_campaign.gangs[1].name = "<@123> and <#45> and @here"
    text = "\n".join(discord_messages(render_markdown(campaign_summary(demo_campaign))))
    for mention in ("@everyone", "@here", "<@1", "<#4"):
        assert mention not in text
    assert text.replace("\u200b", "").count("@everyone's Sisters") >= 1
    assert "<@123> and <#45> and @here" in text.replace("\u200b", "")
    assert all(len(m) <= LIMIT for m in discord_messages("@everyone " * 400))
