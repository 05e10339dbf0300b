"""The configurations a variant declares for the fuzzer and the model checker
(`Variant.fuzz`, `Variant.checks`, uno_fsm/rules/hooks.py); `uno_fsm.fuzz` and
`uno_fsm.modelcheck` run them, with their own for the base rulesets.

Plain data, low in the engine, so that a variant module declares them without importing the
fuzzer (Hypothesis) or the model checker.
"""

from __future__ import annotations

from dataclasses import dataclass

# Reduced decks (deck specs, `uno_fsm.modelcheck.parse_deck_spec`) the configurations share
ONE_COLOUR = "colors=red;numbers=1;actions=skip,reverse,draw2;wilds=wild,wd4"
FLIP_DECK = ("light.colors=red;light.numbers=1;light.actions=draw1,skip,flip;"
             "light.wilds=wild,wd2;dark.colors=pink;dark.numbers=1;"
             "dark.actions=draw5,skip_everyone,flip;dark.wilds=wild,wdc")
# classic-2022 turns first cards until a number shows (CL22.FIRST.IGNORE): more numbers than
# the hands hold, so one is always left to turn (a real deck always has one)
DECK_2022 = "colors=red;numbers=1,2,3;actions=reverse,draw2;wilds=wd4"


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
