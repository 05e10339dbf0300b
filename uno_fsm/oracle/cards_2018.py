"""The 2018 deck's Wild Shuffle Hands (CL18.WSH.*, variant cards-2018): every hand collected,
shuffled and dealt out evenly from the next player."""

from __future__ import annotations

from uno_fsm.actions import Pending
from uno_fsm.game import Game
from uno_fsm.oracle.base import Snap, check, step_seat


def post_shuffle_hands(p: int, pend: Pending, before: Snap, game: Game) -> None:
    """CL18.WSH.COLLECT, CL18.WSH.DEAL, CL18.WSH.NEXT."""
    after = game.state
    total_before = sum(len(h) for h in before.hands) - 1
    sizes = [len(h) for h in after.hands]
    check(sum(sizes) == total_before and max(sizes) - min(sizes) <= 1, "CL18.WSH.DEAL",
          f"hands after Wild Shuffle Hands: {sizes}")
    victim = step_seat(p, before.direction, 1, before.players)
    check(pend.player == victim, "CL18.WSH.NEXT", f"pending {pend}, expected P{victim}")
