"""`uno-fsm` imports only the module of the command it runs (fast `conformance serve`)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import cli as conformance_cli
from uno_cli import main as cli
from uno_spec import commands

ROOT = Path(__file__).resolve().parents[1]

HEAVY = ("hypothesis", "rich", "jsonschema", "conformance.reports", "conformance.runner",
         "statemachine", "uno_fsm.phases")
# What `conformance run` must not import (issue 16 item 3): Hypothesis, python-statemachine (the
# engine runs on the generated dispatch table) and, unless it prints to a terminal, rich.
NOT_FOR_RUN = ("hypothesis", "statemachine", "uno_fsm.phases", "rich")
CORPUS = ROOT / "conformance" / "corpus"


def _imported_by_run(args: list[str]) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """`uno-fsm conformance run ARGS` in a fresh interpreter (stdout and stderr are pipes, not
    a terminal): its result and which of NOT_FOR_RUN (top-level packages) it imported."""
    code = ("import sys; from uno_cli.main import main\n"
            f"code = main(['conformance', 'run', *{args!r}])\n"
            "print(sorted({m.split('.')[0] if m.split('.')[0] != 'uno_fsm' else m "
            f"for m in sys.modules}} & set({NOT_FOR_RUN!r})), file=sys.stderr)\n"
            "sys.exit(code)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    *_lines, modules = out.stderr.strip().splitlines()
    return out, json.loads(modules.replace("'", '"'))


def _sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


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
    assert answers[0]["result"]["protocol"] == "uno-conformance/2"
    assert out.stderr.strip().splitlines()[-1] == "[]"


def test_conformance_run_imports_no_machine_library_no_hypothesis_and_no_rich(
        tmp_path: Path) -> None:
    """The reference engine judged, a JSON report written, the verdict line on a pipe: neither
    python-statemachine, Hypothesis nor rich is imported."""
    report = tmp_path / "r.json"
    out, modules = _imported_by_run([str(CORPUS / "classic" / "draw.yaml"), "--quiet",
                                     "--format", "json", "--output", str(report)])
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[0].startswith("OK in ")
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["passed"] > 0
    assert modules == []


def test_conformance_run_imports_rich_only_to_print_the_console_report() -> None:
    out, modules = _imported_by_run([str(CORPUS / "classic" / "draw.yaml")])
    assert out.returncode == 0, out.stderr
    assert "conformance: uno-fsm" in out.stdout  # the console table, rendered by rich
    assert modules == ["rich"]


def test_conformance_subcommand_table_matches_what_each_module_registers() -> None:
    """conformance.cli.SUBCOMMANDS (the stand-ins' help lines) against the modules' own."""
    full = _subcommands(_sub_parsers(cli.build_parser())["conformance"])
    assert {c.name: c.help for c in conformance_cli.SUBCOMMANDS}.items() <= full.items()
    lazy = _subcommands(_sub_parsers(cli.build_parser(["conformance", "run"]))["conformance"])
    assert lazy == full


def test_a_conformance_subcommand_imports_only_its_module() -> None:
    code = ("import sys; from uno_cli.main import main\n"
            "code = main(['conformance', 'errors', '--format', 'json'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('conformance.')), "
            "file=sys.stderr)\nsys.exit(code)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)  # the error codes, as JSON
    modules = out.stderr.strip().splitlines()[-1]
    assert "conformance.registries" in modules
    for other in ("conformance.compliance", "conformance.site", "conformance.diff_cli"):
        assert other not in modules


def test_report_formats_are_those_of_the_reports_module() -> None:
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
    monkeypatch.setattr(commands, "chosen_command", lambda _argv: None)  # all stand-ins
    assert cli.main(["spec", "stats"]) == 0
    assert capsys.readouterr().out == direct != ""
