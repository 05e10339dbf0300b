"""The Seven-O variant (V.SEVENO.*): a 7 makes its player swap hands with a chosen player, a 0
passes every hand on in the direction of play; nobody can be caught after either."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from uno_fsm.actions import Action, Pending
from uno_fsm.cards import Card, Face
from uno_fsm.oracle.base import Facts, Snap, check, has_catch

if TYPE_CHECKING:
    from uno_fsm.game import Game


def rotates(facts: Facts, f: Face, before: Snap, p: int) -> bool:
    """V.SEVENO.ZERO-ROTATE: a 0 not played as the last card rotates the hands."""
    return facts.plays("seven-o") and f.rank == "0" and len(before.hands[p]) > 1


def check_rotation(before: Snap, card: Card, p: int, game: Game) -> None:
    """V.SEVENO.ZERO-ROTATE, V.SEVENO.TWO-PLAYERS: each hand passes on in the direction of
    play (among the players in the game: DESAFIO.ELIMINATED-OUT)."""
    after = game.state
    out = before.out
    for seat in range(before.players):
        if seat in out:
            continue
        held = Counter(before.hands[seat])
        if seat == p:
            held[card] -= 1
        to = before.step(seat)
        check(Counter(after.hands[to]) == +held,
              "V.SEVENO.ZERO-ROTATE" if before.seated > 2 else "V.SEVENO.TWO-PLAYERS",
              f"P{seat}'s hand did not pass to P{to} after a 0")


def no_catch_after(legal: list[Action], what: str) -> None:
    """V.SEVENO.UNO: nobody can be caught after a swap or a rotation."""
    check(not has_catch(legal), "V.SEVENO.UNO", f"a catch is possible after a {what}")


def post_seven(p: int, pend: Pending) -> None:
    """V.SEVENO.SEVEN-PENDING: the player of a 7 owes the choice of a swap."""
    check(pend.player == p and pend.decision == "swap", "V.SEVENO.SEVEN-PENDING",
          f"after P{p}'s 7: pending {pend}, expected P{p} to choose a swap")


def post_swap(before: Snap, action: Action, game: Game, legal: list[Action]) -> None:
    """V.SEVENO.SEVEN-SWAP, V.SEVENO.CONTINUE, V.SEVENO.UNO (and the Swap Hands card's swap,
    V.SWAP.TARGET): the two hands are exchanged, the next player plays."""
    after, pend = game.state, game.pending
    p, t = before.current, action.target
    assert p is not None and t is not None
    check(Counter(after.hands[p]) == Counter(before.hands[t])
          and Counter(after.hands[t]) == Counter(before.hands[p]), "V.SEVENO.SEVEN-SWAP",
          f"P{p} and P{t} did not exchange hands")
    nxt = before.step(p)
    check(pend is not None and pend.player == nxt and pend.decision == "play",
          "V.SEVENO.CONTINUE", f"after the swap: pending {pend}, expected P{nxt}")
    no_catch_after(legal, "swap")
