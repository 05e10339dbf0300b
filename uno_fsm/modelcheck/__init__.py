"""Model checking of the reference engine: `uno-fsm check` (docs/model-checking.md).

Every distinct deal of a reduced deck, then every state the engine reaches from them, breadth
first, through every action `legal_actions()` lists (every colour, UNO call, catch,
challenge, accept, swap, next round), checking in every state and transition the fuzzer's
invariants and postconditions (one copy: `uno_fsm.invariants`, `uno_fsm.oracle`), that
illegal candidates are refused with the state unchanged, and over the graph that a round end
is reachable from every state and that no forced moves cycle. It runs the engine itself, not a
second model of the rules.

- `deals`: reduced decks (parameters of the ruleset's own deck) and their deals;
- `encoding`: the compact canonical state, symmetry (colours, seats), fingerprints and the
  resolution of shuffles;
- `expand`: a chunk of states expanded and checked (what every worker runs);
- `search`: the visited set, the breadth-first levels, the graph properties, the
  counterexamples replayed as scenarios;
- `executors`: in process, local worker processes, or a Dask cluster;
- `run`: `explore`, a configuration checked by a search on an executor;
- `coverage`: the turn-phase machine's edges and guard outcomes reached;
- `bundled`: the configurations CI runs; `cli`: the command.
"""

from __future__ import annotations

from typing import Any

from uno_fsm.modelcheck.bundled import BASE_CONFIGS, BUNDLED, CI_CONFIGS, Config
from uno_fsm.modelcheck.coverage import (
    UNREACHABLE,
    Coverage,
    all_edges,
    edge_label,
    missing_labels,
    traced,
)
from uno_fsm.modelcheck.deals import (
    ConfigError,
    count_deals,
    deal_game,
    deals,
    parse_deck_spec,
    reduced_params,
)
from uno_fsm.modelcheck.run import explore
from uno_fsm.modelcheck.search import Interrupted, Result, Search, Violation

__all__ = ["BASE_CONFIGS", "BUNDLED", "CI_CONFIGS", "UNREACHABLE", "Config", "ConfigError",
           "Coverage", "Interrupted", "Result", "Search", "Violation", "all_edges",
           "count_deals", "deal_game", "deals", "edge_label", "explore", "missing_labels",
           "parse_deck_spec", "reduced_params", "register", "traced"]


def register(sub: Any) -> None:
    """Add `uno-fsm check` (uno_fsm/modelcheck/cli.py)."""
    from uno_fsm.modelcheck.cli import register as add

    add(sub)
