"""The dispatch table the engine runs on: the edges of `uno_fsm.phases.TurnPhases` as plain data.

`uno_fsm/phase_table.py` holds the machine's edges in document order, written out by
`uno-fsm diagram --table --write uno_fsm/phase_table.py` from the machine class
(`uno_fsm.phases.machine_edges`); this module groups them by phase and event. So the hot path
and the start-up of `uno-fsm conformance serve` never import python-statemachine (about 30 ms
with its asyncio), and `TurnPhases` stays the single definition: tests/test_engine_machine.py
fails while the checked-in edges differ from a fresh reading of the machine, and plays random
games through both the table (`Game.apply`) and the library (`Game.apply_via_machine`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from uno_fsm.phase_table import EDGES, INITIAL, PHASES

# One edge as the generated module writes it: (source, event, conds, target, effects, internal)
EdgeRow = tuple[str, str, tuple[str, ...], str, tuple[str, ...], bool]
Table = dict[str, dict[str, tuple["Edge", ...]]]
Eventless = dict[str, tuple["Edge", ...]]


@dataclass(frozen=True, slots=True)
class Edge:
    """One transition of the machine, as plain data."""

    source: str
    event: str  # "" for an eventless transition
    conds: tuple[str, ...]  # guard method names; all must hold
    target: str
    effects: tuple[str, ...]  # effect method names, in order
    internal: bool


def build(phases: Iterable[str], rows: Iterable[EdgeRow]) -> tuple[Table, Eventless]:
    """(event table, eventless table): the edges grouped by source phase and event, in the order
    given (the machine's document order: the first edge whose guards hold is taken)."""
    table: dict[str, dict[str, list[Edge]]] = {p: {} for p in phases}
    eventless: dict[str, list[Edge]] = {}
    for row in rows:
        edge = Edge(*row)
        if edge.event:
            table[edge.source].setdefault(edge.event, []).append(edge)
        else:
            eventless.setdefault(edge.source, []).append(edge)
    events = {e for evs in table.values() for e in evs}
    for edges in [*(e for evs in table.values() for e in evs.values()), *eventless.values()]:
        for edge in edges:
            for name in (*edge.conds, *edge.effects):
                if name in events:  # the library would call the event trigger, not the model
                    raise TypeError(f"callback {name!r} has the name of an event")
    return (
        {s: {e: tuple(v) for e, v in evs.items()} for s, evs in table.items()},
        {s: tuple(v) for s, v in eventless.items()},
    )


def eventless_depth(eventless: Eventless) -> int:
    """The longest chain of eventless transitions; TypeError if they form a cycle (a phase
    that could follow eventless transitions forever). `Game._settle` takes at most this many
    transitions per action (docs/robustness.md, "Engine")."""
    depth: dict[str, int] = {}

    def walk(phase: str, path: tuple[str, ...]) -> int:
        if phase in path:
            raise TypeError("eventless transitions form a cycle: " + " -> ".join((*path, phase)))
        if phase not in depth:
            depth[phase] = max((1 + walk(e.target, (*path, phase))
                                for e in eventless.get(phase, ())), default=0)
        return depth[phase]

    return max((walk(p, ()) for p in eventless), default=0)


TABLE, EVENTLESS = build(PHASES, EDGES)
EVENTLESS_DEPTH = eventless_depth(EVENTLESS)  # a cycle is refused here, at import
EVENTS: tuple[str, ...] = tuple(sorted({e for evs in TABLE.values() for e in evs}))
__all__ = ["EDGES", "EVENTLESS", "EVENTLESS_DEPTH", "EVENTS", "INITIAL", "PHASES", "TABLE",
           "Edge", "build", "eventless_depth"]
