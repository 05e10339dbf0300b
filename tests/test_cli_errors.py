"""Bad input on the command line gives one clear line on stderr and a non-zero exit, never a
traceback (docs audit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_cli.main import main


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--ruleset", "nope", "--games", "1", "--no-progress"],
         "unknown ruleset 'nope'"),
        (["simulate", "--ruleset", "classic-official+nope", "--games", "1", "--no-progress"],
         "unknown variant 'nope'"),
        (["simulate", "--players", "11", "--games", "1", "--no-progress"],
         "2..10 players, not 11"),
        (["simulate", "--players", "1", "--games", "1", "--no-progress"],
         "2..10 players, not 1"),
        (["simulate", "--games", "0", "--no-progress"], "argument --games: 0 is not at least 1"),
    ],
)
def test_unknown_ruleset_is_one_line(argv: list[str], needle: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].startswith("uno-fsm simulate: ")
    assert needle in lines[0]


def test_a_bug_is_one_line_and_exit_2_unless_asked_for_the_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An exception no command handled is an internal error: one line, exit 2; with
    UNO_FSM_TRACEBACK=1 it propagates (for debugging)."""
    import argparse

    from uno_cli import main as main_module

    def boom(args: argparse.Namespace) -> int:
        raise RuntimeError("a bug\nover two lines")

    def parser(argv: object = None) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser()
        p.add_argument("word")
        p.set_defaults(handler=boom)
        return p

    monkeypatch.setattr(main_module, "build_parser", parser)
    monkeypatch.delenv("UNO_FSM_TRACEBACK", raising=False)
    assert main(["simulate"]) == 2
    assert capsys.readouterr().err == ("uno-fsm simulate: internal error: RuntimeError: a bug "
                                       "over two lines (set UNO_FSM_TRACEBACK=1 for the "
                                       "traceback)\n")
    monkeypatch.setenv("UNO_FSM_TRACEBACK", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        main(["simulate"])


def _one_error_line(capsys: pytest.CaptureFixture[str], prefix: str) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith(prefix)]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def report_file(tmp_path: Path) -> Path:
    """A small JSON run report of the reference engine."""
    out = tmp_path / "run.json"
    assert main(["conformance", "run", "--id", "classic.play.match.colour", "--format", "json",
                 "--output", str(out), "--no-progress"]) == 0
    return out


@pytest.fixture
def unwritable(tmp_path: Path) -> Path:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    return blocker / "sub" / "out.txt"  # its parent cannot be created


def test_run_output_unwritable(unwritable: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "run", "--id", "classic.play.match.colour", "--format", "json",
                 "--output", str(unwritable), "--no-progress"])
    assert code == 2
    assert "cannot write" in _one_error_line(capsys, "uno-fsm conformance:")


def test_report_output_unwritable(report_file: Path, unwritable: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code = main(["conformance", "report", "--from", str(report_file), "--format", "markdown",
                 "--output", str(unwritable)])
    assert code == 2
    assert "cannot write" in _one_error_line(capsys, "uno-fsm conformance:")


@pytest.mark.parametrize("option", ["--output", "--write-expectations"])
def test_compliance_output_unwritable(option: str, report_file: Path, unwritable: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    argv = ["conformance", "compliance", "--implementation", "rlcard", "--from", str(report_file),
            option, str(unwritable)]
    if option != "--output":
        argv += ["--output", str(unwritable.parents[2] / "c.md")]
    assert main(argv) == 2
    assert "cannot write" in _one_error_line(capsys, "uno-fsm conformance compliance:")


@pytest.mark.parametrize("value", ["0", "-1"])
def test_run_timeout_must_be_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--timeout", value, "--id", "classic.play.*",
                 "--no-progress"]) == 2
    assert _one_error_line(capsys, "uno-fsm conformance run:") == (
        f"uno-fsm conformance run: argument --timeout: '{value}' is not greater than 0 "
        "(see `uno-fsm conformance run --help`)")


def test_bench_bad_corpus_is_a_usage_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--corpus", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in _one_error_line(capsys, "uno-fsm bench:")


@pytest.mark.parametrize("argv", [["rules", "show", "CL.PLAY.MATCH"], ["rules", "search", "uno"]])
def test_rules_with_a_spec_that_is_not_one(argv: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--spec", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "not a spec directory" in err.splitlines()[0]


def test_rules_show_unknown_rule_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "NOPE"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "uno-fsm rules show: unknown rule 'NOPE'"


def test_a_ruleset_the_engine_does_not_play_is_refused(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A scoring method the engine does not play (here: elimination, taken away) is refused in
    one line, never played as plain UNO."""
    from uno_fsm import rules

    monkeypatch.setattr(rules, "SCORING_METHODS", ("winner-scores-others",))
    assert main(["simulate", "--ruleset", "classic-official+desafio", "--games", "1",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err == ("uno-fsm simulate: classic-official+desafio: the engine does not play the "
                   "scoring method 'elimination' (it plays winner-scores-others)\n")


@pytest.mark.parametrize("argv", [["conformance", "compliance"],
                                  ["rules", "show", "CL.WILD.COLOUR"],
                                  ["conformance", "run", "--id", "nothing.at.all"]])
@pytest.mark.parametrize("url", ["", "  "])
def test_an_empty_site_url_is_refused(argv: list[str], url: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`--site-url ''` named no site and silently meant the default: refused, one line, exit 2,
    before any work."""
    assert main([*argv, "--site-url", url]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"uno-fsm {' '.join(argv[:2])}: "
                          "argument --site-url: an empty URL names no site")
