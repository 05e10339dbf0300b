"""Variant Flip alternative scoring (`flip-alt-scoring`, `scoring.method:
own-hand-lowest-wins`): every player scores their own hand; the lowest total wins.

Rules: FLALT.*. The game ends at the target (FLALT.END-500: `target_reached` of scoring.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from uno_fsm.actions import Event
from uno_fsm.cards import Card
from uno_fsm.checks import Oracle, Snap, check
from uno_fsm.configs import FLIP_DECK, CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

METHOD = "own-hand-lowest-wins"  # its `scoring.method`


class FlipAltScoringOracle(Oracle):
    """FLALT.OWN-HAND, FLALT.NO-COLLECT, FLALT.END-500, read from the rule texts."""

    def score_out(self, facts: Any, before: Snap, game: Game, p: int,
                  hand_points: Callable[[list[Card]], int]) -> tuple[bool, str] | None:
        """FLALT.OWN-HAND, FLALT.NO-COLLECT: every player scores their own hand (drawn cards
        of a last Draw card included: FLALT.GO-OUT-DRAWS); the player who went out holds
        nothing and collects nothing. FLALT.END-500: the game ends at the target."""
        after = game.state
        for s_, h in enumerate(after.hands):
            own = hand_points(h)
            check(after.scores[s_] == before.scores[s_] + own,
                  "FLALT.NO-COLLECT" if s_ == p else "FLALT.OWN-HAND",
                  f"P{s_} scored {after.scores[s_] - before.scores[s_]}, holds {own}")
        target = facts.target
        return target is not None and max(after.scores) >= target, "FLALT.END-500"


class FlipAltScoring(Variant):
    name = "flip-alt-scoring"
    scoring_method = METHOD
    fuzz = (FuzzConfig("flip+flip-alt-scoring"),)
    checks = (CheckConfig("flip+flip-alt-scoring", 2, FLIP_DECK, hand=2, target=100, depth=4),)
    oracle = FlipAltScoringOracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return p.method == METHOD

    def score_hand(self, winner: int, held: list[int]) -> tuple[int, str] | None:
        """FLALT.OWN-HAND, FLALT.NO-COLLECT (the winner holds nothing), FLALT.VALUES,
        FLALT.GO-OUT-DRAWS (RUL.FLALT.WHAT-COUNTS): each adds their own hand."""
        st = self.r.st
        for seat, value in enumerate(held):
            st.scores[seat] += value
        return held[winner], "FLALT.OWN-HAND"

    def end_game(self) -> bool:
        """FLALT.LOWEST-WINS; FLALT.TIE (RUL.FLALT.TIE): the tied lowest share the win."""
        r = self.r
        st = r.st
        low = min(st.scores)
        st.winners = [s for s, v in enumerate(st.scores) if v == low]
        st.winner = st.winners[0]
        r.events.append(Event("game-over", st.winner, count=len(st.winners),
                              rule="FLALT.LOWEST-WINS"))
        return True
