"""Variant 2018 deck (`cards-2018`): one Wild Shuffle Hands and three customizable Wilds.

Rules: CL18.* (an edition of the official rules, wiki-br "changes"): the cards are built into
the deck from the ruleset's `deck.wilds` (CL18.DECK, uno_fsm/deck.py), played by the shared
effects (CL18.WSH.*, CL18.CUSTOM.PLAIN: uno_fsm/rules/action_cards.py), scored from
`scoring.points` (CL18.SCORE) and turned first by the `first_card.special_wild` policy
(CL18.FIRST-CARD, dealing.py). No hook: the variant is its parameters, its fuzzing and its
model-check configuration.
"""

from __future__ import annotations

from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant


class Cards2018(Variant):
    name = "cards-2018"
    fuzz = (FuzzConfig("classic-official+cards-2018"), FuzzConfig("classic-2022+cards-2018"))
    checks = (CheckConfig("classic-official+cards-2018", 2,
                          "colors=red,yellow;numbers=1;actions=;"
                          "wilds=wild_shuffle_hands,custom_wild", hand=1, target=3),)
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        """CL18.DECK: the deck holds the 2018 Wilds."""
        return bool(p.get("deck.wilds.wild_shuffle_hands", 0) or p.get("deck.wilds.custom_wild", 0))
