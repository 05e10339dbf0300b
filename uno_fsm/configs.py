"""The configurations a variant declares for the fuzzer and the model checker
(`Variant.fuzz`, `Variant.checks`, uno_fsm/rules/hooks.py); `uno_fsm.fuzz` and
`uno_fsm.modelcheck` run them, with their own for the base rulesets.

Plain data, low in the engine, so that a variant module declares them without importing the
fuzzer (Hypothesis) or the model checker.
"""

from __future__ import annotations

from dataclasses import dataclass

# Reduced decks (deck specs, `uno_fsm.modelcheck.parse_deck_spec`) the configurations share.
# Each has two colours, so that a card can fail to match by colour while matching by number or
# symbol (CL.PLAY.MATCH), and is small enough to be explored to completion (`depth` None,
# docs/model-checking.md): a deck spec with an empty key (`wilds=`) has none of that kind.
TWO_COLOURS = "colors=red,yellow;numbers=1;actions=skip;wilds=wild"
# Flip: two colours a side, a Flip card on each light colour (FL.FLIP.*), the Wild Draw Two and
# the dark side's Draw Five and Wild Draw Colour
FLIP_DECK = ("light.colors=red,yellow;light.numbers=1;light.actions=flip;light.wilds=wd2;"
             "dark.colors=pink,teal;dark.numbers=1;dark.actions=draw5;dark.wilds=wdc")
# classic-2022 turns first cards until a number shows (CL22.FIRST.IGNORE): more numbers than
# the hands hold, so one is always left to turn (a real deck always has one)
DECK_2022 = "colors=red,yellow;numbers=1,2;actions=;wilds=wd4"


@dataclass(frozen=True)
class FuzzConfig:
    """A composed ruleset the stateful fuzzer plays (`uno-fsm fuzz`, tests/test_fuzz_*)."""

    ruleset: str


@dataclass(frozen=True)
class CheckConfig:
    """One bounded model-checking configuration (`uno-fsm check`, docs/model-checking.md): a
    ruleset with a reduced deck, hand size and target score."""

    ruleset: str
    players: int
    deck: str  # a deck spec (`uno_fsm.modelcheck.parse_deck_spec`)
    hand: int = 2
    target: int | None = 10  # None: the ruleset's own target
    depth: int | None = None  # None: unbounded
    max_states: int = 200_000
    seed: int = 0  # the RNG of every shuffle after the deal
    illegal: int = 2  # illegal candidates tried per state
    referee: bool = False  # also the table penalties (hints, wrong cards): never listed
    symmetry: bool = True  # states merged under colour and seat symmetry (uno_fsm.modelcheck)
