"""Variant 2018 deck (`cards-2018`): one Wild Shuffle Hands and three customizable Wilds.

Rules: CL18.* (an edition of the official rules, wiki-br "changes"): the cards are built into
the deck from the ruleset's `deck.wilds` (CL18.DECK, uno_fsm/deck.py), played by the shared
effects (CL18.WSH.*, CL18.CUSTOM.PLAIN: uno_fsm/rules/action_cards.py), scored from
`scoring.points` (CL18.SCORE) and turned first by the `first_card.special_wild` policy
(CL18.FIRST-CARD, dealing.py). No hook: the variant is its parameters, its fuzzing, its
model-check configuration and its postconditions (`Cards2018Oracle`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Face
from uno_fsm.checks import Oracle, Snap, check, face_on
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant

if TYPE_CHECKING:
    from uno_fsm.game import Game

SHUFFLE = "wild_shuffle_hands"  # CL18.WSH.*
CUSTOM = "custom_wild"  # CL18.CUSTOM.*


class Cards2018Oracle(Oracle):
    """CL18.*, read from the rule texts: one Wild Shuffle Hands and three customizable Wilds in
    the deck, their points, the first card; the Wild Shuffle Hands collects every hand,
    shuffles and deals them out evenly from the next player."""

    def deck(self, facts: Any, deck: Counter[str]) -> None:
        deck["WSH"] += 1  # CL18.DECK: one Shuffle Hands, three custom Wilds
        deck["WC"] += 3

    def points(self, facts: Any, face: Face) -> int | None:
        """CL18.SCORE: 40 (50 in 2022: CL22.SCORE.*)."""
        if face.kind in (SHUFFLE, CUSTOM):
            return 50 if facts.base == "classic-2022" else 40
        return None

    def first_card(self, kind: str) -> str | None:
        return "special_wild" if kind in (SHUFFLE, CUSTOM) else None  # CL18.FIRST-CARD

    def moves_hands(self, facts: Any, before: Snap, action: Any) -> bool:
        return bool(face_on(action.card, before.side).kind == SHUFFLE)  # CL18.WSH.COLLECT

    def post_effect(self, facts: Any, before: Snap, action: Any, game: Game,
                    pend: Any) -> bool:
        """CL18.WSH.COLLECT, CL18.WSH.DEAL, CL18.WSH.NEXT (among the players in the game:
        DESAFIO.ELIMINATED-OUT): every card of every hand dealt out again, evenly, and the
        next player plays."""
        if face_on(action.card, before.side).kind != SHUFFLE:
            return False
        after = game.state
        total_before = sum(len(h) for h in before.hands) - 1
        out = before.out
        sizes = [len(h) for s, h in enumerate(after.hands) if s not in out]
        check(sum(sizes) == total_before and max(sizes) - min(sizes) <= 1, "CL18.WSH.DEAL",
              f"hands after Wild Shuffle Hands: {sizes}")
        assert before.current is not None
        victim = before.step(before.current)
        check(pend.player == victim, "CL18.WSH.NEXT", f"pending {pend}, expected P{victim}")
        return True


class Cards2018(Variant):
    name = "cards-2018"
    fuzz = (FuzzConfig("classic-official+cards-2018"), FuzzConfig("classic-2022+cards-2018"))
    checks = (CheckConfig("classic-official+cards-2018", 2,
                          "colors=red;numbers=1;actions=skip;"
                          "wilds=wild,wd4,wild_shuffle_hands,custom_wild",
                          hand=2, target=100, depth=4),)
    oracle = Cards2018Oracle
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        """CL18.DECK: the deck holds the 2018 Wilds."""
        return bool(p.get(f"deck.wilds.{SHUFFLE}", 0) or p.get(f"deck.wilds.{CUSTOM}", 0))
