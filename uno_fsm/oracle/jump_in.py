"""The Jump-In variant (V.JUMPIN.*): a card identical to the top discard may be played out of
turn while the turn owner's play decision is pending; play goes on from the jumper."""

from __future__ import annotations

from uno_fsm.actions import Action
from uno_fsm.cards import Face
from uno_fsm.oracle.base import Facts, Snap, check, face_on
from uno_fsm.state import State


def identical(f: Face | None, top: Face | None) -> bool:
    """V.JUMPIN.IDENTICAL: the same colour and the same symbol or number (no Wild)."""
    return f is not None and top is not None and not f.is_wild \
        and (f.color, f.kind, f.rank) == (top.color, top.kind, top.rank)


def check_jump(facts: Facts, before: Snap, action: Action) -> None:
    """An out-of-turn play was accepted: it must have been an identical coloured card while the
    turn owner's play decision was pending (V.JUMPIN.IDENTICAL, V.JUMPIN.TIMING); the in-turn
    postconditions then hold from the jumper's seat (V.JUMPIN.CONTINUES, V.JUMPIN.EFFECTS)."""
    card = action.card
    assert card is not None and action.player is not None
    check(facts.plays("jump-in"), "CL.PLAY.OUT-OF-TURN", f"out-of-turn {action} accepted")
    top = before.top()
    check(identical(face_on(card, before.side), top), "V.JUMPIN.IDENTICAL",
          f"{card} jumped in on {top}")
    check(before.decision == "play" and not before.stack, "V.JUMPIN.TIMING",
          f"jump-in while {before.decision} pending (stack {before.stack})")


def check_listed(facts: Facts, a: Action, decision: str, owner: int | None, st: State,
                 top: Face | None) -> None:
    """Invariant: an action listed for another player than the one owing the decision is a
    jump-in: identical card, play decision, no penalty pending (CL.PLAY.OUT-OF-TURN without
    the variant)."""
    f = face_on(a.card, st.side) if a.card is not None else None
    check(facts.plays("jump-in") and a.kind == "play" and decision == "play" and not st.stack
          and identical(f, top),
          "V.JUMPIN.IDENTICAL" if facts.plays("jump-in") else "CL.PLAY.OUT-OF-TURN",
          f"{a} listed while P{owner} owes the decision")
