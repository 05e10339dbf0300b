"""The model checker's counters kept in plain dicts (docs/performance.md "Model checking"):
the checks made (`STATS.checked`, counted by `check`), the coverage of the phase machine
(`traced`, flushed into `Coverage`) and the multisets of `tally` give what the Counters they
replace gave."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from uno_fsm.checks import STATS, check, grown, tally
from uno_fsm.game import Game
from uno_fsm.modelcheck.coverage import Coverage, traced


def test_checks_are_counted_by_rule() -> None:
    saved = STATS.checked
    try:
        STATS.checked = Counter()
        check(True, "CL.X", "")
        check(True, "CL.X", "")
        with pytest.raises(AssertionError, match=r"\[CL.Y\] broken"):
            check(False, "CL.Y", "broken")  # a failed check is counted too
        got = STATS.checked
        assert got == Counter({"CL.X": 2, "CL.Y": 1})
        assert isinstance(got, Counter)
        got["CL.X"] += 5  # a copy: the count is not changed through it
        assert STATS.checked["CL.X"] == 2
        STATS.checked = Counter({"CL.Z": 4})
        assert STATS.checked == Counter({"CL.Z": 4})
        STATS.reset()
        assert STATS.checked == Counter()
    finally:
        STATS.checked = saved


def test_tally_is_a_counter_as_a_dict() -> None:
    rng = random.Random(7)
    for _ in range(200):
        items = [rng.choice("abcdef") for _ in range(rng.randrange(12))]
        got = tally(items)
        assert type(got) is dict
        assert got == dict(Counter(items))
        assert list(got) == list(Counter(items))  # first places kept
        before = [rng.choice("abcdef") for _ in range(rng.randrange(8))]
        assert grown(before, items) == list((Counter(items) - Counter(before)).elements())


def test_traced_coverage_is_flushed() -> None:
    cov = Coverage()
    with traced(cov):
        game = Game.new("classic-official", 2, seed=3)
        for _ in range(30):
            if game.is_over:
                break
            game.apply(game.legal_actions()[0])
        assert not cov.edges  # counted apart until flushed
        cov.flush()
        edges, guards = Counter(cov.edges), Counter(cov.guards)
        assert sum(edges.values()) >= 30
        assert guards and all(n > 0 for n in guards.values())
        cov.flush()  # nothing new: nothing added
        assert cov.edges == edges and cov.guards == guards
        assert not game.is_over
        game.apply(game.legal_actions()[0])
    # the end of `traced` flushes what was counted since
    assert sum(cov.edges.values()) > sum(edges.values())
    cov.clear()
    assert not cov.edges and not cov.guards


def test_illegal_candidates_made_once_are_the_same_actions() -> None:
    """`illegal_actions._action` hands out the action made before for the same fields (an
    immutable, equal value), never for fields merely equal (1 and True), and never an
    interned one (their form is checked by `validate`)."""
    from uno_fsm import illegal_actions as ia
    from uno_fsm.actions import FORMED, Action, interned

    a = ia._action("catch", 1, target=0)
    assert a == Action("catch", 1, target=0) and ia._action("catch", 1, target=0) is a
    odd = ia._action("catch", True, target=0)  # type: ignore[arg-type]  # malformed
    assert odd is not a and odd.player is True
    legal = interned("draw", 0)
    made = ia._action("draw", 0)
    assert made == legal and made is not legal
    assert all(id(made) not in formed for formed in FORMED.values())
