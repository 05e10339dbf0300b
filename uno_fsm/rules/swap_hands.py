"""Variant Swap Hands card (`swap-hands`): one Wild Swap Hands in the deck.

Rules: V.SWAP.*. The card is built into the deck from the ruleset's `deck.wilds`
(V.SWAP.CARD, uno_fsm/deck.py) and scored from `scoring.points.wild_swap_hands`
(V.SWAP.POINTS); it is a Wild for matching (V.SWAP.WILD: the shared Wild code of turn.py);
turned first it is a special Wild (V.SWAP.FIRST-CARD, dealing.py); played, it opens Seven-O's
`swap` decision (seven_o.py) with its own rule IDs.
"""

from __future__ import annotations

from uno_fsm.cards import Face
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import SwapRules, Variant

SWAP_CARD = "wild_swap_hands"  # V.SWAP.CARD
# V.SWAP.EFFECT, V.SWAP.TARGET: whole hands swapped with another seat, chosen by its player
CARD_SWAP = SwapRules("V.SWAP.EFFECT", "V.SWAP.TARGET", "V.SWAP.TARGET")


class SwapHands(Variant):
    """V.SWAP.EFFECT: after the play, its player owes the `swap` decision (V.SWAP.LAST-CARD,
    RUL.VARIANTS.SWAP-ON-LAST-CARD: not when it is the last card: `goes_out` is tried first).
    V.SWAP.BASES: the card is only in the decks of classic compositions."""

    name = "swap-hands"
    fuzz = (FuzzConfig("classic-official+swap-hands"), FuzzConfig("classic-2022+swap-hands"))
    checks = (CheckConfig("classic-official+swap-hands", 2,
                          "colors=red,yellow;numbers=1;actions=skip;wilds=wild_swap_hands",
                          hand=1, target=3),)
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return bool(p.get(f"deck.wilds.{SWAP_CARD}", 0))  # V.SWAP.CARD

    def swap_rules(self, face: Face) -> SwapRules | None:
        return CARD_SWAP if face.kind == SWAP_CARD else None
