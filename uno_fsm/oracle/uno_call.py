"""The UNO call and the table penalties (CL.UNO.*, CL.PEN.*): calling, catching, a hint, a
wrong card, and whether a player left with one card can be caught."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action
from uno_fsm.oracle.base import Facts, Snap, available, check, gain, has_catch

if TYPE_CHECKING:
    from uno_fsm.game import Game


def post_penalty(before: Snap, action: Action, game: Game) -> None:
    """CL.UNO.CATCH-PENALTY, CL.PEN.HINT: the target draws two; the turn order stays."""
    after, pend = game.state, game.pending
    t = action.target
    assert t is not None
    rid = "CL.UNO.CATCH-PENALTY" if action.kind == "catch" else "CL.PEN.HINT"
    want = min(2, available(before, False))
    ok = gain(before, after, t) == want  # (messages built only for a failure)
    check(ok, rid, "" if ok else f"P{t} grew by {gain(before, after, t)}, expected {want}")
    ok = pend is not None and (pend.player, pend.decision) == (before.current, before.decision)
    check(ok, rid, "" if ok else f"turn order changed: pending {pend}")


def post_uno(before: Snap, action: Action, game: Game, legal: list[Action]) -> None:
    """CL.UNO.CALL-LATE: a late call changes no hand and closes the catch."""
    check(game.state.hands == before.hands, "CL.UNO.CALL-LATE", "hands changed on an UNO call")
    check(not has_catch(legal, action.player), "CL.UNO.CALL-LATE",
          f"P{action.player} can still be caught after calling UNO")


def post_wrong_card(facts: Facts, before: Snap, action: Action, game: Game) -> None:
    """CL.PEN.WRONG-CARD: the card goes back, two cards drawn (or what a variant adds to them:
    `Oracle.penalty`), the turn passes."""
    after, pend = game.state, game.pending
    t = action.target
    assert t is not None
    k = next((got[0] for o in facts.oracles
              if (got := o.penalty(facts, before, "wrong-card", 2, "CL.PEN.WRONG-CARD"))
              is not None), 2)
    want = min(k, available(before, False))
    check(gain(before, after, t) == want, "CL.PEN.WRONG-CARD",
          f"P{t} grew by {gain(before, after, t)}, expected {want}")
    nxt = before.step(t)
    check(pend is not None and pend.player == nxt and pend.decision == "play",
          "CL.PEN.WRONG-CARD", f"pending {pend}, expected P{nxt} to play")


def check_window(action: Action, legal: list[Action]) -> None:
    """CL.UNO.WINDOW, CL.UNO.LATE-CATCH: the catch window closes at the next action that is
    neither an UNO call nor a catch (drawing, passing, answering a challenge); after a play
    only the player who played can be caught (their own window: CL.UNO.MUST-CALL)."""
    # (each message is built only for a failure: this runs after every action)
    if action.kind in ("draw", "pass", "accept", "challenge"):
        ok = not has_catch(legal)
        check(ok, "CL.UNO.WINDOW", "" if ok else
              f"a catch is still listed after {action}: "
              f"{[str(a) for a in legal if a.kind == 'catch']}")
    elif action.kind == "play":
        p = action.player
        ok = True
        for a in legal:  # (a loop, not a list: it runs after every play)
            if a.kind == "catch" and a.target != p:
                ok = False
                break
        check(ok, "CL.UNO.WINDOW", "" if ok else
              f"after {action} another player can still be caught: "
              f"{[str(a) for a in legal if a.kind == 'catch' and a.target != p]}")


def check_left_one(p: int, action: Action, game: Game, legal: list[Action]) -> None:
    """CL.UNO.MUST-CALL / CL.UNO.CALL-WITH-PLAY: after a play leaving one card, the player can
    be caught exactly when UNO was not called with the play."""
    can_catch = has_catch(legal, p)
    ok = can_catch != action.uno  # (the message built only for a failure)
    check(ok, "CL.UNO.MUST-CALL" if not action.uno else "CL.UNO.CALL-WITH-PLAY", "" if ok else
          f"P{p} holds one card, called UNO: {action.uno}, catchable: {can_catch}")
