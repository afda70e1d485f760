"""The fighters the Side Jobs pick from the deployed crews (Core Rules p147)."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.dice import Roll
from munda_tui.rules.prebattle.scenario import TableEntry
from munda_tui.rules.prebattle.setup import SideSetup
from munda_tui.screens.common.dialogs import PickOneScreen, picks
from munda_tui.screens.prebattle.steps.base import ListDetailStep, replace_roll


class SideJobsStep(ListDetailStep):
    BINDINGS = [
        Binding("enter", "decide", "Pick / roll", id="side_jobs_step.decide"),
        Binding("r", "pick_random", "Pick at random", id="side_jobs_step.pick_random"),
        Binding("a", "pick_rest", "Pick the rest at random", id="side_jobs_step.pick_rest"),
    ]

    HINT = (
        "Side Jobs that pick a fighter do so from the deployed crews (Core Rules p147). "
        "{key:side_jobs_step.pick_random} on a line picks at random (munda-tui rolls); "
        "{key:side_jobs_step.decide}: the fighter you picked at the table."
    )
    ROW_ID, LIST_ID, SCROLL_ID, DETAIL_ID = "sj-row", "sj-list", "sj-scroll", "sj-detail"

    def _entry(self, side: SideSetup):  # type: ignore[no-untyped-def]
        try:
            return self.flow.tables["side_job"].entry(side.side_job)
        except KeyError:
            return None

    def _enemy(self, side: SideSetup) -> SideSetup:
        return next(s for s in self.setup.sides if s is not side)

    def _status(self, side: SideSetup) -> str:
        entry = self._entry(side)
        target = (entry.extra.get("target") if entry else None) or {}
        if not target:
            return "picks no fighter"
        if side.side_job_target:
            return "→ " + self._target_name(side.side_job_target)
        res = self._candidates(side)
        if res.new_side_job:
            return keys_text(self, "no fighter qualifies: {key:side_jobs_step.decide} to generate a new Side Job")
        if target.get("pick") == "random":
            return keys_text(self, "{key:side_jobs_step.pick_random}: pick at random · "
                                   "{key:side_jobs_step.decide}: the table's pick")
        return keys_text(self, "{key:side_jobs_step.decide} to pick the fighter")

    def _target_name(self, ref: str) -> str:
        gang_id, fid = ref.split("/", 1)
        return self.flow.fighter_label(gang_id, fid)

    def _candidates(self, side: SideSetup) -> sc.TargetResult:
        entry = self._entry(side)
        if entry is None:
            return sc.TargetResult()
        enemy = self._enemy(side)
        return sc.side_job_candidates(entry, self.flow.gang(side.gang), side.crew,
                                      self.flow.gang(enemy.gang), enemy.crew)

    def _refresh(self) -> None:
        ol = self.query_one("#sj-list", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        for side in self.setup.sides:
            ol.add_option(Option(Text(f"{self.flow.gang_name(side.gang)}: {side.side_job}\n   {self._status(side)}")))
        if keep is not None:
            ol.highlighted = keep

    def _detail(self) -> None:
        i = self.current
        side = self.setup.sides[i]
        entry = self._entry(side)
        lines = [f"{self.flow.gang_name(side.gang)}: {side.side_job}"]
        if entry is not None:
            lines += ["", entry.text, "", entry.reference]
        if side.side_job_target:
            lines += ["", f"Picked: {self._target_name(side.side_job_target)}"]
        self.query_one("#sj-detail", Static).update("\n".join(lines))


    def _set(self, side: SideSetup, ref: str) -> None:
        side.side_job_target = ref
        self.changed()
        self._refresh()
        self._detail()

    def _new_job(self, side: SideSetup) -> None:
        table = self.flow.tables["side_job"]

        name = self.flow.gang_name(side.gang)

        def done(entry: TableEntry, r: Roll | None, how: str) -> None:
            side.side_job = entry.name
            side.side_job_target = ""
            replace_roll(self.setup, sc.record_roll(table, side.gang, entry, how, r,
                                                    f"Side Job ({name}, generated again)"),
                         "no deployed fighter qualifies: a new Side Job is generated")
            self.changed()
            self._refresh()
            self._detail()

        self.ask_table(table, f"New Side Job for {name}", f"{name} rolls", done)

    def action_decide(self) -> None:
        i = self.current
        side = self.setup.sides[i]
        entry = self._entry(side)
        spec = (entry.extra.get("target") if entry else None) or {}
        if not spec:
            self.say(f"{side.side_job} picks no fighter.")
            return
        res = self._candidates(side)
        if res.new_side_job:
            self._new_job(side)
            return
        if not res.candidates:
            self.say("No deployed fighter qualifies.", severity="warning")
            return
        names = [self._target_name(c) for c in res.candidates]
        # a random selection is made once, by its own key (r), never by Enter: the list
        # is the fighter selected at the table (or a correction to it)
        picked_already = bool(side.side_job_target)
        random_pick = spec.get("pick") == "random" and not picked_already

        def done(k: int | None) -> None:
            if k is not None:
                self._set(side, res.candidates[k])

        how = "selected at the table" if random_pick else "chosen by the player"
        detail = (f"The fighter you selected at random at the table; "
                  f"{key_for(self, 'pick_one.cancel')}, then "
                  f"{key_for(self, 'side_jobs_step.pick_random')}, has the app pick at random "
                  "instead." if random_pick else "")
        if picked_already and spec.get("pick") == "random":
            how = "selected at the table"
            detail = (f"Picked: {self._target_name(side.side_job_target)}. Choose the fighter "
                      "selected at the table to correct it; the random pick is not made again.")
        self.ask(
            PickOneScreen(f"{side.side_job}: the fighter {how}", picks(names), detail,
                          cancel_label="Back"),
            done,
        )

    def action_pick_random(self) -> None:
        """The current line's fighter picked at random by the app (once: a picked line
        is corrected with Enter, never picked at random again)."""
        side = self.setup.sides[self.current]
        entry = self._entry(side)
        spec = (entry.extra.get("target") if entry else None) or {}
        if spec.get("pick") != "random":
            self.say(f"{side.side_job or 'This Side Job'}: its fighter is chosen, not "
                     f"picked at random: {key_for(self, 'side_jobs_step.decide')} lists them.")
            return
        if side.side_job_target:
            self.say(f"Picked already: {self._target_name(side.side_job_target)}. "
                     f"{key_for(self, 'side_jobs_step.decide')} corrects it to the fighter selected at the table.")
            return
        if self._candidates(side).new_side_job:
            self._new_job(side)
            return
        assert entry is not None
        enemy = self._enemy(side)
        picked = sc.side_job_target(
            entry, self.flow.gang(side.gang), side.crew, self.flow.gang(enemy.gang), enemy.crew,
            self.rng,
        )
        if not picked.fighter:
            self.say("No deployed fighter qualifies.", severity="warning")
            return
        self._set(side, picked.fighter)

    def action_pick_rest(self) -> None:
        picked = 0
        for side in self.setup.sides:
            entry = self._entry(side)
            spec = (entry.extra.get("target") if entry else None) or {}
            if spec.get("pick") == "random" and not side.side_job_target:
                enemy = self._enemy(side)
                target = sc.side_job_target(
                    entry, self.flow.gang(side.gang), side.crew, self.flow.gang(enemy.gang), enemy.crew,
                    self.rng,
                )
                if target.fighter:
                    self._set(side, target.fighter)
                    picked += 1
        if not picked:
            self.say(f"No Side Job fighter is left to pick at random: "
                     f"{key_for(self, 'side_jobs_step.decide')} on a line corrects it to the fighter selected at the table.")

    def finish(self) -> str | None:
        for side in self.setup.sides:
            entry = self._entry(side)
            spec = (entry.extra.get("target") if entry else None) or {}
            if spec and not side.side_job_target:
                return f"{self.flow.gang_name(side.gang)}: {side.side_job} still needs its fighter."
        return None
