"""A run of Hypothesis whose examples keep being rejected is ended (conformance.diff.STALLED):
its targeting phase, hill-climbing from an example whose start a changed choice turns into one
that cannot be made, would otherwise draw such examples until Hypothesis' own limit of invalid
ones, for seconds, playing nothing. The cut loses nothing that was played, and a run that
cannot make any start position still says so."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis.database import InMemoryExampleDatabase

import conformance.diff as D
from conformance.adapters.reference import ReferenceAdapter, ReferenceOracle
from conformance.diff import Differ, DiffError

SEED = 93  # one run of Hypothesis (25 examples) whose targeting stalls against the reference
MAX_STEPS = 30  # (with examples of up to 30 steps, the default until 7 December 2026)


def _run(monkeypatch: pytest.MonkeyPatch, stalled: int) -> tuple[D.DiffReport, int]:
    monkeypatch.setattr(D, "STALLED", stalled)
    rejected = 0
    reject = Differ._reject

    def counted(self: Differ) -> None:
        nonlocal rejected
        rejected += 1
        reject(self)

    monkeypatch.setattr(Differ, "_reject", counted)
    report = Differ(ReferenceOracle, ReferenceAdapter, shrink_seconds=0, confirm_runs=0,
                    max_steps=MAX_STEPS).run(examples=25, seed=SEED)
    return report, rejected


def test_a_stalled_run_is_ended_and_loses_nothing_it_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    limit = D.STALLED
    cut, cut_rejected = _run(monkeypatch, limit)
    whole, whole_rejected = _run(monkeypatch, 10**9)  # never cut
    assert cut.stats.stalled == 1 and whole.stats.stalled == 0
    # the same examples played, the same steps, rules and (against itself) no group
    for key in ("examples", "steps", "illegal", "shuffles", "resyncs", "resumed"):
        assert getattr(cut.stats, key) == getattr(whole.stats, key), key
    assert cut.stats.examples > 0
    assert cut.coverage == whole.coverage and cut.groups == whole.groups == []
    # what the cut spares: examples drawn only to be rejected
    assert limit <= cut_rejected < 2 * limit < 10 * cut_rejected < whole_rejected


class Refusing(ReferenceOracle):
    """An oracle that refuses every position: no example can be played."""

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        return {"code": "unresolvable-setup", "rule": "CL.DEAL.SEVEN", "message": "refused"}


def test_a_run_that_can_make_no_position_says_so_and_is_not_cut() -> None:
    differ = Differ(Refusing, ReferenceAdapter, shrink_seconds=0, confirm_runs=0)
    with pytest.raises(DiffError, match="no start position could be made"):
        differ.run(examples=25, seed=1)
    assert differ.stats.stalled == 0 and differ.stats.steps == 0


class AcceptingFew(ReferenceOracle):
    """An oracle that takes the first set-ups of the run, then refuses the next 3 STALLED
    (a rejected example asks for one; the replays of a shuffle played just before may take
    some), then takes them again: the first run of Hypothesis is cut, and the runs after it
    play the rest of the budget."""

    taken = 0

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        AcceptingFew.taken += 1
        if 6 < AcceptingFew.taken <= 6 + 3 * D.STALLED:
            return {"code": "unresolvable-setup", "rule": "CL.DEAL.SEVEN", "message": "refused"}
        return super().setup(params)


class Recording(InMemoryExampleDatabase):
    """The keys Hypothesis saves examples under."""

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[bytes] = []

    def save(self, key: bytes, value: bytes) -> None:
        self.saved.append(key)
        super().save(key, value)


def test_a_stalled_run_saves_no_example_in_the_database() -> None:
    """The example a run is cut on was rejected: saved, it would be replayed first by every
    later run with the database, as if it were a divergence."""
    AcceptingFew.taken = 0
    db = Recording()
    differ = Differ(AcceptingFew, ReferenceAdapter, shrink_seconds=0, confirm_runs=0)
    report = differ.run(examples=25, seed=1, database=db)
    assert report.stats.stalled >= 1 and report.stats.examples >= 1 and report.groups == []
    # only the front of Hypothesis' targeting (`target()`), never an example as a failure
    assert [k for k in db.saved if not k.endswith(b".pareto")] == []
