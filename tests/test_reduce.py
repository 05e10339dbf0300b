"""The reduction of `conformance diff` groups (conformance/reduce.py): pass by pass, it reaches
the smallest scenario that still fails, says whether it finished, and a group left above the
target (3 players, 16 cards in hands) says why: the deviation needs the cards (the reduction
finished: every smaller candidate stops the failure), or the reduction ran out of time.

The oracle and the implementation are stood in for: a candidate "fails" when it keeps a
condition on its set-up (the implementation's deviation needs it), so that what is asserted is
the reducer's search, not an engine's behaviour (tests/test_diff_groups.py runs it for real).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from conformance import reduce as R
from conformance.blame import Signature
from conformance.divergence import Divergence, StepRecord

SIG = Signature("observation", "top", "play", "CL.PLAY.DISCARD-FACE-UP")
NUMBERS = [f"{c}{n}" for c in "RGBY" for n in range(10)]


class _Checker:
    """Fails (the group's signature) while `needs` holds of the candidate's set-up."""

    def __init__(self, needs: Any) -> None:
        self.needs = needs
        self.differ = None
        self.message = "differs"
        self.tried = 0

    def signature_on_impl(self, div: Divergence) -> Signature | None:
        self.tried += 1
        return SIG if self.needs(div.setup) else None

    def steady(self, div: Divergence) -> bool:  # nothing here shuffles
        return not div.shuffled


@pytest.fixture(autouse=True)
def _no_oracle(monkeypatch: pytest.MonkeyPatch) -> None:
    def record(_differ: Any, div: Divergence, setup: dict[str, Any],
               acts: list[dict[str, Any]]) -> Divergence:
        return replace(div, setup=setup, steps=[StepRecord(a, None, []) for a in acts])

    monkeypatch.setattr(R, "record", record)
    monkeypatch.setattr(R, "_rerooted", lambda _differ, _div: iter(()))


def _div(hands: dict[str, list[str]]) -> Divergence:
    setup = {"players": len(hands), "start": "turn", "current": 0, "direction": "clockwise",
             "hands": hands, "discard": ["R1", "G2", "B3"], "draw": NUMBERS[:12],
             "active_color": "blue"}
    return Divergence("observation", (), "differs", "classic-official", 1, setup, [], {},
                      signature=SIG)


def _hand_limit(setup: dict[str, Any]) -> bool:  # a hand over 15 cards, and a third seat
    return setup["players"] >= 3 and len(setup["hands"]["0"]) >= 16


def test_the_reduction_reaches_the_minimum_and_says_a_larger_group_needs_its_cards() -> None:
    hands = {"0": NUMBERS[:20], "1": NUMBERS[20:27], "2": NUMBERS[27:34], "3": NUMBERS[34:40]}
    checker = _Checker(_hand_limit)
    small, how = R.reduce(checker, _div(hands), 60)  # type: ignore[arg-type]
    assert how.finished
    assert small.players == 3 and len(small.setup["hands"]["0"]) == 16
    assert small.cards_in_hands == 18  # the two other hands down to a card each
    assert small.setup["discard"] == ["B3"] and small.setup["draw"] == []
    assert how.tried == checker.tried  # each candidate tried once
    why = R.above_target(small, how)
    assert why is not None and why.startswith(
        "3 players and 18 cards in hands, above the target of 3 and 16: the deviation needs "
        "them (the reduction finished: every smaller candidate")
    # a group within the target says nothing
    ok = replace(small, setup=dict(small.setup, hands={"0": ["R5"], "1": ["G5"], "2": ["B5"]}))
    assert R.above_target(ok, how) is None


def test_halves_first_every_hand_at_once_keeps_the_search_short() -> None:
    # any one card anywhere is enough: one candidate (every hand to one card) after the seats
    hands = {str(s): NUMBERS[s * 8:s * 8 + 8] for s in range(5)}
    checker = _Checker(lambda setup: True)
    small, how = R.reduce(checker, _div(hands), 60)  # type: ignore[arg-type]
    assert how.finished and small.players == 2 and small.cards_in_hands == 2
    assert how.tried < 40, how.tried


def test_a_reduction_out_of_time_says_so() -> None:
    hands = {"0": NUMBERS[:20], "1": NUMBERS[20:27], "2": NUMBERS[27:34], "3": NUMBERS[34:40]}
    small, how = R.reduce(_Checker(_hand_limit), _div(hands), 0)  # type: ignore[arg-type]
    assert not how.finished and how.tried == 0 and small.cards_in_hands == 40
    assert R.above_target(small, how) == (
        "4 players and 40 cards in hands, above the target of 3 and 16: the reduction ran out "
        "of its time (0 s, 0 candidates tried): it may be smaller (--reduce-seconds)")
    assert R.above_target(small, None) == \
        "4 players and 40 cards in hands, above the target of 3 and 16: not reduced"


def test_the_report_says_why_a_group_is_above_the_target_and_how_it_showed() -> None:
    from collections import Counter

    from conformance import diff_cli
    from conformance.diff import DiffReport, Stats

    hands = {"0": NUMBERS[:16], "1": NUMBERS[16:17], "2": NUMBERS[17:18]}
    div = replace(_div(hands), signature=Signature("observation", "top", "play",
                                                   "CL.PLAY.DISCARD-FACE-UP"))
    report = DiffReport({"name": "x", "version": "1"}, "x", ["classic-official"], ["made"], [],
                        Stats(), 1.0, [(div, 3)], {div.key: 0.5}, [],
                        reductions={div.key: R.Reduction(True, 40, 2.0)},
                        shown={div.key: Counter({("play", SIG.rule): 2,
                                                 ("challenge", SIG.rule): 1})})
    data = diff_cli.to_json(report, 1)
    group = data["groups"][0]
    assert group["reduction"] == {"finished": True, "candidates_tried": 40, "seconds": 2.0}
    assert group["shown_as"] == [{"decision": "play", "rule": SIG.rule, "count": 2},
                                 {"decision": "challenge", "rule": SIG.rule, "count": 1}]
    why = R.above_target(div, report.reductions[div.key])
    assert group["above_target"] == why and why is not None and "needs them" in why
    assert f"         above the target: {why}\n" in diff_cli.render(data, "console")
    assert "         shown as: play (CL.PLAY.DISCARD-FACE-UP) 2, challenge " \
        "(CL.PLAY.DISCARD-FACE-UP) 1\n" in diff_cli.render(data, "console")
    assert f"- above the target: top (CL.PLAY.DISCARD-FACE-UP): {why}" in \
        diff_cli.render(data, "markdown")


def test_a_candidate_deviating_before_its_deciding_step_is_not_the_group(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduction candidate's scenario states, after each step before the deciding one, the
    observation its group shows differ (`Signature.what`) as the fuzzer compared the
    implementation on it there (`StepRecord.expect`): a candidate whose implementation differs
    in it already at an earlier step fails there, and is not taken for the group. (Its scenario
    used to state the deciding step's observations alone: a candidate that traded the deviation
    for an earlier one, still showing at the last step, was kept, and blamed on the last step's
    rule: uno-engine's catch that did nothing, named by a late UNO call two steps later.) Another
    observation differing earlier does not stop it (uno-engine's deck refilled from nowhere when
    a candidate's pile runs out: stating every observation kept scenarios of 70 cards). The
    reference plays the implementation; the expectations are made wrong to stand for its
    deviations."""
    from conformance.adapters.reference import ReferenceAdapter, ReferenceOracle
    from conformance.diff import Differ
    from conformance.runner import Runner

    monkeypatch.undo()  # the real `record`, which plays the oracle along the steps
    differ = Differ(ReferenceOracle, ReferenceAdapter)
    checker = R.Checker(differ, Runner(ReferenceAdapter), Runner(ReferenceOracle))
    setup = {"players": 2, "start": "turn", "current": 0, "direction": "clockwise",
             "hands": {"0": ["R5", "G7", "B1"], "1": ["Y3", "B2"]}, "discard": ["R1"],
             "draw": ["G1", "Y9"], "active_color": "red"}
    acts = [{"player": 0, "play": "R5"}, {"player": 1, "draw": True}]
    group = Signature("observation", "current", "play", "CL.DRAW.KEEP")
    div = R.record(differ, replace(_div(setup["hands"]), signature=group), setup, acts)
    assert div is not None and div.steps[0].expect is not None
    assert div.steps[0].expect["current"] == 1  # after the R5: the other seat's turn
    # the implementation differs at the deciding step only: the group's failure
    last = replace(div, expect={**div.expect, "current": 1})
    got = checker.signature_on_impl(last)
    assert got is not None and (got.kind, got.what) == ("observation", "current")

    def earlier(key: str, value: Any) -> Divergence:
        first = replace(div.steps[0], expect={**div.steps[0].expect, key: value})
        return replace(last, steps=[first, div.steps[1]])

    # ... and in that observation already after the first step: it fails there
    assert checker.signature_on_impl(earlier("current", 0)) is None
    # another observation differing there is not the group's: still the group's failure
    got = checker.signature_on_impl(earlier("top", "Y9"))
    assert got is not None and (got.kind, got.what) == ("observation", "current")
    differ.close()
