"""The 2018 deck's Wild Shuffle Hands (CL18.WSH.*, variant cards-2018): every hand collected,
shuffled and dealt out evenly from the next player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Pending
from uno_fsm.oracle.base import Snap, check

if TYPE_CHECKING:
    from uno_fsm.game import Game


def post_shuffle_hands(p: int, pend: Pending, before: Snap, game: Game) -> None:
    """CL18.WSH.COLLECT, CL18.WSH.DEAL, CL18.WSH.NEXT (among the players in the game:
    DESAFIO.ELIMINATED-OUT)."""
    after = game.state
    total_before = sum(len(h) for h in before.hands) - 1
    out = before.out
    sizes = [len(h) for s, h in enumerate(after.hands) if s not in out]
    check(sum(sizes) == total_before and max(sizes) - min(sizes) <= 1, "CL18.WSH.DEAL",
          f"hands after Wild Shuffle Hands: {sizes}")
    victim = before.step(p)
    check(pend.player == victim, "CL18.WSH.NEXT", f"pending {pend}, expected P{victim}")
