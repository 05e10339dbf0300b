"""The fuzzer finds rule bugs injected into the engine (mutation testing of the fuzzer).

Each test breaks one rule with monkeypatch, runs the state machine with a bounded, derandomized
budget and no shrinking, and requires a `FuzzFailure` naming the broken rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import Phase, settings

from uno_fsm import fuzz
from uno_fsm import game as game_module
from uno_fsm.actions import Action
from uno_fsm.rules import Rules

BUDGET = settings(settings.get_profile("ci"), max_examples=40, stateful_step_count=120,
                  phases=[Phase.explicit, Phase.generate], derandomize=True, database=None)


def patch_effect(mp: pytest.MonkeyPatch, name: str, new: Callable[..., Any]) -> None:
    """Replace the effect `Rules.<name>` on both paths: the method (python-statemachine looks
    it up by name) and the dispatch table `Game.apply` compiled at import."""
    old = getattr(Rules, name)
    mp.setattr(Rules, name, new)
    for events in game_module._TABLE.values():
        for event, edges in list(events.items()):
            swapped = tuple((g, t, tuple(new if f is old else f for f in fx))
                            for g, t, fx in edges)
            if swapped != edges:
                mp.setitem(events, event, swapped)


def run_mutant(ruleset: str, players: tuple[int, int], rule_id: str) -> None:
    machine = fuzz.make_machine(ruleset, players)
    with pytest.raises(fuzz.FuzzFailure, match=rule_id.replace(".", r"\.")):
        fuzz.run(machine, BUDGET)


def skip_does_not_skip(mp: pytest.MonkeyPatch) -> None:
    """The mutant (also planted by the model checker's tests)."""
    original = Rules.play_effect

    def play_effect(self: Rules, action: Action | None = None) -> None:
        actor = self.st.current
        original(self, action)
        assert action is not None and action.card is not None
        if self.face(action.card).kind == "skip":
            self.st.current = self.seat(actor)  # BUG: the next player is not skipped

    patch_effect(mp, "play_effect", play_effect)


def test_skip_that_does_not_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    skip_does_not_skip(monkeypatch)
    run_mutant("classic-official", (3, 6), "CL.SKIP.EFFECT")


def test_reshuffle_that_loses_the_top_card(monkeypatch: pytest.MonkeyPatch) -> None:
    def reshuffle(self: Rules) -> bool:
        st = self.st
        if len(st.discard) <= 1:
            return False
        rest = st.discard  # BUG: the top card is shuffled in too
        st.rng.shuffle(rest)
        rest.extend(st.draw)
        st.draw = rest
        st.discard = [st.draw.pop(0)]
        return True

    monkeypatch.setattr(Rules, "reshuffle", reshuffle)
    run_mutant("classic-official", (8, 10), "CL.RESHUFFLE.KEEP-TOP")


def test_draw_two_that_draws_one(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Rules.give

    def give(self: Rules, seat: int, n: int, rule: str) -> Any:
        if rule == "CL.D2.EFFECT":
            n = 1  # BUG
        return original(self, seat, n, rule)

    monkeypatch.setattr(Rules, "give", give)
    run_mutant("classic-official", (2, 10), "CL.D2.EFFECT")


def test_alternative_scoring_winner_that_collects(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Rules.play_out

    def play_out(self: Rules, action: Action | None = None) -> None:
        winner = self.st.current
        original(self, action)
        if self.st.round_winner == winner:  # BUG: FLALT.NO-COLLECT ignored, the winner collects
            self.st.scores[winner] += 1

    patch_effect(monkeypatch, "play_out", play_out)
    run_mutant("flip+flip-alt-scoring", (2, 3), "FLALT.NO-COLLECT")
