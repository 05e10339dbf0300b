"""Variant playing for points (`play-for-points`): the 2022 rules' and the guide's points
version, rounds to 500 (CL22.SCORE.FOR-POINTS, GUIDE.END.POINTS-VERSION).

Its one parameter is the base's own `scoring.target` (500 instead of none), which the shared
scoring reads (CL.SCORE.TARGET, uno_fsm/rules/scoring.py): no hook, nothing to enable; the
variant is its ruleset file, its fuzzing and its model-check configuration.
"""

from __future__ import annotations

from uno_fsm.configs import DECK_2022, CheckConfig, FuzzConfig
from uno_fsm.rules.hooks import Variant


class PlayForPoints(Variant):
    name = "play-for-points"
    fuzz = (FuzzConfig("classic-2022+play-for-points"),)
    checks = (CheckConfig("classic-2022+play-for-points", 2, DECK_2022, hand=1, target=3),)
    __slots__ = ()
