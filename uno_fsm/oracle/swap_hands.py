"""The Swap Hands card (V.SWAP.*, variant swap-hands): a Wild whose player names a colour and
then owes the choice of a player to swap hands with (the swap itself: `seven_o.post_swap`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action, Pending
from uno_fsm.oracle.base import check

if TYPE_CHECKING:
    from uno_fsm.game import Game


def post_swap_card(action: Action, p: int, pend: Pending, game: Game) -> None:
    """V.SWAP.WILD, V.SWAP.TARGET: colour named, swap owed."""
    check(pend.player == p and pend.decision == "swap", "V.SWAP.TARGET",
          f"after P{p}'s Swap Hands: pending {pend}, expected P{p} to choose a swap")
    after = game.state
    check(after.active_color == action.color, "V.SWAP.WILD",
          f"active colour {after.active_color}, named {action.color}")
