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


# --- item 4: refusals as steps: the loader refuses only what is not a well-formed file -------

REFUSAL = GOOD.replace("  - act: {player: 0, play: R7}\n", "  - act: ACT\n    error: CODE\n")


@pytest.mark.parametrize("act", ["{player: 7, catch: 0}", "{player: 1, catch: 5}",
                                 "{player: 0, swap: 9}", "{player: 1, uno: 0}",
                                 "{player: 0, play: R5/PD5}", "{player: 0, play: PD5}"])
def test_a_refusal_step_may_name_what_the_game_has_no_place_for(act: str) -> None:
    from conformance.scenario import parse_text

    sc = parse_text(REFUSAL.replace("ACT", act).replace("CODE", "malformed-action"), "s.yaml")[0]
    assert sc.steps[0].error == "malformed-action"


@pytest.mark.parametrize(("act", "message"), [
    ("{player: 7, catch: 0}", "steps[0].act.player: seat 7 does not exist with 2 players"),
    ("{player: 1, uno: 0}", "uno: 0: a player calls UNO for themself (`uno: true`); a call on "
     "another player's behalf is an action the rules refuse: write it with its `error:` code"),
    ("{player: 0, play: PD5}", "PD5 is a UNO Flip face, not a card of ruleset classic-official"),
])
def test_an_accepted_step_is_checked_against_the_table(act: str, message: str) -> None:
    from conformance.scenario import ScenarioError, parse_text

    with pytest.raises(ScenarioError) as exc:
        parse_text(GOOD.replace("{player: 0, play: R7}", act), "s.yaml")
    assert message in exc.value.message, exc.value.message


def test_a_refusal_step_is_still_a_well_formed_action() -> None:
    from conformance.scenario import ScenarioError, parse_text

    for act in ("{player: 0, play: 'R 5'}", "{player: 0, dance: true}", "{player: 10, draw: true}"):
        with pytest.raises(ScenarioError):
            parse_text(REFUSAL.replace("ACT", act).replace("CODE", "malformed-action"), "s.yaml")
