"""When Python's cyclic collector runs while munda-tui is open, and on what.

Why this exists: a league's campaign is ~100,000 live objects for as long as it is open,
and a full collection scans every one of them again. Left to its defaults the collector
made start-up ~11 ms slower (~115 collections over objects that all live), took 40-400 ms
in the middle of post-battle steps (3-5 full collections in 60 steps), and collected the
last campaign's garbage in the middle of opening the next one (45-160 ms before its first
frame). Measured with ``scripts/bench.py`` (docs/performance.md).

What it does, in four moments:
- start-up: the command pauses the collector (``cli._run_app``) until the first frame
  (and until a campaign shown from its overview is decoded); then what start-up made is
  frozen out of its scans and it resumes (:meth:`Collector.resume_after_start_up`);
- a campaign opens: its objects and the app's are frozen, and a full collection comes
  after 100 younger ones instead of 10 (:meth:`Collector.campaign_opened`);
- it closes: its objects go back to the collector, which is paused until the list has
  been up for ``IDLE_COLLECT_AFTER`` seconds, then collects (:meth:`Collector.campaign_closed`,
  :meth:`Collector.collect_when_idle`); a campaign opened meanwhile keeps at most one
  closed campaign's garbage with its own.

What would let it go: a Python whose collector no longer rescans old live objects
(CPython 3.14's incremental collector was meant to; with it, measure again and drop the
freezing first). Nothing here is needed for correctness: without it the app is slower,
never wrong.
"""

from __future__ import annotations

import gc

#: seconds after a campaign closed when its objects are collected (the list is up)
IDLE_COLLECT_AFTER = 0.3

#: the cyclic collector's thresholds before a campaign opened, and while one is open
GC_DEFAULT = gc.get_threshold()
GC_OPEN = (GC_DEFAULT[0], GC_DEFAULT[1], 100)


class Collector:
    """The collector's state for one app: paused for start-up, and the closed campaigns
    whose garbage has not been collected yet."""

    def __init__(self, paused_for_start_up: bool = False) -> None:
        #: the command paused the cyclic collector for start-up (see cli._run_app): it
        #: resumes after the first frame (after the campaign shown from its overview is
        #: decoded, if one is), start-up's objects frozen first
        self.paused = paused_for_start_up
        #: campaigns closed since the collector last ran
        self.uncollected = 0

    def resume_after_start_up(self) -> None:
        """The first frame is up (and the campaign asked for decoded): the collector
        paused for start-up resumes, what start-up made (all of it alive: Textual's
        modules, the screen, the campaign) frozen out of its scans first."""
        if self.paused:
            self.paused = False
            gc.freeze()
            gc.enable()

    def campaign_opened(self) -> None:
        """The campaign is open: its objects (and the app's) are kept out of the
        collector's scans, which otherwise grow with a league's history (a 2,000-battle
        campaign screen took ~30% longer to show), and a full collection comes after 100
        younger ones instead of 10. The garbage of two campaigns closed without a
        collection in between (opened again within IDLE_COLLECT_AFTER, twice) is
        collected first, so no more than one campaign's is ever kept with them."""
        if self.uncollected > 1:
            gc.collect()
            self.uncollected = 0
        gc.freeze()
        gc.set_threshold(*GC_OPEN)
        if not self.paused:  # (paused since the campaign before closed, if one did)
            gc.enable()

    def campaign_closed(self, running: bool) -> float | None:
        """The campaign closed: its objects go back to the collector, as do its
        thresholds. While the app runs the collector is paused until
        :meth:`collect_when_idle`, due in the seconds returned."""
        gc.unfreeze()
        gc.set_threshold(*GC_DEFAULT)
        self.uncollected += 1
        if not running:
            return None
        gc.disable()
        return IDLE_COLLECT_AFTER

    def collect_when_idle(self, opening: bool, campaign_open: bool) -> float | None:
        """A closed campaign's objects are collected while the player reads the list,
        not in the middle of opening the next campaign, where a full collection (45-110
        ms, every object the app has scanned once more) came before its first frame. A
        campaign opened first freezes them with its own (:meth:`campaign_opened`: one
        campaign's garbage at most) and they are collected after it closes. A campaign
        being opened: ask again in the seconds returned."""
        if opening:  # (being opened: it resumes the collector once open)
            return IDLE_COLLECT_AFTER
        if not campaign_open:
            gc.collect()
            self.uncollected = 0
        gc.enable()
        return None

    def app_ended(self) -> None:
        gc.enable()  # (paused by a close: see campaign_closed)
