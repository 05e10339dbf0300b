"""Variant Seven-O (`seven-o`): a 7 swaps hands with a chosen player, a 0 rotates every hand.

Rules: V.SEVENO.*. A 7 opens the machine's `swap` decision (rules/swap.py) through the hook
`swap_rules`, which names the rules the swap cites; a 0 is a card effect of its own
(`card_effects`). `SevenOOracle` is its postconditions.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, Face
from uno_fsm.checks import Oracle, Snap, check, face_on, no_catch_after, post_swap
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import CardEffect, SwapRules, Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

# the reduced deck of its model-check configurations: a 0, a 7 and a plain number
SEVENS = "colors=red,yellow;numbers=0,7;actions=skip;wilds="
# V.SEVENO.SEVEN-SWAP, V.SEVENO.SEVEN-PENDING, V.SEVENO.SEVEN-TARGET
SEVEN_SWAP = SwapRules("V.SEVENO.SEVEN-SWAP", "V.SEVENO.SEVEN-PENDING", "V.SEVENO.SEVEN-TARGET")


class SevenOOracle(Oracle):
    """V.SEVENO.*, read from the rule texts: a 7 makes its player exchange hands with a chosen
    player, a 0 passes every hand on in the direction of play; nobody can be caught after
    either (never calling the hooks)."""

    @staticmethod
    def rotates(before: Snap, action: Any) -> bool:
        """V.SEVENO.ZERO-ROTATE: a 0 not played as the last card (V.SEVENO.LAST-CARD) rotates
        the hands."""
        p = action.player
        return face_on(action.card, before.side).rank == "0" and len(before.hands[p]) > 1

    def moves_hands(self, facts: Any, before: Snap, action: Any) -> bool:
        return self.rotates(before, action)

    def post_play(self, facts: Any, before: Snap, action: Any, game: Game,
                  legal: list[Any]) -> None:
        """V.SEVENO.ZERO-ROTATE, V.SEVENO.TWO-PLAYERS: after a 0 each hand passed on in the
        direction of play (among the players in the game: DESAFIO.ELIMINATED-OUT), the 0 out
        of its player's; V.SEVENO.UNO: nobody can be caught after it."""
        if not self.rotates(before, action):
            return
        after = game.state
        p, card = action.player, action.card
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
        no_catch_after(legal, "rotation", "V.SEVENO.UNO")

    def post_effect(self, facts: Any, before: Snap, action: Any, game: Game,
                    pend: Any) -> bool:
        """V.SEVENO.SEVEN-PENDING: the player of a 7 owes the choice of a swap."""
        if face_on(action.card, before.side).rank != "7":
            return False
        p = before.current
        check(pend.player == p and pend.decision == "swap", "V.SEVENO.SEVEN-PENDING",
              f"after P{p}'s 7: pending {pend}, expected P{p} to choose a swap")
        return True

    def post_action(self, facts: Any, before: Snap, action: Any, game: Game,
                    legal: list[Any]) -> bool:
        """V.SEVENO.SEVEN-SWAP, V.SEVENO.CONTINUE, V.SEVENO.UNO: the swap a 7 opened, the two
        hands exchanged, the next player plays, nobody can be caught."""
        top = before.top()
        if action.kind != "swap" or top is None or top.rank != "7":
            return False
        post_swap(before, action, game, legal, "V.SEVENO.SEVEN-SWAP", "V.SEVENO.CONTINUE",
                  "V.SEVENO.UNO")
        return True


class SevenO(Variant):
    """V.SEVENO.*: a 7 opens the swap decision; a 0 rotates the hands."""

    name = "seven-o"
    fuzz = (FuzzConfig("classic-official+seven-o"), FuzzConfig("classic-2022+seven-o"))
    checks = (
        # three players: a 0 passes the hands in the direction of play (V.SEVENO.ZERO-ROTATE),
        # which two players cannot tell from a swap
        CheckConfig("classic-official+seven-o", 3, SEVENS, hand=1, target=3),
        # two players: a 0 swaps the two hands (V.SEVENO.TWO-PLAYERS), a case of its own
        CheckConfig("classic-official+seven-o", 2, SEVENS, hand=1, target=3),
        # the table penalties (`--referee`): bounded (each hint grows a hand)
        CheckConfig("classic-official+seven-o", 2, SEVENS, hand=1, target=3, depth=3,
                    referee=True),
    )
    oracle = SevenOOracle
    bench = True  # `uno-fsm bench`, variants/4
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        # V.SEVENO.BASES: only set by classic compositions
        return bool(p.get("seven_o.enabled", False))

    @staticmethod
    def swap_rules(face: Face) -> SwapRules | None:
        return SEVEN_SWAP if face.rank == "7" else None  # V.SEVENO.SEVEN-SWAP

    def card_effects(self) -> dict[str, CardEffect]:
        return {"number": self.number}

    def number(self, actor: int, f: Face, a: Action) -> bool:
        """V.SEVENO.ZERO-ROTATE: a 0 passes every hand to the next player in the direction of
        play (V.SEVENO.TWO-PLAYERS: with two, the hands swap); V.SEVENO.UNO: a rotated
        one-card hand owes no call (no UNO window)."""
        r = self.r
        if f.rank != "0":
            return r.number_effect(actor, f, a)
        st = r.st
        st.current = r.seat(actor)
        n = st.players
        old = st.hands
        new: list[list[Card]] = [[] for _ in range(n)]
        for seat in r.seats():  # DESAFIO.ELIMINATED-OUT: the seats in play only
            new[r.seat(seat)] = old[seat]
        st.hands = new
        r.events.append(Event("hands-rotated", rule="V.SEVENO.ZERO-ROTATE"))
        return False
