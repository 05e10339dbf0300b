"""Coverage of the turn-phase machine: every `TurnPhases` edge and guard outcome taken
(from the table `Game.apply` walks, generated from uno_fsm/phases.py into
uno_fsm/phase_table.py), and those no shipped ruleset can reach (`UNREACHABLE`, with why).
The reference adapter counts the corpus's edges with the same `traced` (conformance lint)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from uno_fsm import game as game_module
from uno_fsm.dispatch import EVENTLESS, TABLE

# Phase edges and guard outcomes no shipped ruleset can reach, and why (the CI configurations
# reach every other one: tests/test_modelcheck.py)
_WINDOW = "the catch window closes at the next action (CL.UNO.WINDOW, RUL.UNO.WINDOW-END)"
UNREACHABLE: dict[str, str] = {
    "play_drawn --play_card [goes_out]--> round_over":
        "a drawn card is played from a hand of two or more (a player without cards is out)",
    "play_drawn --call_uno--> play_drawn": _WINDOW + ", and drawing is one",
    "play_drawn --catch--> play_drawn": _WINDOW + ", and drawing is one",
    "choose_color --call_uno--> choose_color":
        "the first card's colour is chosen right after a deal, when no window is open",
    "choose_color --catch--> choose_color":
        "the first card's colour is chosen right after a deal, when no window is open",
    "play_drawn --play_card [goes_out]--> round_over/goes_out=True":
        "a drawn card is played from a hand of two or more (a player without cards is out)",
}


def missing_labels(cov: Coverage) -> list[str]:
    """The edges and guard outcomes (`edge/guard=value`) `cov` has not seen."""
    edges, guards = cov.missing()
    return [*edges, *(f"{e}/{g}={v}" for e, g, v in guards)]


def edge_label(source: str, event: str, conds: Sequence[str], target: str) -> str:
    guard = f" [{' and '.join(conds)}]" if conds else ""
    return f"{source} --{event or '(auto)'}{guard}--> {target}"


def all_edges() -> list[tuple[str, tuple[str, ...]]]:
    """Every TurnPhases edge (label, its guards), from the derived table."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for events in TABLE.values():
        for edges in events.values():
            out.extend((edge_label(e.source, e.event, e.conds, e.target), e.conds)
                       for e in edges)
    for edges in EVENTLESS.values():
        out.extend((edge_label(e.source, e.event, e.conds, e.target), e.conds) for e in edges)
    return out


def _moved(raw: dict[Any, int], into: Counter[Any]) -> None:
    for key, n in raw.items():
        if n:
            into[key] += n
            raw[key] = 0  # (the key stays: the wrappers' `+=` never misses)


@dataclass
class Coverage:
    """Edges taken and guard outcomes seen (edge label, guard name, result)."""

    edges: Counter[str] = field(default_factory=Counter)
    guards: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    # what `traced` counts, in plain dicts holding every key (a Counter's `+=` costs about
    # three times a dict's, and runs for each guard and edge of every action of a model check),
    # added to `edges` and `guards` by `flush` (the end of `traced` flushes)
    raw_edges: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    raw_guards: dict[tuple[str, str, bool], int] = field(default_factory=dict, repr=False,
                                                          compare=False)

    def flush(self) -> None:
        """Add what `traced` counted since the last flush to `edges` and `guards`."""
        _moved(self.raw_edges, self.edges)
        _moved(self.raw_guards, self.guards)

    def clear(self) -> None:
        """Forget every count, those not flushed yet included."""
        self.flush()
        self.edges.clear()
        self.guards.clear()

    def merge(self, other: Coverage) -> None:
        self.edges.update(other.edges)
        self.guards.update(other.guards)

    def missing(self) -> tuple[list[str], list[tuple[str, str, bool]]]:
        edges, guards = [], []
        for label, conds in all_edges():
            if not self.edges[label]:
                edges.append(label)
            for g in conds:
                for value in (True, False):
                    if not self.guards[(label, g, value)]:
                        guards.append((label, g, value))
        return edges, guards

    def totals(self) -> dict[str, int]:
        every = all_edges()
        miss_e, miss_g = self.missing()
        n_guards = sum(2 * len(c) for _, c in every)
        return {"edges": len(every), "edges_covered": len(every) - len(miss_e),
                "guard_outcomes": n_guards, "guard_outcomes_covered": n_guards - len(miss_g)}


@contextmanager
def traced(cov: Coverage) -> Iterator[None]:
    """Wrap the dispatch table `Game.apply` walks so every guard result and every edge taken
    is counted; restored on exit. (The table may hold injected effects: it is wrapped as is.)"""
    old_table, old_eventless = game_module._TABLE, game_module._EVENTLESS

    def wrap(edges: Sequence[Any], specs: Sequence[Any]) -> tuple[Any, ...]:
        out = []
        for (guards, target, effects), e in zip(edges, specs, strict=True):
            label = edge_label(e.source, e.event, e.conds, e.target)

            def guard(g: Callable[..., bool], name: str, label: str = label
                      ) -> Callable[..., bool]:
                yes, no = (label, name, True), (label, name, False)  # (the keys made once)
                counts = cov.raw_guards  # (the same dict while traced: never replaced)
                counts.setdefault(yes, 0)
                counts.setdefault(no, 0)

                def check(r: Any, a: Any) -> bool:
                    if g(r, a):
                        counts[yes] += 1
                        return True
                    counts[no] += 1
                    return False
                return check

            def taken(r: Any, a: Any, label: str = label,
                      counts: dict[str, int] = cov.raw_edges) -> None:
                counts[label] += 1

            cov.raw_edges.setdefault(label, 0)

            out.append((tuple(guard(g, n) for g, n in zip(guards, e.conds, strict=True)),
                        target, (*effects, taken)))
        return tuple(out)

    game_module._TABLE = {p: {ev: wrap(edges, TABLE[p][ev]) for ev, edges in evs.items()}
                          for p, evs in old_table.items()}
    game_module._EVENTLESS = {p: wrap(edges, EVENTLESS[p]) for p, edges in old_eventless.items()}
    try:
        yield
    finally:
        game_module._TABLE, game_module._EVENTLESS = old_table, old_eventless
        cov.flush()

