"""conformance/adapters/loops.py: an endless loop found by its Python calls."""

from __future__ import annotations

import sys

import pytest

from conformance.adapters.loops import CallBudget, Looping


def _fail() -> None:
    raise ValueError("again")


def _spin(limit: int | None = None) -> int:
    """A loop that calls a Python function and swallows every Exception, as uno-game's and
    skilluno's do; `limit`: it ends."""
    n = 0
    while limit is None or n < limit:
        try:
            n += 1
            _fail()
        except Exception:  # noqa: BLE001 - the loop under test swallows everything
            continue
    return n


def test_a_loop_that_swallows_exceptions_is_stopped_past_the_budget() -> None:
    budget = CallBudget(500)
    with pytest.raises(Looping):
        budget.run(lambda: _spin(1_000_000))  # (ends, should counting fail)
    assert budget.calls == 501 and sys.getprofile() is None


def test_work_within_the_budget_ends_and_the_previous_profile_is_restored() -> None:
    def outer(frame: object, event: str, arg: object) -> None:
        pass

    sys.setprofile(outer)
    try:
        budget = CallBudget(500)
        assert budget.run(lambda: _spin(100)) == 100
        assert sys.getprofile() is outer
        assert CallBudget(0).run(lambda: _spin(10_000)) == 10_000  # 0: never stopped,
        assert sys.getprofile() is outer  # nor counted: the profile function left alone
    finally:
        sys.setprofile(None)
