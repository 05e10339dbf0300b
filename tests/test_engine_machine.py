"""The turn-phase machine is the single definition: the dispatch table agrees with it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from uno_fsm import Game, dispatch, phase_table
from uno_fsm.dispatch import EVENTLESS, TABLE
from uno_fsm.phases import (
    TurnPhases,
    derive_table,
    diagram_markdown,
    machine_edges,
    machine_phases,
    mermaid,
    table_module,
)

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "stale: run `uno-fsm diagram --table --write uno_fsm/phase_table.py`"


def test_the_checked_in_table_is_the_machine_read_afresh() -> None:
    """uno_fsm/phase_table.py (what the engine runs on) against a fresh reading of TurnPhases:
    this fails when the machine changes and the table is not regenerated."""
    assert phase_table.EDGES == machine_edges(), REGENERATE
    assert (phase_table.PHASES, phase_table.INITIAL) == machine_phases(), REGENERATE
    assert (TABLE, EVENTLESS) == derive_table(), REGENERATE
    path = ROOT / "uno_fsm" / "phase_table.py"
    assert path.read_text(encoding="utf-8") == table_module(), REGENERATE


def test_the_table_holds_every_transition_of_the_machine() -> None:
    """Counted through python-statemachine's own objects, not through machine_edges: every
    (state, transition, event) of the class is one edge of the table, with its target."""
    from_library = sorted(
        (s.id, str(e), t.target.id if t.target is not None else s.id)
        for s in TurnPhases.states for t in s.transitions
        for e in ([str(ev) for ev in t.events] or [""]))
    in_table = sorted((e.source, e.event, e.target) for e in (
        *(e for evs in TABLE.values() for es in evs.values() for e in es),
        *(e for es in EVENTLESS.values() for e in es)))
    assert in_table == from_library
    assert set(TABLE) == {s.id for s in TurnPhases.states}


def test_a_hand_edited_table_is_caught() -> None:
    """The freshness check can fail: a reordered pair of guarded edges (which changes which
    transition wins) or a dropped edge no longer equals the machine."""
    edges = list(phase_table.EDGES)
    first = next(i for i, e in enumerate(edges) if e[1] == "play_card")
    swapped = [*edges[:first], edges[first + 1], edges[first], *edges[first + 2:]]
    assert dispatch.build(phase_table.PHASES, swapped) != derive_table()
    assert dispatch.build(phase_table.PHASES, edges[:-1]) != derive_table()
    renamed = [(*e[:3], "play", *e[4:]) if e[3] == "swap" else e for e in edges]
    assert dispatch.build(phase_table.PHASES, renamed) != derive_table()


def test_the_engine_path_does_not_import_python_statemachine() -> None:
    """Start-up (issue 16 item 3): playing through the table needs no python-statemachine."""
    code = ("import sys\nfrom uno_fsm import Game\n"
            "g = Game.new('classic-official', 3, 1)\ng.apply(g.legal_actions()[0])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'statemachine'"
            " or m == 'uno_fsm.phases'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


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
