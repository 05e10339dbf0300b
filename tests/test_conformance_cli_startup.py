"""`uno-fsm` imports only the module of the command it runs (fast `conformance serve`)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from uno_cli import main as cli

HEAVY = ("hypothesis", "rich", "jsonschema", "conformance.reports", "conformance.runner")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, str]:
    """command name -> help line, as argparse shows them."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help or "" for choice in action._choices_actions}


def test_the_command_table_matches_what_each_module_registers() -> None:
    full = _subcommands(cli.build_parser())
    assert full == {c.name: c.help for c in cli.COMMANDS}


@pytest.mark.parametrize("command", [c.name for c in cli.COMMANDS])
def test_a_lazy_parser_lists_every_command_with_its_help(command: str) -> None:
    lazy = _subcommands(cli.build_parser([command]))
    assert lazy == {c.name: c.help for c in cli.COMMANDS}


def test_help_lists_every_command_without_importing_them() -> None:
    code = ("import sys; from uno_cli.main import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {HEAVY + ('uno_fsm.fuzz', 'uno_fsm.game')!r} "
            "if m in sys.modules), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    for command in cli.COMMANDS:
        assert command.name in out.stdout and command.help in " ".join(out.stdout.split())
    assert out.stderr.strip() == "[]"


def test_conformance_serve_answers_without_heavy_imports() -> None:
    # `serve` leaves through os._exit once it has answered `bye`: report the modules then
    code = ("import os, sys; from uno_cli.main import main\n"
            "leave = os._exit\n"
            "def report(status):\n"
            f"    print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
            "    sys.stderr.flush()\n"
            "    leave(status)\n"
            "os._exit = report\n"
            "main(['conformance', 'serve', '--adapter', 'reference'])\n")
    requests = [{"id": 1, "method": "hello", "params": {"protocol": "uno-conformance/1"}},
                {"id": 2, "method": "bye"}]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         input="".join(json.dumps(r) + "\n" for r in requests), check=True)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0]["result"]["protocol"] == "uno-conformance/1"
    assert out.stderr.strip().splitlines()[-1] == "[]"


def test_report_formats_are_those_of_the_reports_module() -> None:
    from conformance import cli as conformance_cli
    from conformance import reports

    assert conformance_cli.FORMATS == reports.FORMATS


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-command"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("uno-fsm: argument COMMAND: invalid choice: 'no-such-command'")


def test_a_stand_in_chosen_by_argparse_is_parsed_again_for_real(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["spec", "stats"]) == 0
    direct = capsys.readouterr().out
    monkeypatch.setattr(cli, "_chosen", lambda _argv: None)  # every command a stand-in
    assert cli.main(["spec", "stats"]) == 0
    assert capsys.readouterr().out == direct != ""
