"""Number and action cards in turn (CL.PLAY.ONE-CARD, CL.SKIP.*, CL.REVERSE.*, CL.D2.*,
CL.TWO.*; Flip's light Skip and Reverse, Draw One, Draw Five): who owes the next decision
after the card, and what its victim drew."""

from __future__ import annotations

from uno_fsm.actions import Action, Pending
from uno_fsm.cards import Card
from uno_fsm.game import Game
from uno_fsm.oracle.base import Facts, Snap, check, gain, step_seat

# penalty cards: kind -> (cards the victim draws, rule of the effect, rule when going out)
DRAW_CARDS: dict[str, tuple[int, str, str]] = {
    "draw2": (2, "CL.D2.EFFECT", "CL.END.LAST-D2"),
    "draw1": (1, "FL.LIGHT.D1.EFFECT", "FL.END.GO-OUT-DRAW"),
    "draw5": (5, "FL.DARK.D5.EFFECT", "FL.END.GO-OUT-DRAW"),
}


def post_skip(facts: Facts, p: int, pend: Pending, before: Snap) -> None:
    """CL.SKIP.EFFECT, FL.LIGHT.SKIP.EFFECT; CL.TWO.SKIP-AGAIN."""
    n = before.players
    want = step_seat(p, before.direction, 2, n)
    rid = "CL.TWO.SKIP-AGAIN" if n == 2 else ("FL.LIGHT.SKIP.EFFECT" if facts.flip
                                               else "CL.SKIP.EFFECT")
    check(pend.player == want, rid,
          f"after P{p}'s Skip with {n} players: pending {pend}, expected P{want}")


def post_reverse(facts: Facts, p: int, pend: Pending, before: Snap, game: Game) -> None:
    """CL.REVERSE.EFFECT, CL.REVERSE.NEXT; CL.TWO.REVERSE-SKIP; FL.*.REVERSE.EFFECT."""
    n, d = before.players, before.direction
    rid = ("FL.LIGHT.REVERSE.EFFECT" if before.side == "light" else
           "FL.DARK.REVERSE.EFFECT") if facts.flip else "CL.REVERSE.EFFECT"
    check(game.state.direction == -d, rid, "the direction did not change")
    want = step_seat(p, d, -1, n) if n > 2 else p
    check(pend.player == want, "CL.REVERSE.NEXT" if n > 2 else "CL.TWO.REVERSE-SKIP",
          f"after P{p}'s Reverse with {n} players: pending {pend}, expected P{want}")


def post_draw_card(kind: str, card: Card, p: int, pend: Pending, before: Snap, game: Game,
                   avail: int) -> None:
    """CL.D2.EFFECT, FL.LIGHT.D1.EFFECT, FL.DARK.D5.EFFECT: the next player draws and loses
    the turn."""
    n = before.players
    victim = step_seat(p, before.direction, 1, n)
    k, rid, _ = DRAW_CARDS[kind]
    grew = gain(before, game.state, victim)
    check(grew == min(k, avail), rid,
          f"{card} victim P{victim} grew by {grew}, expected {min(k, avail)}")
    want = step_seat(p, before.direction, 2, n)
    check(pend.player == want and (pend.player != victim or n == 1), rid,
          f"after P{p}'s {card}: pending {pend}, expected P{want}")


def post_next_player(kind: str, action: Action, p: int, pend: Pending, before: Snap) -> None:
    """Numbers, Wild, custom Wild, Flip: CL.PLAY.ONE-CARD, FL.FLIP.NEXT-PLAYER."""
    victim = step_seat(p, before.direction, 1, before.players)
    check(pend.player == victim and pend.decision == "play",
          "FL.FLIP.NEXT-PLAYER" if kind == "flip" else "CL.PLAY.ONE-CARD",
          f"after P{p}'s {action.card}: pending {pend}, expected P{victim}")
