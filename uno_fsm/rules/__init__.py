"""The rules: validation, guards and effects over one `State`, one module per rule area.

`Rules` is the model of the turn-phase machine (uno_fsm.phases.TurnPhases): each `cond` of the
machine names a guard method and each `on` names an effect method, found on `Rules` through
the mixins below. Every rule is coded once, next to a comment naming its rule ID
(spec/rules/*.yaml); docs/engine.md ("Rules by area") maps each rule-ID prefix to its module.
Validation (`validate`) runs before any effect and raises an `IllegalAction` without touching
the state. Guards and effects take `(self, action)`; eventless transitions pass `action=None`.

Variants (house rules and the editions composed as `base+variant`) are `Variant`s
(uno_fsm/rules/hooks.py), each in a module of its own, listed in `VARIANTS`: the shared flow
calls their named hooks; a variant's machine guards and effects (if it has any) are a mixin
among the bases of `Rules`.

CL.PLAY.NO-TRADE: no effect of the base rules moves a card from one hand to another (only the
variant swaps, V.SEVENO.* and V.SWAP.*, and the 2018 Wild Shuffle Hands, CL18.WSH.*, do).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from uno_fsm.actions import Action
from uno_fsm.params import BASE_METHOD, Params
from uno_fsm.rules import action_cards, flip, wild_draw
from uno_fsm.rules.action_cards import ActionCardRules
from uno_fsm.rules.cards_2018 import Cards2018
from uno_fsm.rules.dealing import DealingRules, dealer_value
from uno_fsm.rules.desafio import Desafio
from uno_fsm.rules.draw_until_playable import DrawUntilPlayable
from uno_fsm.rules.flip import FlipRules
from uno_fsm.rules.flip_alt import FlipAltScoring
from uno_fsm.rules.flip_light_scoring import FlipLightScoring
from uno_fsm.rules.hooks import SwapRules, Variant
from uno_fsm.rules.jump_in import JumpIn, JumpInRules
from uno_fsm.rules.no_action_finish import NoActionFinish
from uno_fsm.rules.partners import Partners
from uno_fsm.rules.play_for_points import PlayForPoints
from uno_fsm.rules.scoring import ScoringRules
from uno_fsm.rules.seven_o import SevenO
from uno_fsm.rules.stacking import Stacking, StackingRules
from uno_fsm.rules.swap import SwapDecisionRules
from uno_fsm.rules.swap_hands import SwapHands
from uno_fsm.rules.turn import TurnRules
from uno_fsm.rules.uno_call import UnoCallRules
from uno_fsm.rules.wild_draw import WildDrawRules
from uno_fsm.state import State

# The variants (spec/rulesets/, `kind: variant`), in the order their hooks are called: the one
# list (a new variant: its module, and one line here). The engine, the oracle, the fuzzer and
# the model checker iterate it; tests/test_variants_registry.py checks it against spec/.
VARIANTS: tuple[type[Variant], ...] = (Stacking, JumpIn, SevenO, SwapHands, Partners,
                                       FlipAltScoring, Desafio, Cards2018, PlayForPoints,
                                       FlipLightScoring, DrawUntilPlayable, NoActionFinish)


# the scoring methods the engine plays: the base rules' and the variants' (a ruleset asking for
# another is refused rather than played wrongly)
SCORING_METHODS: tuple[str, ...] = (BASE_METHOD, *(v.scoring_method for v in VARIANTS
                                                   if v.scoring_method))


def check_params(p: Params) -> Params:
    """`p`, if the engine plays its scoring method (`SCORING_METHODS`) and every variant it
    enables with a game that variant applies to (its bases' `game`, spec/rulesets: stacking
    is classic only, so a Flip ruleset's `stacking.enabled` is refused here, not met later as
    a missing Draw Two), else ValueError."""
    if p.method not in SCORING_METHODS:
        raise ValueError(f"{p.ruleset}: the engine does not play the scoring method "
                         f"{p.method!r} (it plays {', '.join(SCORING_METHODS)})")
    for variant in VARIANTS:
        games = variant_games(variant.name)
        if games and p.game not in games and variant.enabled(p):
            raise ValueError(f"{p.ruleset}: the variant {variant.name!r} is played with "
                             f"{' or '.join(sorted(games))} cards, not {p.game!r}")
    return p


@functools.cache
def variant_games(name: str) -> frozenset[str]:
    """The games (`classic`, `flip`) of the bases a variant applies to (spec/rulesets/)."""
    from uno_spec.rulesets import ruleset_files

    files = ruleset_files()
    own = files.get(name)
    if own is None:
        return frozenset()
    return frozenset(str(files[b].params.get("game", "classic")) for b in own.applies_to
                     if b in files)


class Rules(TurnRules, ActionCardRules, WildDrawRules, UnoCallRules, DealingRules,
            ScoringRules, FlipRules, SwapDecisionRules, StackingRules, JumpInRules):
    """Validators, guards and effects; the model object of TurnPhases."""

    def __init__(self, state: State, params: Params,
                 allowed: dict[str, dict[str, object]]) -> None:
        self.init_core(state, check_params(params), allowed)

    def idle_guards(self) -> frozenset[str]:
        """The machine's guards that cannot hold in this game whatever is played (`Game`
        leaves the edges they guard out of the table it walks): `needs_swap` without a
        variant's `swap_rules` hook (swap.py reads only those), `stack_pending` without
        stacking (only V.STACK.* sets `State.stack`, and a set-up or saved game of another
        ruleset cannot hold one), `challengeable` when the ruleset allows no challenge
        (CL.WD4.CHALLENGE.DECISION: `challenge_kinds` empty)."""
        idle = []
        if not self.hooks.swap_rules:
            idle.append("needs_swap")
        if self.variant(Stacking.name) is None:
            idle.append("stack_pending")
        if not self.challenge_kinds:
            idle.append("challengeable")
        return frozenset(idle)

    VARIANTS = VARIANTS
    # card kind -> the method of its effect (`play_effect`); variants replace entries
    CARD_EFFECTS = {**action_cards.EFFECTS, **wild_draw.EFFECTS, **flip.EFFECTS}


Guard = Callable[[Rules, Action | None], bool]
Effect = Callable[[Rules, Action | None], None]

__all__ = ["SCORING_METHODS", "VARIANTS", "Effect", "Guard", "Rules", "SwapRules", "Variant",
           "check_params", "dealer_value"]
