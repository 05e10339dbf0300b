"""Every option of every `uno-fsm` command says what it does, and no help text copies a count
that changes with the corpus (issue 24 item 9: `run --quiet` said 738 scenarios while the
corpus had 812; `--feature`, `--rule` and `--clause` had no help)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from uno_cli.main import build_parser, main


def parsers(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, Any]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, f"{path} {name}")


def options() -> list[tuple[str, argparse.Action]]:
    return [(path, a) for path, p in parsers(build_parser(), "uno-fsm") for a in p._actions
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


def test_every_option_and_argument_of_every_command_has_a_help_text() -> None:
    found = options()
    assert len(found) > 100  # every command's parser was built (none is a stand-in)
    missing = [f"{path} {'/'.join(a.option_strings) or a.dest}" for path, a in found
               if a.help is None or a.help == argparse.SUPPRESS or not str(a.help).strip()]
    assert missing == []


@pytest.mark.parametrize(("option", "says"), [
    ("--feature", "scenarios needing a feature matching GLOB"),
    ("--rule", "scenarios naming a rule matching GLOB"),
    ("--clause", "scenarios citing a clause matching GLOB"),
    ("--format", "console (default"),
])
def test_run_documents_its_filters_and_formats(option: str, says: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"{option} {'{console,json,junit,markdown}' if option == '--format' else 'GLOB'} " \
        f"{says}" in out


def test_help_does_no_work_and_writes_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`conformance run --help` neither loads the corpus nor writes its cache (it used to count
    the corpus for the --quiet example, filling the cache on the way)."""
    monkeypatch.setenv("UNO_FSM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("UNO_FSM_NO_CACHE", raising=False)
    for command in (["conformance", "run", "--help"], ["conformance", "--help"],
                    ["conformance", "lint", "--help"]):
        with pytest.raises(SystemExit) as info:
            build_parser().parse_args(command)
        assert info.value.code == 0
    assert "`OK in 2.10s: N scenarios (N passed)`" in " ".join(capsys.readouterr().out.split())
    assert not (tmp_path / "cache").exists()


def test_no_help_text_hard_codes_a_count_of_scenarios() -> None:
    counts = re.compile(r"\b\d{2,} (scenarios|rules|clauses|rulings|edges)\b")
    for path, action in options():
        assert not counts.search(str(action.help)), (path, action.help)
    for path, parser in parsers(build_parser(), "uno-fsm"):
        for text in (parser.description, parser.epilog):
            assert not counts.search(str(text or "")), (path, text)


def test_no_docstring_of_the_harness_names_a_fixed_count_of_scenarios() -> None:
    """A count of the corpus in the code's own words goes stale with the next scenario
    (conformance/reports.py said 738 when the corpus had 828)."""
    root = Path(__file__).resolve().parent.parent
    counts = re.compile(r"\b\d{3,}( of \d+)? scenarios\b")
    found = [f"{path.relative_to(root)}:{n}" for package in ("conformance", "uno_cli")
             for path in sorted((root / package).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if counts.search(line)]
    assert found == []
