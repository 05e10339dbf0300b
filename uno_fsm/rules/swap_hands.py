"""Variant Swap Hands card (`swap-hands`): one Wild Swap Hands in the deck.

Rules: V.SWAP.*. The card is built into the deck from the ruleset's `deck.wilds`
(V.SWAP.CARD, uno_fsm/deck.py) and scored from `scoring.points.wild_swap_hands`
(V.SWAP.POINTS); it is a Wild for matching (V.SWAP.WILD: the shared Wild code of turn.py);
turned first it is a special Wild (V.SWAP.FIRST-CARD, dealing.py); played, it opens the
machine's `swap` decision (rules/swap.py) with its own rule IDs. `SwapHandsOracle` is its
postconditions.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Face
from uno_fsm.checks import Oracle, Snap, check, face_on, post_swap
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import SwapRules, Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

SWAP_CARD = "wild_swap_hands"  # V.SWAP.CARD
# V.SWAP.EFFECT, V.SWAP.TARGET: whole hands swapped with another seat, chosen by its player
CARD_SWAP = SwapRules("V.SWAP.EFFECT", "V.SWAP.TARGET", "V.SWAP.TARGET")


class SwapHandsOracle(Oracle):
    """V.SWAP.*, read from the rule texts: one Wild Swap Hands in the deck, scored 50, turned
    first as a special Wild; played, its player names a colour and owes the choice of a player
    to swap hands with."""

    def deck(self, facts: Any, deck: Counter[str]) -> None:
        deck["WSW"] += 1  # V.SWAP.CARD (RUL.SWAP.CARD): one Swap Hands Wild

    def points(self, facts: Any, face: Face) -> int | None:
        return 50 if face.kind == SWAP_CARD else None  # V.SWAP.POINTS: 50 in both bases

    def first_card(self, kind: str) -> str | None:
        # V.SWAP.FIRST-CARD (RUL.SWAP.FIRST-CARD): turned first as the base's special Wilds
        return "special_wild" if kind == SWAP_CARD else None

    def post_effect(self, facts: Any, before: Snap, action: Any, game: Game,
                    pend: Any) -> bool:
        """V.SWAP.WILD, V.SWAP.TARGET: the colour named, the swap owed by the card's player."""
        if face_on(action.card, before.side).kind != SWAP_CARD:
            return False
        p = before.current
        check(pend.player == p and pend.decision == "swap", "V.SWAP.TARGET",
              f"after P{p}'s Swap Hands: pending {pend}, expected P{p} to choose a swap")
        after = game.state
        check(after.active_color == action.color, "V.SWAP.WILD",
              f"active colour {after.active_color}, named {action.color}")
        return True

    def post_action(self, facts: Any, before: Snap, action: Any, game: Game,
                    legal: list[Any]) -> bool:
        """V.SWAP.EFFECT, V.SWAP.NEXT: the swap the card opened, the two whole hands exchanged,
        the next player plays; V.SEVENO.UNO: nobody can be caught after a swap."""
        top = before.top()
        if action.kind != "swap" or top is None or top.kind != SWAP_CARD:
            return False
        post_swap(before, action, game, legal, "V.SWAP.EFFECT", "V.SWAP.NEXT", "V.SEVENO.UNO")
        return True


class SwapHands(Variant):
    """V.SWAP.EFFECT: after the play, its player owes the `swap` decision (V.SWAP.LAST-CARD,
    RUL.VARIANTS.SWAP-ON-LAST-CARD: not when it is the last card: `goes_out` is tried first).
    V.SWAP.BASES: the card is only in the decks of classic compositions."""

    name = "swap-hands"
    fuzz = (FuzzConfig("classic-official+swap-hands"), FuzzConfig("classic-2022+swap-hands"))
    checks = (CheckConfig("classic-official+swap-hands", 2,
                          "colors=red;numbers=1;actions=skip,reverse;wilds=wild,"
                          "wild_swap_hands", hand=2, target=100, depth=4),)
    oracle = SwapHandsOracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get(f"deck.wilds.{SWAP_CARD}", 0))  # V.SWAP.CARD

    @staticmethod
    def swap_rules(face: Face) -> SwapRules | None:
        return CARD_SWAP if face.kind == SWAP_CARD else None
