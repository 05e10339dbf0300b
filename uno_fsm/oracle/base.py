"""What every rule area of the oracle shares (docs/fuzzing.md "Layout").

- `Facts`: what the oracle reads of a composed ruleset: its numbers from the ruleset's `params`
  (spec/rulesets), never from the spelling of its name, and the variants it plays
  (`uno_fsm.rules.VARIANTS`, each `enabled` by its own parameters) with their postconditions;
- `Snap`: the position before an action (a structural copy of the state);
- `check`: a check naming its rule ID, counted in `STATS`;
- the small, independent reading of the rule texts every area needs (seats, matching, faces).

Nothing here calls the engine's rule helpers (`uno_fsm.rules`): the oracle is a second,
independent reading of the rules, checked against the engine through its public API.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from uno_fsm.checks import (  # noqa: F401 - shared by the oracle's modules
    STATS,
    FuzzFailure,
    Oracle,
    Snap,
    Stats,
    available,
    check,
    face_on,
    gain,
    grown,
    has_catch,
    playable,
    step_seat,
    tally,
)
from uno_fsm.params import (
    _get,  # the one reader of a dotted ruleset parameter
    from_mapping,
)
from uno_fsm.rules import VARIANTS

CLASSIC_COLORS = ("R", "Y", "G", "B")  # CL.DECK.COLOURS, FL light side
DARK_COLORS = ("P", "T", "O", "V")  # FL.DECK.* dark side


# ---- the ruleset -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Facts:
    """What the oracle needs to know of a composed ruleset, read from its `params` (the
    variants composed in change the params, so a variant is seen whatever the name says)."""

    name: str
    base: str  # the composed ruleset's base: classic-official | classic-2022 | classic-guide | flip
    flip: bool  # game: flip (FL.*)
    hand: int  # hand_size (CL.DEAL.SEVEN)
    target: int | None  # scoring.target; None: one hand (CL22.SCORE.ONE-HAND)
    first_card: Mapping[str, str]  # card kind -> first-card policy (CL.FIRST.*, CL22.FIRST.*)
    min_players: int
    max_players: int
    even_players: bool  # players.even (PARTNERS.EVEN)
    draw: int = 1  # draw.count: the cards a player who draws takes (CL.DRAW.UNABLE)
    light_scoring: bool = False  # scoring.side: light (FL.SCORE.LIGHT-SIDE)
    wild_must_change: bool = False  # wild.must_change_color (CL.WILD.MUST-CHANGE)
    # the variants the ruleset plays (uno_fsm.rules.VARIANTS whose `enabled` reads true from
    # its params) and their postconditions (`Variant.oracle`)
    variants: frozenset[str] = frozenset()
    oracles: tuple[Oracle, ...] = ()
    # the State fields of the variants it does not play, each with the rule a set one breaks
    # (`Oracle.own_state`)
    idle_state: tuple[tuple[str, str], ...] = ()

    def plays(self, variant: str) -> bool:
        """Whether the ruleset plays `variant` (a variant id of spec/rulesets)."""
        return variant in self.variants

    @staticmethod
    def of(ruleset: str, params: Mapping[str, Any] | None = None) -> Facts:
        """The facts of `ruleset` (a composed name); `params` replaces its parameters (the
        model checker's reduced games: a smaller deck, hand and target)."""
        if params is None:
            return _facts(ruleset)
        return _from_params(ruleset, _base(ruleset), params)

    def players_ok(self, n: int) -> bool:
        """CL.DECK.PLAYERS, PARTNERS.EVEN: a table this ruleset is played at."""
        return self.min_players <= n <= self.max_players and not (self.even_players and n % 2)

    def seat_counts(self, lo: int, hi: int) -> list[int]:
        """The player counts in lo..hi this ruleset is played with."""
        return [n for n in range(lo, hi + 1) if self.players_ok(n)]


@functools.lru_cache(maxsize=64)
def _base(ruleset: str) -> str:
    from uno_spec.rulesets import load_ruleset

    return load_ruleset(ruleset).base


@functools.lru_cache(maxsize=64)
def _facts(ruleset: str) -> Facts:
    from uno_spec.rulesets import load_ruleset

    rs = load_ruleset(ruleset)
    return _from_params(ruleset, rs.base, rs.params)


def _from_params(name: str, base: str, p: Mapping[str, Any]) -> Facts:
    target = _get(p, "scoring.target")
    params = from_mapping(name, p)
    played = [v for v in VARIANTS if v.enabled(params)]
    return Facts(
        name=name, base=base, flip=_get(p, "game", "classic") == "flip",
        hand=int(_get(p, "hand_size", 7)), target=None if target is None else int(target),
        first_card=dict(_get(p, "first_card") or {}),
        min_players=int(_get(p, "players.min", 2)), max_players=int(_get(p, "players.max", 10)),
        even_players=bool(_get(p, "players.even", False)),
        draw=int(_get(p, "draw.count", 1)),
        light_scoring=_get(p, "scoring.side", "active") == "light",
        wild_must_change=bool(_get(p, "wild.must_change_color", False)),
        variants=frozenset(v.name for v in played),
        oracles=tuple(v.oracle() for v in played if v.oracle is not Oracle),
        idle_state=tuple(item for v in VARIANTS if v not in played
                         for item in v.oracle.own_state.items()),
    )
