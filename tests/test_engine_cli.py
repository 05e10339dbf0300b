"""`uno-fsm diagram`, `uno-fsm play`, `uno-fsm simulate`."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from uno_cli.main import main
from uno_fsm.cli import cmd_play
from uno_fsm.phases import machine_edges, mermaid, table_module


def test_diagram_prints_the_machine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram"]) == 0
    assert capsys.readouterr().out == mermaid()


def test_diagram_table_writes_the_module_the_engine_imports(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`uno-fsm diagram --table --write PATH` writes uno_fsm/phase_table.py's text; the module
    it writes, imported, holds the machine's edges."""
    out = tmp_path / "phase_table.py"
    assert main(["diagram", "--table", "--write", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == table_module()
    namespace: dict[str, object] = {}
    exec(compile(out.read_text(encoding="utf-8"), str(out), "exec"), namespace)
    assert namespace["EDGES"] == machine_edges()
    assert main(["diagram", "--table", "--markdown"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_simulate_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "5", "--ruleset", "classic-2022", "--players", "3",
                 "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "mean game length" in out and "win rate by seat" in out and "P2" in out


def _play(lines: str, seed: int = 3, code: int = 0) -> str:
    args = argparse.Namespace(ruleset="classic-official", players=3, seed=seed, seat=0)
    out = io.StringIO()
    assert cmd_play(args, io.StringIO(lines), out) == code
    return out.getvalue()


def test_play_quits_on_q_and_eof_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "bye" in _play("q\n")
    assert "bye" not in _play("", code=2)
    assert capsys.readouterr().err == \
        "uno-fsm play: end of input before the game ended (type q to quit)\n"
    text = _play("1\n1\n1\nnonsense\n1\nq\n")
    assert "your hand:" in text and "top:" in text and "colour:" in text and "1." in text


def test_play_refusal_cites_the_rule() -> None:
    text = _play("B0\nq\n", seed=3)
    assert "  Refused: You hold no B0  [CL.PLAY.TURN-OPTIONS]\n" in text


def test_simulate_and_play_the_guide_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """classic-guide (GUIDE.END.FIRST-OUT): every simulated game is one hand; `play` deals it."""
    assert main(["simulate", "--games", "5", "--ruleset", "classic-guide", "--players", "3",
                 "--seed", "1", "--no-progress"]) == 0
    assert ", 1.00 rounds\n" in capsys.readouterr().out
    args = argparse.Namespace(ruleset="classic-guide", players=3, seed=3, seat=0)
    out = io.StringIO()
    assert cmd_play(args, io.StringIO("q\n"), out) == 0
    assert "UNO (classic-guide), 3 players" in out.getvalue() and "First card: " in out.getvalue()
