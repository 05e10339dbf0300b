"""Flip's alternative scoring (FLALT.*, variant flip-alt-scoring): every player scores their
own hand, the player who went out nothing; the game ends when a total reaches the target."""

from __future__ import annotations

from collections.abc import Callable

from uno_fsm.cards import Card
from uno_fsm.oracle.base import Snap, check
from uno_fsm.state import State


def check_own_hands(before: Snap, after: State, p: int,
                    hand_points: Callable[[list[Card]], int]) -> None:
    """FLALT.OWN-HAND, FLALT.NO-COLLECT: every player scores their own hand (drawn cards of a
    last Draw card included: FLALT.GO-OUT-DRAWS); the player who went out holds nothing and
    collects nothing."""
    for s_, h in enumerate(after.hands):
        own = hand_points(h)
        check(after.scores[s_] == before.scores[s_] + own,
              "FLALT.NO-COLLECT" if s_ == p else "FLALT.OWN-HAND",
              f"P{s_} scored {after.scores[s_] - before.scores[s_]}, holds {own}")
