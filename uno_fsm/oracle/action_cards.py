"""Number and action cards in turn (CL.PLAY.ONE-CARD, CL.SKIP.*, CL.REVERSE.*, CL.D2.*,
CL.TWO.*; Flip's light Skip and Reverse, Draw One, Draw Five): who owes the next decision
after the card, and what its victim drew."""

from __future__ import annotations

from typing import TYPE_CHECKING

from uno_fsm.actions import Action, Pending
from uno_fsm.cards import Card
from uno_fsm.oracle.base import Facts, Snap, check, gain

if TYPE_CHECKING:
    from uno_fsm.game import Game

# penalty cards: kind -> (cards the victim draws, rule of the effect, rule when going out)
DRAW_CARDS: dict[str, tuple[int, str, str]] = {
    "draw2": (2, "CL.D2.EFFECT", "CL.END.LAST-D2"),
    "draw1": (1, "FL.LIGHT.D1.EFFECT", "FL.END.GO-OUT-DRAW"),
    "draw5": (5, "FL.DARK.D5.EFFECT", "FL.END.GO-OUT-DRAW"),
}


def post_skip(facts: Facts, p: int, pend: Pending, before: Snap) -> None:
    """CL.SKIP.EFFECT, FL.LIGHT.SKIP.EFFECT; CL.TWO.SKIP-AGAIN (two players in the game:
    CL.TWO.SCOPE, DESAFIO.HEAD-TO-HEAD)."""
    want = before.step(p, 2)
    rid = "CL.TWO.SKIP-AGAIN" if before.seated == 2 else (
        "FL.LIGHT.SKIP.EFFECT" if facts.flip else "CL.SKIP.EFFECT")
    ok = pend.player == want  # (messages built only for a failure, here and below)
    check(ok, rid, "" if ok else
          f"after P{p}'s Skip with {before.seated} players: pending {pend}, expected P{want}")


def post_reverse(facts: Facts, p: int, pend: Pending, before: Snap, game: Game) -> None:
    """CL.REVERSE.EFFECT, CL.REVERSE.NEXT; CL.TWO.REVERSE-SKIP (two players in the game:
    CL.TWO.SCOPE, DESAFIO.HEAD-TO-HEAD); FL.*.REVERSE.EFFECT."""
    d = before.direction
    rid = ("FL.LIGHT.REVERSE.EFFECT" if before.side == "light" else
           "FL.DARK.REVERSE.EFFECT") if facts.flip else "CL.REVERSE.EFFECT"
    check(game.state.direction == -d, rid, "the direction did not change")
    two = before.seated == 2
    want = p if two else before.step(p, -1)
    ok = pend.player == want
    check(ok, "CL.TWO.REVERSE-SKIP" if two else "CL.REVERSE.NEXT", "" if ok else
          f"after P{p}'s Reverse with {before.seated} players: pending {pend}, expected P{want}")


def post_draw_card(kind: str, card: Card, p: int, pend: Pending, before: Snap, game: Game,
                   avail: int) -> None:
    """CL.D2.EFFECT, FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT: the next player draws and loses
    the turn."""
    n = before.players
    victim = before.step(p)
    k, rid, _ = DRAW_CARDS[kind]
    grew = gain(before, game.state, victim)
    ok = grew == min(k, avail)
    check(ok, rid, "" if ok else
          f"{card} victim P{victim} grew by {grew}, expected {min(k, avail)}")
    want = before.step(p, 2)
    ok = pend.player == want and (pend.player != victim or n == 1)
    check(ok, rid, "" if ok else f"after P{p}'s {card}: pending {pend}, expected P{want}")


def post_next_player(kind: str, action: Action, p: int, pend: Pending, before: Snap) -> None:
    """Numbers, Wild, custom Wild, Flip: CL.PLAY.ONE-CARD, FL.FLIP.NEXT-PLAYER."""
    victim = before.step(p)
    ok = pend.player == victim and pend.decision == "play"
    check(ok, "FL.FLIP.NEXT-PLAYER" if kind == "flip" else "CL.PLAY.ONE-CARD", "" if ok else
          f"after P{p}'s {action.card}: pending {pend}, expected P{victim}")
