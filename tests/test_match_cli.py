"""`uno-fsm simulate --match NAME`: the report, JSON, --help, and hostile options (one line on
stderr, the exact exit code)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from uno_cli.main import main
from uno_fsm.match import play_match, report_lines
from uno_spec.matches import load_match


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def test_text_report_is_the_schedule_the_results_and_the_tally(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--match", "partners-rotation", "--seed", "4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines == report_lines(play_match(load_match("partners-rotation"), seed=4))
    assert lines[:7] == [
        "match partners-rotation: Partners rotation (four players)",
        "ruleset classic-official+partners, 4 players at 1 table(s) of 4, 1 round(s), 3 hands "
        "per table, seed 4, bots random",
        "",
        "schedule (partners sit opposite: seats 0+2 against 1+3):",
        "  hand 1 (round 1)  table 1: P0+P3 vs P1+P2",
        "  hand 2 (round 1)  table 1: P0+P2 vs P1+P3",
        "  hand 3 (round 1)  table 1: P0+P1 vs P2+P3",
    ]
    results = [line for line in lines if line.startswith("  hand ") and " out, " in line]
    assert len(results) == 3
    assert lines[lines.index("tally (points by partner; the total is their sum):") + 1] == \
        "  player     P0    P1    P2    P3   total"
    assert lines[-1].startswith("winner: P")


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--match", "partners-tournament", "--format", "json",
                         "--seed", "2", "--bots", "basic")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc == play_match(load_match("partners-tournament"), seed=2, bot="basic").to_dict()
    assert (doc["match"], doc["players"], doc["tables"], doc["hands_per_table"]) == \
        ("partners-tournament", 8, 2, 28)
    assert len(doc["schedule"]) == 28 and len(doc["hands"]) == 56
    assert doc["by_partner"][0][0] is None and doc["by_partner"][0][1] == doc["by_partner"][1][0]
    assert doc["totals"] == [sum(v for v in row if v is not None) for row in doc["by_partner"]]
    assert doc["winners"] == [p for p, v in enumerate(doc["totals"]) if v == max(doc["totals"])]


def test_rounds_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--match", "partners-rotation", "--rounds", "2", "--format",
                       "json")
    doc = json.loads(out)
    assert code == 0 and doc["rounds"] == 2 and len(doc["hands"]) == 6
    assert [h["round"] for h in doc["schedule"]] == [1, 1, 1, 2, 2, 2]
    assert run(capsys, "--match", "partners-rotation", "--rounds", "2", "--format",
               "json")[1] == out
    assert run(capsys, "--match", "partners-rotation", "--rounds", "2", "--format", "json",
               "--seed", "1")[1] != out


def test_help_lists_the_match_formats(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")
    assert main(["simulate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--match NAME play the match format NAME: partners-rotation, partners-tournament" \
        in text


@pytest.mark.parametrize(("argv", "code", "line"), [
    (["--match", "nope"], 2, "uno-fsm simulate: spec/matches: unknown match 'nope' (known: "
     "partners-rotation, partners-tournament)"),
    (["--match", ""], 2, "uno-fsm simulate: spec/matches: unknown match '' (known: "
     "partners-rotation, partners-tournament)"),
    (["--match", "../rulesets/partners"], 2, "uno-fsm simulate: spec/matches: unknown match "
     "'../rulesets/partners' (known: partners-rotation, partners-tournament)"),
    (["--match"], 2, "uno-fsm simulate: argument --match: expected one argument (see `uno-fsm "
     "simulate --help`)"),
    (["--match", "partners-rotation", "--ruleset", "flip"], 2, "uno-fsm simulate: --ruleset "
     "does not go with --match (the match format names its ruleset and players)"),
    (["--match", "partners-rotation", "--players", "4"], 2, "uno-fsm simulate: --players does "
     "not go with --match (the match format names its ruleset and players)"),
    (["--games", "3", "--match", "partners-rotation"], 2, "uno-fsm simulate: --games does not "
     "go with --match (the match format names its ruleset and players)"),
    (["--rounds", "2"], 2, "uno-fsm simulate: --rounds goes with --match NAME"),
    (["--format", "json"], 2, "uno-fsm simulate: --format goes with --match NAME"),
    (["--bots", "basic", "--games", "1"], 2, "uno-fsm simulate: --bots goes with --match NAME"),
    (["--match", "partners-rotation", "--rounds", "0"], 2, "uno-fsm simulate: argument "
     "--rounds: 0 is not from 1 to 100 (see `uno-fsm simulate --help`)"),
    (["--match", "partners-rotation", "--rounds", "1e9"], 2, "uno-fsm simulate: argument "
     "--rounds: not a whole number: '1e9' (see `uno-fsm simulate --help`)"),
    (["--match", "partners-rotation", "--rounds", "101"], 2, "uno-fsm simulate: argument "
     "--rounds: 101 is not from 1 to 100 (see `uno-fsm simulate --help`)"),
    (["--match", "partners-rotation", "--bots", "clever"], 2, "uno-fsm simulate: argument "
     "--bots: invalid choice: 'clever' (choose from 'basic', 'random') (see `uno-fsm simulate "
     "--help`)"),
    (["--match", "partners-rotation", "--format", "xml"], 2, "uno-fsm simulate: argument "
     "--format: invalid choice: 'xml' (choose from 'text', 'json') (see `uno-fsm simulate "
     "--help`)"),
    (["--match", "partners-rotation", "--seed", "x"], 2, "uno-fsm simulate: argument --seed: "
     "invalid int value: 'x' (see `uno-fsm simulate --help`)"),
    (["--match", "partners-rotation", "--max-actions", "5"], 1, "uno-fsm simulate: --match "
     "partners-rotation: hand 1 at table 1: the hand of seed 0 did not end within 5 actions "
     "(--max-actions)"),
])
def test_hostile_options_are_one_line(argv: list[str], code: int, line: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    got, out, err = run(capsys, *argv)
    assert (got, out, err) == (code, "", line + "\n")


def test_a_huge_seed_plays() -> None:
    """A seed beyond 64 bits is still an exact, reproducible match (Python integers)."""
    big = str(10 ** 30)
    runs = [subprocess.run([sys.executable, "-m", "uno_cli", "simulate", "--match",
                            "partners-rotation", "--seed", big, "--format", "json"],
                           capture_output=True, text=True, timeout=60, check=False)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0] and runs[0].stderr == ""
    assert runs[0].stdout == runs[1].stdout
    assert json.loads(runs[0].stdout)["seed"] == 10 ** 30


def test_readme_and_engine_docs_name_every_match_format() -> None:
    from pathlib import Path

    from uno_spec.matches import list_matches

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    engine = (root / "docs" / "engine.md").read_text(encoding="utf-8")
    for name in list_matches():
        assert f"`{name}`" in readme and f"`{name}`" in engine, name
