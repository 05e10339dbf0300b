"""The model checker's colour symmetry (uno_fsm/modelcheck/encoding.py, docs/model-checking.md
"Symmetry"): on a configuration small enough to explore both ways, the reduced exploration
is the quotient of the unreduced one (its states are exactly the orbits of the other's), and
both find the same planted rule bugs, each reduced counterexample replaying on a concrete game.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from tests.test_fuzz_mutants import skip_does_not_skip
from uno_fsm import modelcheck as mc
from uno_fsm.modelcheck import executors
from uno_fsm.modelcheck.expand import Expander
from uno_fsm.rules import Rules

# two colours, a number, a Skip and a Draw Two of each, one card each, up to three hands (the
# next hand's dealer draw and deal are shuffles too)
SYM = mc.Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=skip,draw2;wilds=",
                hand=1, target=3, depth=None)
BUGS = replace(SYM, target=1)  # one hand: the planted bugs show in it


def visited(config: mc.Config) -> tuple[mc.Result, set[bytes]]:
    s = mc.Search(config)
    r = s.run(executors.InProcess(s.ex), executors.chunk_size_for)
    return r, set(s.visited)


@functools.cache
def both() -> tuple[mc.Result, set[bytes], mc.Result, set[bytes]]:
    red, red_keys = visited(SYM)
    full, full_keys = visited(replace(SYM, symmetry=False))
    return red, red_keys, full, full_keys


def test_the_reduced_states_are_the_orbits_of_the_unreduced_ones() -> None:
    red, red_keys, full, full_keys = both()
    assert red.complete and full.complete and red.violation_count == full.violation_count == 0
    assert red.group == 2 and red.symmetry.startswith("colours 2 permutations of red, yellow")
    codec = Expander(SYM).codec  # the canonical form (the unreduced run's keys are plain)
    orbits = {codec.canonical(*codec.decode(k, random.Random()))[0] for k in full_keys}
    assert orbits == red_keys
    assert red.states == len(orbits) < full.states <= 2 * red.states
    # an orbit has one state or two (a state a colour swap leaves as it is has one)
    assert full.states - red.states == sum(
        1 for k in red_keys
        if codec.encode(codec.decode(k, random.Random())[0], codec.decode(k, random.Random())[1],
                        codec.frames[1], 0) != k)


def d2_on_anything(mp: pytest.MonkeyPatch) -> None:
    original = Rules.playable

    def playable(self: Rules, cards: list) -> list:  # type: ignore[type-arg]
        ok = original(self, cards)
        # BUG: a Draw Two is playable on any card (the colour is not matched)
        return ok + [c for c in cards if self.face(c).kind == "draw2" and c not in ok]

    mp.setattr(Rules, "playable", playable)


def reshuffle_loses_a_card(mp: pytest.MonkeyPatch) -> None:
    original = Rules.reshuffle

    def reshuffle(self: Rules) -> bool:
        done = original(self)
        if done and len(self.st.draw) > 1:
            self.st.draw.pop(0)  # BUG: the bottom card of the new draw pile is lost
        return done

    mp.setattr(Rules, "reshuffle", reshuffle)


def window_survives_a_draw(mp: pytest.MonkeyPatch) -> None:
    original = Rules.begin

    def begin(self: Rules, event: str) -> None:
        window = self.st.uno_window
        original(self, event)
        if event == "draw":
            self.st.uno_window = window  # BUG: a draw leaves the catch window open

    mp.setattr(Rules, "begin", begin)


@pytest.mark.parametrize(("plant", "rule"), [
    # a card listed that does not match: the drawn-card pass check sees it first
    (d2_on_anything, "CL.DRAW.UNPLAYABLE-PASSES"),
    (skip_does_not_skip, "CL.TWO.SKIP-AGAIN"),
    (reshuffle_loses_a_card, "CL.DECK.TOTAL"),
    (window_survives_a_draw, "CL.UNO.WINDOW"),
])
def test_reduced_and_unreduced_find_the_same_planted_bugs(
        plant: Callable[[pytest.MonkeyPatch], None], rule: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    plant(monkeypatch)
    red = mc.explore(BUGS)
    full = mc.explore(replace(BUGS, symmetry=False))
    found = {(v.kind, v.rule) for v in red.violations}
    assert found == {(v.kind, v.rule) for v in full.violations}
    assert rule in {r for _, r in found}, found
    # an orbit counted once: the unreduced run counts each of its states
    assert 0 < red.violation_count <= full.violation_count
    assert all(v.reproduced for v in red.violations), [v.message for v in red.violations]
