"""Hostile inputs, third round (issue 26): values that were quietly accepted or met with an
unclear message.

- An empty value (an unset CI variable: `--adapter "$ADAPTER"`) is refused like a blank one,
  never taken as the reference engine or as `.`: every adapter option and every path option.
- A message says what is wrong and where: a 100 000-digit hexadecimal integer in a scenario
  (`file:line`), a report read back that nests too deeply, holds `1e999` or a 100 000-digit
  integer (`file:line`), a `module:` adapter whose module prints as it is imported (the missing
  class is named).
- Quiet acceptances refused in one line: `lint` of a directory named `x.yaml` or holding no
  scenario, `pipelining: "yes"` in `hello`, a FIFO as `--database`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import FIX, HOSTILE, no_process_left  # noqa: F401 - autouse fixture
from test_hostile_cli import one_line, scenario

from uno_cli.main import main

HARNESS = FIX / "scenarios" / "harness.yaml"
ADAPTERS = ("the adapter is empty: name one (reference, rlcard, rlcard-uno, uno-game, "
            "skilluno, stdio:'<command line>' or module:package.module:Class)")


# --- empty values -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", " ", "\t"])
@pytest.mark.parametrize(("argv", "prefix"), [
    (["conformance", "run", str(HARNESS), "--adapter"], "uno-fsm conformance: "),
    (["conformance", "serve", "--adapter"], "uno-fsm conformance: "),
    (["conformance", "diff", "--examples", "1", "--no-database", "--adapter"],
     "uno-fsm conformance diff: --adapter: "),
    (["conformance", "diff", "--adapter", "reference", "--examples", "1", "--no-database",
      "--oracle"], "uno-fsm conformance diff: --oracle: "),
])
def test_an_empty_adapter_is_refused_like_a_blank_one(
        capsys: pytest.CaptureFixture[str], argv: list[str], prefix: str, value: str) -> None:
    """`--adapter ''` ran the reference engine and reported 793 passed, exit 0."""
    assert main([*argv, value]) == 2
    assert one_line(capsys) == prefix + ADAPTERS
    assert capsys.readouterr().out == ""


def test_pytest_with_an_empty_adapter_is_a_usage_error(tmp_path: Path) -> None:
    """`pytest --uno-adapter ''` collected the corpus and passed it on the reference engine."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                          "--rootdir", str(tmp_path), "--uno-adapter", ""], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 4, out.stdout + out.stderr
    assert out.stderr.strip() == f"ERROR: --uno-adapter: {ADAPTERS}"
    assert "passed" not in out.stdout


@pytest.mark.parametrize("argv", [
    ["conformance", "run", ""], ["conformance", "run", "--output", ""],
    ["conformance", "run", "--expectations", ""], ["conformance", "lint", ""],
    ["conformance", "report", "--from", ""], ["conformance", "compliance", "--from", ""],
    ["conformance", "compliance", "--implementation", "rlcard", "--output", ""],
    ["conformance", "site", "--from", "", "--markdown", "m.md"],
    ["conformance", "site", "--markdown", ""], ["conformance", "site", "--output", ""],
    ["conformance", "diff", "--adapter", "reference", "--database", ""],
    ["conformance", "diff", "--adapter", "reference", "--write-scenarios", ""],
    ["conformance", "features", ""], ["conformance", "rulesets", ""],
    ["fuzz", "--database", ""], ["bench", "--corpus", ""], ["diagram", "--write", ""],
    ["spec", "docs", "--out", ""], ["spec", "lint", "--spec", ""],
])
def test_an_empty_path_is_refused_not_read_as_the_current_directory(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`Path("")` is `.`: `run ''` ran every scenario below the current directory and `fuzz
    --database ''` filled it with the example database."""
    assert main(argv) == 2
    line = one_line(capsys)
    assert line.endswith("an empty path (an unset variable?); name a file or directory (see "
                         f"`uno-fsm {' '.join(w for w in argv[:2] if not w.startswith('-'))} "
                         "--help`)"), line


@pytest.mark.parametrize("words", [[""], [" "], ["penalidade", ""]])
def test_an_empty_search_word_is_refused(capsys: pytest.CaptureFixture[str],
                                         words: list[str]) -> None:
    """`rules search ''` listed every rule and clause, exit 0."""
    assert main(["rules", "search", *words]) == 2
    assert one_line(capsys) == "uno-fsm rules search: an empty word; name what to look for"


@pytest.mark.parametrize("command", ["run", "compliance"])
def test_an_empty_implementation_name_is_refused(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    rest = [str(HARNESS)] if command == "run" else []
    assert main(["conformance", command, *rest, "--implementation", ""]) == 2
    line = one_line(capsys)
    assert "--implementation is empty" in line and line.startswith("uno-fsm conformance")


# --- messages that say what and where ------------------------------------------------------


@pytest.mark.parametrize("field", ["seed", "players"])
@pytest.mark.parametrize("command", ["run", "lint"])
def test_a_huge_hexadecimal_integer_is_located(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, field: str) -> None:
    """`internal error: ValueError: Exceeds the limit (4300 digits)`, with no file:line."""
    path = scenario(tmp_path)
    text = path.read_text(encoding="utf-8")
    big = "0x" + "f" * 100_000
    text = text.replace("players: 2", f"players: {big}") if field == "players" \
        else text.replace("ruleset: classic-official", f"ruleset: classic-official\nseed: {big}")
    path.write_text(text, encoding="utf-8")
    line = 8 if field == "players" else 4
    assert main(["conformance", command, str(path)]) == 2
    out = capsys.readouterr()
    shown = out.err if command == "run" else out.out
    assert f"{path}:{line}: YAML error: an integer of 100000 digits (at most 30 allowed)" \
        in shown.splitlines()[0]


@pytest.mark.parametrize(("content", "line", "message"), [
    ("[" * 100_000 + "]" * 100_000, 1, "arrays and objects nested deeper than 100 levels"),
    ('{"format": "uno-conformance-report/1",\n "duration": 1e999}', 2,
     "the number 1e999 is not finite (it overflows a double)"),
    ('{"format": "uno-conformance-report/1",\n\n "duration": 1' + "0" * 100_000 + "}", 3,
     "an integer of 100001 digits (at most 30)"),
])
@pytest.mark.parametrize("command", ["report", "compliance", "site"])
def test_a_hostile_report_read_back_is_named_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, line: int,
        message: str, command: str) -> None:
    """`report --from` a deeply nested file: `internal error: RecursionError`; `1e999`:
    `duration: null is not of type "number"`."""
    bad = tmp_path / "rlcard.json"
    bad.write_text(content, encoding="utf-8")
    argv = {"report": ["report", "--from", str(bad)],
            "compliance": ["compliance", "--implementation", "rlcard", "--from", str(bad),
                           "--output", str(tmp_path / "page.md")],
            "site": ["site", "--from", str(bad), "--markdown", str(tmp_path / "index.md")]}
    assert main(["conformance", *argv[command]]) == 2
    name = "" if command == "report" else f" {command}"
    assert one_line(capsys) == (f"uno-fsm conformance{name}: {bad}:{line}: not a JSON report: "
                                f"{message}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rlcard.json"]


def test_a_module_adapter_that_prints_on_import_names_the_missing_class(
        tmp_path: Path) -> None:
    """What the module printed reached the protocol channel: "response is not JSON", and the
    missing class was never named."""
    (tmp_path / "chatty_adapter.py").write_text("print('loading the adapter')\n",
                                               encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path),
                                                        os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "uno_cli", "conformance", "run", str(HARNESS),
                          "--adapter", "module:chatty_adapter:Missing", "-q"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines()[-1] == (
        "uno-fsm conformance: stopped: the adapter failed to start 3 times in a row; last: "
        "crashed: hello: adapter exited with status 2 before answering (stderr: uno-fsm "
        "conformance: module 'chatty_adapter' has no attribute 'Missing'); 3 scenario(s) not "
        "judged (listed as errored in the report)")


def test_serve_keeps_what_an_adapter_prints_off_the_protocol(tmp_path: Path) -> None:
    (tmp_path / "chatty_adapter.py").write_text(
        "print('loading')\n"
        "from conformance.adapters.reference import ReferenceAdapter\n"
        "class Chatty(ReferenceAdapter):\n"
        "    def hello(self):\n"
        "        print('hello!')\n"
        "        return super().hello()\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path),
                                                        os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "uno_cli", "conformance", "serve",
                          "--adapter", "module:chatty_adapter:Chatty"],
                         input='{"id": 1, "method": "hello"}\n{"id": 2, "method": "bye"}\n',
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert [line[:8] for line in out.stdout.splitlines()] == ['{"id":1,', '{"id":2,']
    assert out.stderr.splitlines() == ["loading", "hello!"]


# --- quiet acceptances, refused in one line -------------------------------------------------


@pytest.mark.parametrize("name", ["x.yaml", "empty"])
@pytest.mark.parametrize("command", ["lint", "run", "features"])
def test_a_directory_holding_no_scenario_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: str) -> None:
    """`lint x.yaml/` exited 0 (`0 scenarios, 0 error(s)`) where `run` exited 2."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "notes.txt").write_text("not a scenario", encoding="utf-8")
    assert main(["conformance", command, str(folder)]) == 2
    what = "a directory (not a scenario file)" if name == "x.yaml" else "a directory"
    message = f"{folder}: {what} holding no scenario file (*.yaml, *.yml)"
    out = capsys.readouterr()
    if command == "lint":
        assert out.out.splitlines()[0] == f"error: {message}"
    elif command == "run":
        assert out.err.splitlines() == [f"uno-fsm conformance: {message}"]
    else:
        assert out.err.splitlines() == [
            f"uno-fsm conformance features: {message} (1 scenario file error(s))"]


def test_pipelining_yes_in_hello_is_a_protocol_error(capsys: pytest.CaptureFixture[str]) -> None:
    """`"pipelining": "yes"` was taken as true."""
    program = shlex.join([*HOSTILE, "--mode", "pipelining-yes", "--when", "hello"])
    assert main(["conformance", "run", str(HARNESS), "--adapter", f"stdio:{program}", "-q",
                 "--no-expectations"]) == 2
    assert capsys.readouterr().err.strip() == (
        "uno-fsm conformance: stopped: the adapter failed to start 3 times in a row; last: "
        "protocol-error: hello: 'pipelining' must be true or false, not 'yes'; 3 scenario(s) "
        "not judged (listed as errored in the report)")


@pytest.mark.parametrize("command", ["diff", "fuzz"])
def test_a_fifo_as_the_example_database_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """`diff --database FIFO` ignored it and exited 0."""
    fifo = tmp_path / "db"
    os.mkfifo(fifo)
    argv = ["conformance", "diff", "--adapter", "reference", "--examples", "1"] \
        if command == "diff" else ["fuzz", "--minutes", "0.01"]
    assert main([*argv, "--database", str(fifo)]) == 2
    prefix = "uno-fsm conformance diff" if command == "diff" else "uno-fsm fuzz"
    assert one_line(capsys) == f"{prefix}: --database {fifo}: not a directory (a FIFO (named pipe))"


@pytest.mark.parametrize(("key", "value", "shown"), [
    ("name", 5, "5"), ("name", None, "None"), ("version", {"v": 1}, "{'v': 1}"),
    ("name", "x" * 201, "'" + "x" * 59 + "... (203 chars)"), ("version", 1.2, "1.2"),
])
def test_hello_name_and_version_are_short_strings(key: str, value: Any, shown: str) -> None:
    """A number, null, an object or a 100,000-character name was kept, and printed whole in
    every report's title."""
    from conformance.protocol import PROTOCOL, ProtocolError, check_hello

    assert check_hello({"protocol": PROTOCOL, key: "x" * 200})[key] == "x" * 200
    with pytest.raises(ProtocolError) as exc:
        check_hello({"protocol": PROTOCOL, key: value})
    assert exc.value.message == (f"hello: {key!r} must be a string of at most 200 characters, "
                                 f"not {shown}")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux)")
@pytest.mark.parametrize("command", ["diff", "fuzz"])
def test_an_example_database_that_cannot_be_made_is_refused(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    """`--database /proc/self/db` was taken, and Hypothesis then saved nothing, silently."""
    argv = ["conformance", "diff", "--adapter", "reference", "--examples", "1"] \
        if command == "diff" else ["fuzz", "--minutes", "0.01"]
    assert main([*argv, "--database", "/proc/self/db"]) == 2
    prefix = "uno-fsm conformance diff" if command == "diff" else "uno-fsm fuzz"
    assert one_line(capsys) == (f"{prefix}: --database /proc/self/db: cannot create the "
                                "directory: No such file or directory")


@pytest.mark.parametrize("command", ["diff", "fuzz"])
def test_the_example_database_is_made_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    folder = tmp_path / "a" / "b"
    argv = ["conformance", "diff", "--adapter", "reference", "--examples", "1", "--no-progress"] \
        if command == "diff" else ["fuzz", "--minutes", "0.01"]
    assert main([*argv, "--database", str(folder)]) == 0
    assert folder.is_dir()
