"""Issue 24: `conformance run` refuses what lint refuses (a misspelt feature, rule, clause,
error code; an unknown ruleset or parameter) with exit 2 and file:line, and both flag a
scenario id the bundled corpus already has."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.lint import lint
from uno_cli.main import main

GOOD = """\
id: mine.strict.one
title: A number on a number of the same colour
ruleset: classic-official
cites: [classic-br:play:1]
rules: [CL.PLAY.MATCH]
features: [basic-play]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R7, G3], 1: [Y3]}
  discard: [R5]
  draw: [B2]
steps:
  - act: {player: 0, play: R7}
  - expect: {top: R7}
"""


def _run(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["conformance", "run", str(path), "--no-expectations", "-q"])
    return code, capsys.readouterr().err


def test_good_file_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s.yaml").write_text(GOOD)
    code, err = _run(tmp_path / "s.yaml", capsys)
    assert code == 0, err


@pytest.mark.parametrize(("old", "new", "line", "says"), [
    ("features: [basic-play]", "features: [basic-ply]", 6,
     "feature basic-ply is not in spec/features.yaml (did you mean basic-play?)"),
    ("rules: [CL.PLAY.MATCH]", "rules: [CL.PLAY.MATCHES]", 5,
     "rule CL.PLAY.MATCHES does not exist in spec/rules (did you mean CL.PLAY.MATCH?)"),
    ("cites: [classic-br:play:1]", "cites: [classic-br:play:99]", 4,
     "cited clause classic-br:play:99 does not exist in spec/sources"),
    ("ruleset: classic-official", "ruleset: classic-oficial", 3,
     "unknown ruleset 'classic-oficial'"),
    ("  - expect: {top: R7}\n",
     "  - expect: {events: [{kind: played, rule: CL.PLAY.MACTH}]}\n", 16,
     "step 2: event rule CL.PLAY.MACTH does not exist in spec/rules (did you mean "
     "CL.PLAY.MATCH?)"),
    ("  - act: {player: 0, play: R7}\n",
     "  - act: {player: 0, play: G3}\n    error: card-does-not-mach\n", 15,
     "error code card-does-not-mach is not in spec/errors.yaml"),
])
def test_run_refuses_an_unknown_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     old: str, new: str, line: int, says: str) -> None:
    path = tmp_path / "s.yaml"
    assert old in GOOD
    path.write_text(GOOD.replace(old, new))
    code, err = _run(path, capsys)
    assert code == 2
    assert f"s.yaml:{line}: " in err and says in err, err
    assert lint([path]).errors  # lint says so too


def test_a_bundled_id_is_flagged_by_run_and_lint(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("mine.strict.one", "classic.draw.drawn-wd4-kept"))
    code, err = _run(path, capsys)
    assert code == 2
    assert "s.yaml:1: scenario classic.draw.drawn-wd4-kept: duplicate scenario id: the " \
        "bundled corpus has it (" in err
    assert any("duplicate scenario id" in e for e in lint([path], coverage=False).errors)


def test_ids_within_a_run_are_unique(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    code, err = _run(tmp_path, capsys)
    assert code == 2 and "duplicate scenario id 'mine.strict.one'" in err


def test_a_part_of_the_bundled_corpus_is_not_its_own_duplicate(
        capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.scenario import CORPUS_ROOT

    code, err = _run(CORPUS_ROOT / "classic" / "draw.yaml", capsys)
    assert code == 0, err
