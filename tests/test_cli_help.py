"""Every option of every `uno-fsm` command says what it does, and no help text copies a count
that changes with the corpus (issue 24 item 9: `run --quiet` said 738 scenarios while the
corpus had 812; `--feature`, `--rule` and `--clause` had no help)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from typing import Any

import pytest

from conformance import cli as conformance_cli
from conformance.scenario import load_corpus
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


def test_the_quiet_help_counts_the_corpus_it_runs(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    total = len(load_corpus(None).scenarios)
    assert main(["conformance", "run", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"`OK in 2.10s: {total} scenarios ({total} passed)`" in out
    assert "{SCENARIOS}" not in out
    # the count is the corpus's when the help is shown, not when the code was written
    monkeypatch.setattr(conformance_cli, "corpus_size", lambda: "12345")
    assert main(["conformance", "run", "--help"]) == 0
    assert "12345 scenarios (12345 passed)" in " ".join(capsys.readouterr().out.split())


def test_no_help_text_hard_codes_a_count_of_scenarios() -> None:
    counts = re.compile(r"\b\d{2,} (scenarios|rules|clauses|rulings|edges)\b")
    for path, action in options():
        assert not counts.search(str(action.help)), (path, action.help)
    for path, parser in parsers(build_parser(), "uno-fsm"):
        for text in (parser.description, parser.epilog):
            assert not counts.search(str(text or "")), (path, text)
