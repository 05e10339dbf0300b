"""The stacking variant (V.STACK.*): a Draw Two or Wild Draw Four penalty passed on by
playing the same card, taken whole by the player who does not stack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Pending
from uno_fsm.cards import Card
from uno_fsm.oracle.base import Snap, available, check, gain

if TYPE_CHECKING:
    from uno_fsm.game import Game


def check_no_cross(before: Snap, kind: str, card: Card) -> None:
    """V.STACK.D2-ON-D2, V.STACK.W4-ON-W4, V.STACK.NO-CROSS: on a pending penalty only the
    same card."""
    top = before.top()
    check(top is not None and kind == top.kind, "V.STACK.NO-CROSS",
          f"{card} played on a pending {top} penalty")


def post_take_all(before: Snap, game: Game) -> None:
    """V.STACK.TAKE-ALL: the whole accumulated penalty, the turn passes, nothing to play."""
    after, pend = game.state, game.pending
    p = before.current
    assert p is not None
    want = min(before.stack, available(before, False))
    check(gain(before, after, p) == want, "V.STACK.TAKE-ALL",
          f"P{p} drew {gain(before, after, p)} cards facing {before.stack}, expected {want}")
    nxt = before.step(p)
    check(pend is not None and pend.player == nxt and pend.decision == "play"
          and after.stack == 0, "V.STACK.TAKE-ALL",
          f"after taking the stack: pending {pend}, stack {after.stack}, expected P{nxt}")


def post_stacked_draw_two(card: Card, p: int, pend: Pending, before: Snap, game: Game) -> None:
    """V.STACK.ACCUMULATE, V.STACK.OPTIONAL: nobody draws yet; the victim stacks or draws."""
    after = game.state
    victim = before.step(p)
    check(gain(before, after, victim) == 0 and after.stack == before.stack + 2
          and pend.player == victim and pend.decision == "play", "V.STACK.ACCUMULATE",
          f"after P{p}'s {card} on a stack of {before.stack}: stack {after.stack}, "
          f"P{victim} grew by {gain(before, after, victim)}, pending {pend}")
