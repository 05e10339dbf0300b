"""The turn-phase machine is the single definition: the dispatch table agrees with it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from uno_fsm import Game
from uno_fsm.phases import EVENTLESS, TABLE, TurnPhases, derive_table, diagram_markdown, mermaid

ROOT = Path(__file__).resolve().parents[1]


def test_table_is_derived_from_the_machine() -> None:
    table, eventless = derive_table()
    assert table == TABLE and eventless == EVENTLESS
    machine_events = {e for s in TurnPhases.states for t in s.transitions for e in t.events}
    assert machine_events == {e for evs in TABLE.values() for e in evs}
    assert set(TABLE) == {s.id for s in TurnPhases.states}


@pytest.mark.parametrize("ruleset,players,seed", [
    ("classic-official", 3, 1),
    ("classic-2022", 2, 2),
    ("classic-2022", 4, 3),
    ("classic-2022+cards-2018", 5, 4),
    ("classic-2022+seven-o", 3, 5),
    ("classic-official+cards-2018", 2, 6),
    ("classic-official+swap-hands", 3, 7),
    ("classic-2022+swap-hands", 4, 8),
    ("classic-official+partners", 4, 9),
    ("classic-2022+partners", 6, 10),
    ("flip", 2, 21),
    ("flip", 3, 22),
    ("flip+flip-alt-scoring", 4, 23),
])
def test_machine_and_table_agree_on_random_streams(ruleset: str, players: int, seed: int) -> None:
    """The same random action stream through the table (apply) and through
    python-statemachine (apply_via_machine) gives the same events and the same states."""
    rng = random.Random(seed)
    fast = Game.new(ruleset, players, seed)
    slow = Game.new(ruleset, players, seed)
    for _ in range(1500):
        if fast.is_over:
            break
        action = rng.choice(fast.legal_actions())
        assert fast.apply(action) == slow.apply_via_machine(action)
        assert fast.state.phase == slow.state.phase
    assert fast.state == slow.state


def test_diagram_is_fresh() -> None:
    """docs/diagrams/phases.md is generated: `uno-fsm diagram --markdown --write` it."""
    path = ROOT / "docs" / "diagrams" / "phases.md"
    assert path.read_text(encoding="utf-8") == diagram_markdown(), (
        "stale: run `uno-fsm diagram --markdown --write docs/diagrams/phases.md`")


def test_diagram_shows_every_transition() -> None:
    text = mermaid()
    n_edges = sum(len(v) for evs in TABLE.values() for v in evs.values())
    n_edges += sum(len(v) for v in EVENTLESS.values())
    assert text.count(" --> ") == n_edges + 2  # plus [*] --> initial and final --> [*]
    assert "challenge --> play : challenge_card / challenge_innocent" in text
