"""docs/engine.md's first example runs, and shows what it prints."""

from __future__ import annotations

import re
from pathlib import Path

from uno_fsm import Game

ENGINE_MD = Path(__file__).resolve().parent.parent / "docs" / "engine.md"


def test_the_engine_example_runs_and_its_comments_say_what_it_gives() -> None:
    block = re.findall(r"```python\n(.*?)```", ENGINE_MD.read_text(encoding="utf-8"),
                       flags=re.S)[0]
    scope: dict[str, object] = {}
    exec(compile(block, str(ENGINE_MD), "exec"), scope)  # noqa: S102 - the docs' own example
    g = Game.new("classic-official", players=4, seed=7)
    first = repr(g.legal_actions()[0]).split(", color=")[0]
    assert f"g.pending                     # {g.pending!r}\n" in block
    assert f"g.legal_actions()             # [{first}, ...), ...]\n" in block
    assert "e.code == \"not-your-turn\", e.rule == \"CL.PLAY.OUT-OF-TURN\"" in block
    g.apply(g.legal_actions()[0])
    assert g.pending.player != 3  # so the play by seat 3 in the example is out of turn
