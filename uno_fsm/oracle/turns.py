"""Matching and turn order when no card is played (CL.DRAW.*, CL.FIRST.WILD's colour
choice): drawing, keeping the drawn card, naming the first card's colour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.oracle.base import Facts, Snap, available, check, face_on, gain, grown, playable

if TYPE_CHECKING:
    from uno_fsm.game import Game


def post_draw(facts: Facts, before: Snap, game: Game) -> None:
    """CL.DRAW.UNABLE / CL.DRAW.UNWILLING: the ruleset's `draw.count` cards, one in every
    shipped ruleset (CL.RESHUFFLE.BOTH-EMPTY: fewer when the piles run out); a playable drawn
    card (the last one) may be played (CL.DRAW.PLAY-DRAWN), else the turn passes."""
    after, pend = game.state, game.pending
    p = before.current
    assert p is not None
    want = min(facts.draw, available(before, False))
    ok = gain(before, after, p) == want  # (messages built only for a failure)
    check(ok, "CL.DRAW.UNABLE", "" if ok else
          f"P{p} drew {gain(before, after, p)} cards, expected {want}")
    if not want:
        return
    got = grown(before.hands[p], after.hands[p])
    # the last card drawn decides: the one card (draw.count 1); of several, the hands do not
    # say which came last, so the engine's pending drawn card is checked to be one of them
    drawn = got[0] if len(got) == 1 else after.drawn
    if drawn is None or drawn not in got:
        ok = pend is not None and pend.player == before.step(p) and pend.decision == "play"
        check(ok, "CL.DRAW.UNPLAYABLE-PASSES", "" if ok else
              f"after drawing {len(got)} cards: pending {pend}")
        return
    if playable(face_on(drawn, before.side), before.active_color, before.top()):
        # CL.DRAW.PLAY-DRAWN: the player may now play the drawn card or keep it
        ok = pend is not None and pend.player == p and pend.decision == "play-drawn"
        check(ok, "CL.DRAW.PLAY-DRAWN", "" if ok else
              f"after drawing playable {drawn}: pending {pend}")
    else:
        # CL.DRAW.UNPLAYABLE-PASSES
        nxt = before.step(p)
        ok = pend is not None and pend.player == nxt and pend.decision == "play"
        check(ok, "CL.DRAW.UNPLAYABLE-PASSES", "" if ok else
              f"after drawing unplayable {drawn}: pending {pend}, expected P{nxt}")


def post_pass(before: Snap, game: Game) -> None:
    """CL.DRAW.KEEP: the drawn card is kept, the turn passes."""
    after, pend = game.state, game.pending
    p = before.current
    assert p is not None
    nxt = before.step(p)
    ok = pend is not None and pend.player == nxt  # (the message built only for a failure)
    check(ok, "CL.DRAW.KEEP", "" if ok else
          f"after keeping the drawn card: pending {pend}, expected P{nxt}")
    check(after.hands[p] == before.hands[p], "CL.DRAW.KEEP", "the hand changed on a pass")


def post_color(before: Snap, action: Action, game: Game) -> None:
    """CL.FIRST.WILD: the first player names the colour of a Wild turned first, then plays."""
    after, pend = game.state, game.pending
    check(after.active_color == action.color, "CL.FIRST.WILD",
          f"active colour {after.active_color}, named {action.color}")
    check(pend is not None and pend.player == before.current and pend.decision == "play",
          "CL.FIRST.WILD", f"after naming the colour: pending {pend}")
