"""Hostile command lines and output paths: exit 2 with exactly one line on stderr, checked
before any corpus is loaded or program started; reports are complete, written atomically, and
valid JSON / XML / Markdown whatever text they carry."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from uno_cli.main import main

GOOD = """\
id: hostile.cli.ok
title: TITLE
ruleset: classic-official
cites: [classic-br:play:1]
rules: [CL.PLAY.MATCH]
features: [basic-play]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R7, B1], 1: [Y3]}
  discard: [R5]
  draw: [G1]
steps:
  - act: {player: 0, play: R7}
  - expect: {current: CURRENT}
"""


def scenario(tmp_path: Path, title: str = "plain", current: int = 1) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("TITLE", title).replace("CURRENT", str(current)),
                    encoding="utf-8")
    return path


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --- options: refused while parsing, before anything is read ----------------------------------


@pytest.mark.parametrize(("value", "why"), [
    ("inf", "'inf' is not a finite number"), ("nan", "'nan' is not a finite number"),
    ("0", "'0' is not greater than 0"), ("-1", "'-1' is not greater than 0"),
    ("ten", "not a number: 'ten'"), ("1e300", "'1e300' is more than 86400 seconds"),
])
@pytest.mark.parametrize("command", ["run", "diff", "compliance"])
def test_timeout(command: str, value: str, why: str, tmp_path: Path,
                 capsys: pytest.CaptureFixture[str]) -> None:
    """One parser for every command that waits on an adapter: `inf` and `1e300` once reached
    `diff` and overflowed its timers ("the oracle failed to start: ... OverflowError")."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("not: [valid", encoding="utf-8")  # never read: the option comes first
    rest = {"run": [str(broken)], "diff": ["--adapter", "reference", "--no-database"],
            "compliance": ["--implementation", "rlcard", "--run"]}[command]
    assert main(["conformance", command, *rest, "--timeout", value]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance {command}: argument --timeout: {why} "
                                f"(see `uno-fsm conformance {command} --help`)")


@pytest.mark.parametrize(("value", "why"), [
    ("-1", "-1 is negative (0 means no cap)"), ("lots", "not a whole number of MiB: 'lots'"),
    ("2.5", "not a whole number of MiB: '2.5'"), ("1e3", "not a whole number of MiB: '1e3'"),
    ("", "not a whole number of MiB: ''"),
    ("1048577", "1048577 MiB is more than 1048576 MiB (0 means no cap)"),
    ("99999999999999999999999", "99999999999999999999999 MiB is more than 1048576 MiB (0 "
     "means no cap)"),
])
@pytest.mark.parametrize("command", [["conformance", "run"],
                                     ["conformance", "diff", "--adapter", "reference"],
                                     ["conformance", "compliance", "--run"]])
def test_memory_limit(command: list[str], value: str, why: str, tmp_path: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    """One parser (uno_spec.options.mebibytes) for every command that starts programs."""
    assert main([*command, "--memory-limit", value]) == 2
    name = " ".join(command[:2])
    assert one_line(capsys) == (f"uno-fsm {name}: argument --memory-limit: {why} "
                                f"(see `uno-fsm {name} --help`)")


@pytest.mark.parametrize(("argv", "line"), [
    (["fuzz", "--minutes", "nan"], "uno-fsm fuzz: argument --minutes: 'nan' is not a finite "
     "number (see `uno-fsm fuzz --help`)"),
    (["fuzz", "--minutes", "-1"], "uno-fsm fuzz: argument --minutes: '-1' is not greater than "
     "0 (see `uno-fsm fuzz --help`)"),
    (["fuzz", "--minutes", "0"], "uno-fsm fuzz: argument --minutes: '0' is not greater than 0 "
     "(see `uno-fsm fuzz --help`)"),
    (["fuzz", "--players", "11"], "uno-fsm fuzz: argument --players: 11 is not from 2 to 10 "
     "(see `uno-fsm fuzz --help`)"),
    (["bench", "--repeat", "0"], "uno-fsm bench: argument --repeat: 0 is not at least 1 "
     "(see `uno-fsm bench --help`)"),
    (["bench", "--fuzz-examples", "0"], "uno-fsm bench: argument --fuzz-examples: 0 is not at "
     "least 1 (see `uno-fsm bench --help`)"),
    (["bench", "--actions", "2.5"], "uno-fsm bench: argument --actions: not a whole number: '2.5' "
     "(see `uno-fsm bench --help`)"),
    (["check", "--depth", "3", "--unbounded"], "uno-fsm check: argument --unbounded: not "
     "allowed with argument --depth (see `uno-fsm check --help`)"),
    (["simulate", "--max-actions", "0"], "uno-fsm simulate: argument --max-actions: 0 is not "
     "at least 1 (see `uno-fsm simulate --help`)"),
    (["play", "--seat", "10"], "uno-fsm play: argument --seat: 10 is not from 0 to 9 (see "
     "`uno-fsm play --help`)"),
    (["play", "--players", "3", "--seat", "3"], "uno-fsm play: --seat 3 does not exist with 3 "
     "players (seats 0 to 2)"),
    (["play", "--players", "1"], "uno-fsm play: argument --players: 1 is not from 2 to 10 (see "
     "`uno-fsm play --help`)"),
    (["conformance"], "uno-fsm conformance: name a sub-command (see `uno-fsm conformance "
     "--help`)"),
    (["spec"], "uno-fsm spec: name a sub-command (see `uno-fsm spec --help`)"),
    (["rules"], "uno-fsm rules: name a sub-command (see `uno-fsm rules --help`)"),
    ([], "uno-fsm: name a command (see `uno-fsm --help`)"),
    (["rules", "show"], "uno-fsm rules show: the following arguments are required: RULE-ID "
     "(see `uno-fsm rules show --help`)"),
    (["conformance", "run", "--adapter", "nope"], "uno-fsm conformance: unknown adapter 'nope': "
     "use reference, rlcard, rlcard-uno, uno-game, skilluno, stdio:'<command line>' or "
     "module:package.module:Class"),
    (["conformance", "serve", "--adapter", "nope"], "uno-fsm conformance: unknown adapter "
     "'nope': use reference, rlcard, rlcard-uno, uno-game, skilluno, stdio:'<command line>' or "
     "module:package.module:Class"),
    (["conformance", "run", "--format", "html"], "uno-fsm conformance run: argument --format: "
     "invalid choice: 'html' (choose from 'console', 'json', 'junit', 'markdown') (see "
     "`uno-fsm conformance run --help`)"),
])
def test_bad_options_are_one_line(argv: list[str], line: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert one_line(capsys) == line


@pytest.mark.parametrize("argv", [
    ["spec", "lint"], ["spec", "stats"], ["spec", "docs"], ["rules", "show", "X"],
    ["rules", "search", "x"], ["diagram"], ["play"], ["simulate"], ["conformance", "run"],
    ["conformance", "lint"], ["conformance", "report", "--from", "r.json"],
    ["conformance", "serve"], ["conformance", "compliance", "--from", "r.json"], ["fuzz"],
    ["bench"],
])
def test_every_command_refuses_an_unknown_option_in_one_line(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Refused by the command named, pointing at its own help (which lists its options)."""
    command = "uno-fsm " + " ".join(argv[:2] if argv[0] in ("spec", "rules", "conformance")
                                    else argv[:1])
    assert main([*argv, "--no-such-option"]) == 2
    assert one_line(capsys) == (f"{command}: unrecognized arguments: --no-such-option "
                                f"(see `{command} --help`)")


def test_words_no_command_takes_are_refused_at_the_top(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-such-option"]) == 2
    assert one_line(capsys) == ("uno-fsm: unrecognized arguments: --no-such-option "
                                "(see `uno-fsm --help`)")


@pytest.mark.parametrize("option", ["--id", "--ruleset", "--feature", "--rule", "--clause"])
def test_a_glob_longer_than_the_cap_is_refused_in_one_line(
        option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--id` of 20 000 `[` took 15 s (fnmatch's translation is quadratic in the `[` that close
    nothing); every glob option is capped at uno_spec.globs.MAX_GLOB characters, and the cap
    itself is taken (and matches nothing here)."""
    path = scenario(tmp_path)
    assert main(["conformance", "run", str(path), option, "[" * 201, "--no-progress"]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance run: argument {option}: a glob of 201 "
                                "characters, more than 200 (see `uno-fsm conformance run "
                                "--help`)")
    assert main(["conformance", "run", str(path), option, "[" * 200, "--no-progress"]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: no scenario matches {option} "
                                f"{'[' * 200} (of 1 loaded)")


def test_the_globs_of_a_run_are_capped_in_all(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The options repeat: 1 800 globs of 1 000 characters (a 2 MiB command line) took 114 s
    with fnmatch; the globs of a command line are capped in all (uno_spec.globs.MAX_GLOBS_TOTAL),
    before any is matched."""
    path = scenario(tmp_path)
    many = [arg for i in range(60) for arg in ("--id", "*a" * 97 + f"{i:06d}")]
    more = [arg for i in range(41) for arg in ("--clause", "[" * 194 + f"{i:06d}")]
    assert main(["conformance", "run", str(path), *many, *more, "--no-progress"]) == 2
    assert one_line(capsys) == ("uno-fsm conformance: --id, --ruleset, --feature, --rule, "
                                "--clause: 20200 characters of globs in all, more than 20000")


def test_a_filter_selecting_nothing_exits_2(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path)
    assert main(["conformance", "run", str(path), "--id", "hostile.cli.okk", "--feature",
                 "basic-play", "--no-progress"]) == 2
    assert one_line(capsys) == ("uno-fsm conformance: no scenario matches --id hostile.cli.okk "
                                "--feature basic-play (of 1 loaded)")


def test_many_filters_selecting_nothing_are_named_four(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Every filter was repeated in the line: 100 globs of 193 characters made it 20 kB."""
    path = scenario(tmp_path)
    globs = [f"{'z' * 190}{i:03d}" for i in range(100)]
    assert main(["conformance", "run", str(path), *(a for g in globs for a in ("--id", g)),
                 "--rule", "X.*", "--no-progress"]) == 2
    assert one_line(capsys) == ("uno-fsm conformance: no scenario matches "
                                + " ".join(f"--id {g}" for g in globs[:4])
                                + " and 97 more (of 1 loaded)")


@pytest.mark.parametrize("count", [1, 2])
def test_an_adapter_that_never_starts_exits_2_whatever_the_corpus_size(
        count: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With one or two scenarios (fewer than the three failed starts that stop a run) a
    program that could not be started exited 1, as a broken implementation does; with three
    or more, 2 (`--help`: "an adapter that never started"; three or more:
    tests/test_conformance_console.py::test_a_program_that_cannot_start_stops_the_run_*)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(count):
        (corpus / f"s{i}.yaml").write_text(
            GOOD.replace("hostile.cli.ok", f"hostile.cli.ok{i}").replace("TITLE", "plain")
            .replace("CURRENT", "1"), encoding="utf-8")
    missing = tmp_path / "no-such-program"
    out = tmp_path / "r.json"
    assert main(["conformance", "run", str(corpus), "--adapter", f"stdio:{missing}", "-q",
                 "--format", "json", "-o", str(out)]) == 2
    verdict, stop = capsys.readouterr().err.splitlines()
    plural = "" if count == 1 else "s"
    assert re.fullmatch(rf"STOPPED in \d+\.\d\ds: {count} scenario{plural} \({count} errored\)",
                        verdict), verdict
    why = {1: "for the run's only scenario", 2: "2 times in a row (each scenario of the run)"}
    assert stop == (f"uno-fsm conformance: stopped: the adapter failed to start {why[count]}; "
                    f"last: spawn-failed: cannot start {missing}: {missing}: no such executable; "
                    f"{count} scenario(s) not judged (listed as errored in the report)")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["stopped"]["after"] == 0 and data["stopped"]["ever_started"] is False
    assert [r["status"] for r in data["results"]] == ["errored"] * count


def test_expectations_are_checked_before_the_corpus(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("not: [valid", encoding="utf-8")
    missing = tmp_path / "missing.yaml"
    assert main(["conformance", "run", str(broken), "--expectations", str(missing)]) == 2
    assert one_line(capsys) == f"uno-fsm conformance: {missing}: cannot read: No such file or " \
        "directory"


ENTRY = "  - id: hostile.cli.ok\n    reason: known\n"


@pytest.mark.parametrize(("text", "line", "message"), [
    ("failures: 5\n", 1, "`failures` must be a list of `- id: ...` / `reason: ...` entries, "
     "not a number (5)"),  # was: internal error: TypeError: 'int' object is not iterable
    ("failures: abc\n", 1, "`failures` must be a list of `- id: ...` / `reason: ...` entries, "
     "not a string ('abc')"),  # was: fs.yaml:0: each failure needs an `id` (string)
    ("implementation: x\nfailures: {id: a, reason: b}\n", 2, "`failures` must be a list of "
     "`- id: ...` / `reason: ...` entries, not a mapping"),
    ("failures: 2024-01-01\n", 1, "`failures` must be a list of `- id: ...` / `reason: ...` "
     "entries, not a date"),
    ("- id: a\n  reason: b\n", 1, "an expectation file is a mapping (`implementation:`, "
     "`failures:`), not a list"),
    ("7\n", 1, "an expectation file is a mapping (`implementation:`, `failures:`), not a "
     "number (7)"),
    ("implementation: [x]\nfailures: []\n", 1, "`implementation` must be a string, not a list"),
    ("implementation: 5\n", 1, "`implementation` must be a string, not a number (5)"),
    (f"implementation: x\nfailures:\n{ENTRY}  - just-an-id\n", 2, "`failures` entry 2 must be "
     "a mapping with `id` and `reason`, not a string ('just-an-id')"),
    ("failures:\n  - [a, b]\n", 1, "`failures` entry 1 must be a mapping with `id` and "
     "`reason`, not a list"),
    ("failures:\n  - id: 5\n    reason: known\n", 2, "`failures` entry 1: `id` must be a "
     "string, not a number (5) (a scenario id or glob)"),
    ("failures:\n  - id: ''\n    reason: known\n", 2, "`failures` entry 1 has an empty `id` "
     "(a scenario id or glob)"),
    ("failures:\n  - reason: known\n", 2, "`failures` entry 1 needs an `id` (a scenario id or "
     "glob)"),
    ("failures:\n  - id: a\n    reason: [x]\n", 3, "failure 'a': `reason` must be a string, "
     "not a list"),
    ("failures:\n  - id: a\n    reason: true\n", 3, "failure 'a': `reason` must be a string, "
     "not true (a boolean)"),
    (f"failures:\n{ENTRY}    reasons: typo\n", 4, "`failures` entry 1: unknown key(s): "
     "reasons (an entry has `id` and `reason`)"),
    (f"failures:\n{ENTRY}  - id: '{'[' * 201}'\n    reason: slow\n", 4, "`failures` entry 2: "
     "`id` is a glob of 201 characters, more than 200"),  # quadratic in fnmatch
    ("failures:\n" + "".join(f"  - id: '{'[' * 194}{i:06d}'\n    reason: slow\n"
                             for i in range(101)), 202, "`failures` entry 101: the `id`s so far "
     "hold 20200 characters of globs in all, more than 20000"),
])
def test_an_expectation_file_of_the_wrong_shape_is_one_line(
        text: str, line: int, message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each shape named with the file and a real line (a list item has none of its own: the
    line of `failures:`), exit 2, before the corpus is loaded or the adapter started."""
    fs = tmp_path / "fs.yaml"
    fs.write_text(text, encoding="utf-8")
    assert main(["conformance", "run", str(scenario(tmp_path)), "--expectations", str(fs),
                 "--no-progress"]) == 2
    assert one_line(capsys) == f"uno-fsm conformance: {fs}:{line}: {message}"


@pytest.mark.parametrize("stdin", ["devnull", "closed"])
def test_play_needs_a_terminal(stdin: str) -> None:
    """Not a terminal, or no standard input at all: one line, exit 2, before any game."""
    kwargs: dict[str, object] = {"stdin": subprocess.DEVNULL}
    if stdin == "closed":
        kwargs = {"stdin": None, "preexec_fn": lambda: os.close(0)}
    out = subprocess.run([sys.executable, "-m", "uno_cli", "play"], capture_output=True,
                         text=True, timeout=60, **kwargs)  # type: ignore[call-overload]
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == ("uno-fsm play: standard input is not a terminal; play is interactive "
                          "(`uno-fsm simulate` plays unattended games)\n")


# --- output paths: checked before the run, written atomically ---------------------------------


def test_run_output_that_is_a_directory_is_refused_before_loading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("not: [valid", encoding="utf-8")
    assert main(["conformance", "run", str(broken), "--format", "json", "--output",
                 str(tmp_path)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {tmp_path}: cannot write: a directory, "
                                "not a regular file")


def test_run_output_that_is_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    assert main(["conformance", "run", str(scenario(tmp_path)), "--format", "json",
                 "--output", str(fifo)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {fifo}: cannot write: a FIFO (named "
                                "pipe), not a regular file")


def test_run_output_under_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    target = blocker / "out.json"
    assert main(["conformance", "run", str(scenario(tmp_path)), "--format", "json",
                 "--output", str(target)]) == 2
    assert one_line(capsys) == f"uno-fsm conformance: {target}: cannot write: Not a directory"


def test_a_second_run_replaces_the_report_whole_and_keeps_its_mode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reports" / "r.json"
    out.parent.mkdir()
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    assert main(["conformance", "run", str(scenario(tmp_path)), "--format", "json",
                 "--output", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["total"] == 1 and data["summary"]["passed"] == 1
    assert [r["id"] for r in data["results"]] == ["hostile.cli.ok"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in out.parent.iterdir()) == ["r.json"]  # no temporary left


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_spec import files

    target = tmp_path / "r.json"
    target.write_text("previous report", encoding="utf-8")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", refuse)
    assert files.write_file(target, "new report") == \
        f"{target}: cannot write: No space left on device"
    assert target.read_text(encoding="utf-8") == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_compliance_checks_both_outputs_before_writing_either(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    assert main(["conformance", "run", str(scenario(tmp_path)), "--format", "json", "--output",
                 str(report), "--no-progress"]) == 0
    capsys.readouterr()
    page = tmp_path / "page.md"
    assert main(["conformance", "compliance", "--implementation", "rlcard", "--from", str(report),
                 "--output", str(page), "--write-expectations", str(tmp_path)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance compliance: {tmp_path}: cannot write: a "
                                "directory, not a regular file")
    assert not page.exists()


def test_diagram_write_to_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--write", str(tmp_path)]) == 2
    assert one_line(capsys) == f"uno-fsm diagram: {tmp_path}: cannot write: a directory, not " \
        "a regular file"


def test_fuzz_database_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "db"
    db.write_text("", encoding="utf-8")
    assert main(["fuzz", "--minutes", "0.01", "--ruleset", "classic-official", "--database",
                 str(db)]) == 2
    assert one_line(capsys) == f"uno-fsm fuzz: --database {db}: not a directory (a file)"


# --- reading reports back ---------------------------------------------------------------------


def test_report_from_a_fifo_does_not_block(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    assert main(["conformance", "report", "--from", str(fifo)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {fifo}: cannot read: a FIFO (named "
                                "pipe), not a regular file")


def test_report_with_nan_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.json"
    bad.write_text('{"format": "uno-conformance-report/1", "duration": NaN}', encoding="utf-8")
    assert main(["conformance", "report", "--from", str(bad)]) == 2
    assert one_line(capsys) == (f"uno-fsm conformance: {bad}:1: not a JSON report: NaN is not "
                                "JSON (RFC 8259)")


# --- reports with hostile content -------------------------------------------------------------

HOSTILE = r"hostile \0 \x1b ]]> <b>x</b> </details> & | pipe \n new line ``` end"


def _failing_run(tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    out = tmp_path / f"r.{fmt}"
    path = scenario(tmp_path, title=f'"{HOSTILE}"', current=0)  # expects the wrong seat
    assert main(["conformance", "run", str(path), "--format", fmt, "--output", str(out),
                 "--no-progress", "--no-expectations"]) == 1
    capsys.readouterr()
    return out.read_text(encoding="utf-8")


def test_junit_stays_valid_xml_with_hostile_titles(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    root = ET.fromstring(_failing_run(tmp_path, "junit", capsys))
    [case] = root.iter("testcase")
    [failure] = case.iter("failure")
    assert failure.get("message") == "current: expected 0, observed 1"
    first = (failure.text or "").splitlines()[0]
    assert first == "hostile.cli.ok: hostile \ufffd \ufffd ]]> <b>x</b> </details> & | pipe "


def test_markdown_keeps_its_structure_with_hostile_titles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _failing_run(tmp_path, "markdown", capsys)
    assert text.count("</details>") == 1 and "<b>" not in text
    title = text.split("### `hostile.cli.ok` (failed)\n\n", 1)[1].splitlines()[0]
    assert title == ("hostile   \\]\\]&gt; &lt;b&gt;x&lt;/b&gt; &lt;/details&gt; &amp; \\| "
                     "pipe   new line \\`\\`\\` end")
    [row] = [line for line in text.splitlines() if line.startswith("| `hostile.cli.ok`")]
    assert row == "| `hostile.cli.ok` | classic-official | failed |"


def test_json_report_never_holds_nan() -> None:
    from conformance import reports

    data = {"summary": {"total": 1}, "duration": float("inf"),
            "results": [{"observed": {"x": float("nan"), "y": [float("-inf"), 1.5]}}]}
    text = reports.render(data, "json")

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the report")

    back = json.loads(text, parse_constant=refuse)
    assert back["duration"] == "Infinity"
    assert back["results"][0]["observed"] == {"x": "NaN", "y": ["-Infinity", 1.5]}


def test_long_messages_are_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance import reports

    monkeypatch.setattr(reports, "MAX_TEXT", 10)
    assert reports.cut("x" * 25) == "xxxxxxxxxx... [15 more characters]"
    assert reports.md("a|b\nc" + "d" * 20) == "a\\|b cddddd... [15 more characters]"


def test_spec_commands_refuse_a_directory_that_is_not_a_spec(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("stats", "lint", "docs"):
        assert main(["spec", command, "--spec", str(tmp_path)]) == 2
        assert one_line(capsys) == f"uno-fsm spec {command}: {tmp_path}: not a spec directory " \
            "(no sources/ and rules/ in it)"


def test_spec_docs_out_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "page.md"
    target.write_text("x", encoding="utf-8")
    assert main(["spec", "docs", "--out", str(target)]) == 2
    assert one_line(capsys) == (f"uno-fsm spec docs: {target}: not a directory (--out names "
                                "the folder of the generated pages)")


def test_spec_lint_with_a_fifo_as_seed_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    tree = tmp_path / "spec"
    shutil.copytree(Path(__file__).parent / "fixtures" / "spec" / "good", tree)
    (tree / "seeds" / "000_demo.txt").unlink()
    os.mkfifo(tree / "seeds" / "000_demo.txt")  # reading it would wait for a writer forever
    monkeypatch.chdir(tmp_path)
    assert main(["spec", "lint", "--spec", "spec"]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines()[0] == ("spec/sources/demo.yaml:2: seed file '000_demo.txt': "
                                       "cannot read: a FIFO (named pipe), not a regular file "
                                       "(in spec/seeds)")
    assert out.err == "uno-fsm spec lint: 1 problem(s)\n"


def test_report_that_breaks_the_report_schema(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "r.json"
    assert main(["conformance", "run", str(scenario(tmp_path)), "--format", "json", "--output",
                 str(good), "--no-progress"]) == 0
    capsys.readouterr()
    data = json.loads(good.read_text(encoding="utf-8"))
    data["results"][0]["status"] = "weird"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    for argv in (["conformance", "report", "--from", str(bad), "--format", "junit"],
                 ["conformance", "compliance", "--from", str(bad)]):
        assert main(argv) == 2
        assert one_line(capsys).endswith(
            f"{bad}: not a valid report: results[0].status: 'weird' is not one of ['passed', "
            "'failed', 'errored', 'unsupported', 'xfailed', 'xpassed']")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", [["rulesets"], ["rules", "show", "CL.PLAY.MATCH"],
                                  ["conformance", "run", "-q", "--id", "classic.wd4*"]])
def test_a_full_disk_is_one_line_not_an_internal_error(argv: list[str]) -> None:
    """`uno-fsm rulesets > /dev/full` said `internal error: OSError: [Errno 28] ...`."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = subprocess.run([sys.executable, "-m", "uno_cli", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"uno-fsm {argv[0]}: cannot write the output: No space "
                                        "left on device"]
