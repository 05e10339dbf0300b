"""UNO Flip (FL.FLIP.*, FL.DARK.SE.*, FL.SCORE.*): the Flip card turning the piles and the
side over, Skip Everyone, and the points of a face."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Pending
from uno_fsm.cards import Card, Face
from uno_fsm.oracle.base import Snap, check, face_on

if TYPE_CHECKING:
    from uno_fsm.game import Game

FLIP_POINTS = {"draw1": 10, "draw5": 20, "reverse": 20, "skip": 20, "skip_everyone": 30,
               "flip": 20, "wild": 40, "wd2": 50, "wdc": 60}  # FL.SCORE.*


def flip_points(f: Face) -> int:
    """FL.SCORE.NUMBER and the FL.SCORE.* values of action and Wild faces."""
    return f.number if f.number is not None else FLIP_POINTS[f.kind]


def check_flip_piles(before: Snap, card: Card, game: Game) -> None:
    """FL.FLIP.DISCARD-TURNED: the whole pile is turned over, the Flip card at the bottom;
    FL.FLIP.SIDE-CHANGE; FL.FLIP.DRAW-TURNED: the draw pile is turned over."""
    after = game.state
    want_pile = [*before.discard, card][::-1]
    ok = after.discard == want_pile  # (the message built only for a failure)
    check(ok, "FL.FLIP.DISCARD-TURNED", "" if ok else
          f"discard pile after a Flip: {[c.text for c in after.discard]}, expected "
          f"{[c.text for c in want_pile]}")
    other = "dark" if before.side == "light" else "light"
    check(after.side == other, "FL.FLIP.SIDE-CHANGE", f"side {after.side} after a Flip")
    if len(after.draw) == len(before.draw):
        check(after.draw == before.draw[::-1], "FL.FLIP.DRAW-TURNED",
              "the draw pile was not turned over")


def check_same_side(before: Snap, game: Game) -> None:
    """FL.FLIP.PERSISTS: only a Flip card changes the side."""
    check(game.state.side == before.side, "FL.FLIP.PERSISTS", "the side changed without a Flip")


def check_new_top_colour(before: Snap, card: Card, game: Game) -> None:
    """FL.FLIP.NEW-TOP-NO-EFFECT, FL.FLIP.NEW-TOP-WILD: the colour of the face turned up."""
    after = game.state
    new_top = face_on(before.discard[0] if before.discard else card, after.side)
    ok = after.active_color == new_top.color  # (the message built only for a failure)
    check(ok, "FL.FLIP.NEW-TOP-WILD" if new_top.is_wild else "FL.FLIP.NEW-TOP-NO-EFFECT",
          "" if ok else f"active colour {after.active_color} after flipping to {new_top}")


def post_skip_everyone(p: int, pend: Pending) -> None:
    """FL.DARK.SE.EFFECT: the same player plays again."""
    ok = pend.player == p and pend.decision == "play"  # (the message built for a failure)
    check(ok, "FL.DARK.SE.EFFECT", "" if ok else f"after P{p}'s Skip Everyone: pending {pend}")
