"""The bundled configurations: the base rulesets' (`BASE_CONFIGS`) and each variant's own
(`Variant.checks`, uno_fsm/rules/<variant>.py); `CI_CONFIGS` is both, and
`uno-fsm check --ruleset R` runs the first of R without `--referee` (`BUNDLED`)."""

from __future__ import annotations

from uno_fsm.configs import DECK_2022, FLIP_DECK, ONE_COLOUR, CheckConfig
from uno_fsm.rules import VARIANTS

Config = CheckConfig

BASE_CONFIGS = (
    Config("classic-official", 2, ONE_COLOUR, hand=2, target=100, depth=5),
    Config("classic-2022", 2, DECK_2022, hand=1, depth=5),
    Config("flip", 2, FLIP_DECK, hand=2, target=100, depth=4),
    # GUIDE.FIRST.*: every first card but the Wilds stands with no effect (one hand: no target)
    Config("classic-guide", 2, ONE_COLOUR, hand=1, depth=5),
    # the table penalties (`--referee`), a shallower bound (each hint grows a hand); two
    # colours, so that a card can fail to match (CL.PEN.WRONG-CARD)
    Config("classic-official", 2, "colors=red,yellow;numbers=1;actions=skip;wilds=wild,wd4",
           hand=2, target=100, depth=3, referee=True),
)
CI_CONFIGS: tuple[Config, ...] = (*BASE_CONFIGS, *(c for v in VARIANTS for c in v.checks))
BUNDLED: dict[str, Config] = {}
for _c in CI_CONFIGS:
    if not _c.referee:
        BUNDLED.setdefault(_c.ruleset, _c)
