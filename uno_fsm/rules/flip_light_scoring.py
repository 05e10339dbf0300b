"""Variant Flip scored on the light side (`flip-light-scoring`, flip-it's reading:
`scoring.side: light`, RUL.FLIP.SCORING-SIDE).

Its parameter is Flip's own `scoring.side` (FL.SCORE.SIDE, FL.SCORE.LIGHT-SIDE), read by the
shared scoring (`Params.light_scoring`, uno_fsm/rules/scoring.py): no hook; the variant is its
ruleset file, its fuzzing and its model-check configuration.
"""

from __future__ import annotations

from uno_fsm.configs import FLIP_DECK, CheckConfig, FuzzConfig
from uno_fsm.params import Params
from uno_fsm.rules.hooks import Variant


class FlipLightScoring(Variant):
    name = "flip-light-scoring"
    fuzz = (FuzzConfig("flip+flip-light-scoring"),)
    checks = (CheckConfig("flip+flip-light-scoring", 2, FLIP_DECK, hand=1, target=3),)
    __slots__ = ()

    @staticmethod
    def enabled(p: Params) -> bool:
        return p.light_scoring
