"""Variant Partners (`partners`, `scoring.method: partners`): fixed partnerships of opposite
seats, scored and won as teams.

Rules: PARTNERS.*. The even player count (PARTNERS.EVEN) is checked when the game is set up
(`Params.players_ok`, `uno_fsm.game`); no trading action exists (PARTNERS.NO-SHARING).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uno_fsm.checks import Oracle, check
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

METHOD = "partners"  # its `scoring.method`


def partner_of(players: int, seat: int) -> int:
    """PARTNERS.SEATING (RUL.PARTNERS.TEAMS): seat i partners seat i + n/2 (n even);
    PARTNERS.FIXED (RUL.PARTNERS.ROTATION): a function of the seat, never rotated."""
    return (seat + players // 2) % players


class PartnersOracle(Oracle):
    """PARTNERS.SEATING, PARTNERS.SCORE, PARTNERS.TARGET, read from the rule texts."""

    def team(self, seat: int, players: int) -> tuple[set[int], str, str] | None:
        """PARTNERS.SEATING: the partners of opposite seats score together, the opponents'
        cards only (PARTNERS.SCORE), to the team's target (PARTNERS.TARGET)."""
        return {seat, (seat + players // 2) % players}, "PARTNERS.SCORE", "PARTNERS.TARGET"

    def position(self, facts: Any, game: Game, legal: list[Any]) -> None:
        """PARTNERS.TARGET: a partnership's points accumulate together: partners hold one
        total."""
        st = game.state
        n = st.players
        check(all(st.scores[i] == st.scores[(i + n // 2) % n] for i in range(n)),
              "PARTNERS.TARGET", f"partners' totals differ: {st.scores}")


class Partners(Variant):
    name = "partners"
    scoring_method = METHOD
    fuzz = (FuzzConfig("classic-official+partners"), FuzzConfig("classic-2022+partners"))
    checks = (CheckConfig("classic-official+partners", 4,
                          "colors=red;numbers=1,2;actions=skip,reverse,draw2;wilds=wild",
                          hand=1, target=100, depth=3),)
    oracle = PartnersOracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return p.method == METHOD

    def score_hand(self, winner: int, held: list[int]) -> tuple[int, str] | None:
        """PARTNERS.END: either partner going out ends the hand (CL.END.OUT, as for anyone);
        PARTNERS.SCORE, PARTNERS.TARGET (RUL.PARTNERS.SCORING): the opposing players' cards
        only, scored for the team: both partners' `scores` carry the team total."""
        st = self.r.st
        mate = partner_of(st.players, winner)
        points = sum(v for s, v in enumerate(held) if s not in (winner, mate))
        st.scores[winner] += points
        st.scores[mate] += points
        return points, "PARTNERS.SCORE"

    def end_game(self) -> bool:
        """PARTNERS.TARGET: the team wins the game (a shared win of both partners)."""
        r = self.r
        st = r.st
        r.winner_takes_game()
        if st.winner is not None:
            st.winners = sorted((st.winner, partner_of(st.players, st.winner)))
        return True
