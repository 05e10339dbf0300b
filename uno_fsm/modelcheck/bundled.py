"""The bundled configurations: the base rulesets' (`BASE_CONFIGS`) and each variant's own
(`Variant.checks`, uno_fsm/rules/<variant>.py); `CI_CONFIGS` is both, and
`uno-fsm check --ruleset R` runs the first of R without `--referee` (`BUNDLED`)."""

from __future__ import annotations

from uno_fsm.configs import DECK_2022, FLIP_DECK, TWO_COLOURS, CheckConfig
from uno_fsm.rules import VARIANTS

Config = CheckConfig

# Explored to completion (no depth bound) unless a bound is given: one card each, a target of
# 3 points (every number scores 1, so a game lasts up to three hands) where the ruleset plays
# to a target. docs/model-checking.md gives each one's states, transitions, time and memory.
BASE_CONFIGS = (
    # a Draw Two and a Wild Draw Four of either colour: CL.PLAY.MATCH, CL.WD4.*
    Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=draw2;wilds=wild,wd4",
           hand=1, target=3),
    # Skip and Reverse of both colours, one hand (CL.TWO.*)
    Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=skip,reverse;wilds=",
           hand=1, target=1),
    # CL.WD4.CHALLENGE.INNOCENT: a wrong challenger with six cards to draw (eight cards, two
    # hands of three, one in the draw pile: after four plays five are left to draw, so six
    # differs from four); bounded: five actions reach it
    Config("classic-official", 2, "colors=red,yellow;numbers=1,2,3;actions=;wilds=wd4:2",
           hand=3, target=1, depth=5),
    Config("classic-2022", 2, DECK_2022, hand=1),
    Config("classic-2022", 2, "colors=red,yellow;numbers=1,2;actions=draw2;wilds=", hand=1),
    Config("flip", 2, FLIP_DECK, hand=1, target=1),
    # FL.DARK.SE.EFFECT: three players, so that skipping everyone differs from skipping one
    Config("flip", 3, "light.colors=red,yellow;light.numbers=1;light.actions=flip;"
           "light.wilds=wd2;dark.colors=pink,teal;dark.numbers=1;dark.actions=skip_everyone;"
           "dark.wilds=wdc", hand=1, target=1),
    # FL.DARK.D5.EFFECT: a Draw Five played with five cards left to draw (eight cards, two
    # hands of three: each player plays twice, the second a Flip and a Draw Five), and the
    # light side's Draw One (FL.LIGHT.D1.EFFECT, which FLIP_DECK lacks); bounded: four actions
    # reach it, the whole space is too large for CI (docs/model-checking.md)
    Config("flip", 2, "light.colors=red,yellow;light.numbers=1:2;light.actions=flip,draw1;"
           "light.wilds=;dark.colors=pink,teal;dark.numbers=1:2,2;dark.actions=draw5;"
           "dark.wilds=", hand=3, target=1, depth=4),
    # GUIDE.FIRST.*: every first card but the Wilds stands with no effect (one hand: no target)
    Config("classic-guide", 2, TWO_COLOURS, hand=1),
    # the table penalties (`--referee`): bounded (each hint grows a hand, so the space has no
    # end); two colours, so that a card can fail to match (CL.PEN.WRONG-CARD)
    Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=skip;wilds=wild,wd4",
           hand=2, target=100, depth=3, referee=True),
)
CI_CONFIGS: tuple[Config, ...] = (*BASE_CONFIGS, *(c for v in VARIANTS for c in v.checks))
BUNDLED: dict[str, Config] = {}
for _c in CI_CONFIGS:
    if not _c.referee:
        BUNDLED.setdefault(_c.ruleset, _c)
