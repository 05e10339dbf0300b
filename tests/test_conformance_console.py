"""The console report (issue 17 item 2): spec and adapter text printed as text, the terminal
output of `--output` and `--quiet`, a run stopped by repeated failed starts, and a duration
measured from the process start."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from conformance import reports, specdata
from conformance.runner import MAX_HELLO_FAILURES, Runner
from conformance.scenario import load_corpus
from uno_cli.main import main

FIX = Path(__file__).parent / "fixtures" / "conformance"
sys.path.insert(0, str(FIX))

from tiny_engine import FakeAdapter, WrongAdapter  # noqa: E402

TINY = FIX / "scenarios" / "tiny.yaml"
HOSTILE = ["guide-br:end:2", "[bold red]not bold[/]", "[link=http://x]y[/link]", ":smile:",
           ":thumbs_up: [/]", "\\[escaped]"]
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\x1b\]8;[^\x1b]*\x1b\\")


def wrong_data() -> dict[str, Any]:
    scs = load_corpus([TINY]).scenarios
    return reports.to_json(Runner(WrongAdapter, adapter_name="module:x").run(scs))


def terminal_text(data: dict[str, Any], detail: str = "full") -> str:
    """The console report as a colour terminal shows it, escape sequences removed."""
    buf = io.StringIO()
    reports.render_console(data, Console(file=buf, width=400, force_terminal=True,
                                         color_system="truecolor"), detail)
    return ANSI.sub("", buf.getvalue())


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_text_is_printed_as_text(hostile: str) -> None:
    data = wrong_data()
    failed = next(r for r in data["results"] if r["status"] == "failed")
    failed["title"] = f"title {hostile}"
    failed["message"] = f"message {hostile}"
    failed["quotes"]["rules"][0]["statement"] = f"statement {hostile}"
    data["warnings"] = [f"warning {hostile}"]
    data["adapter"] = f"stdio:{hostile}"
    text = terminal_text(data)
    for line in (f"FAILED {failed['id']}: title {hostile}", f"  failed: message {hostile}",
                 f"  rule CL.PLAY.MATCH: statement {hostile}", f"warning: warning {hostile}"):
        assert line in text.splitlines()
    assert f"via stdio:{hostile}" in text
    assert "\U0001f604" not in text and "\U0001f51a" not in text  # no :smile: / :end: emoji


def test_a_clause_id_with_an_emoji_code_is_quoted_verbatim() -> None:
    data = wrong_data()
    failed = next(r for r in data["results"] if r["status"] == "failed")
    failed["quotes"]["clauses"] = specdata.quote_clauses(["guide-br:end:2"])
    clause = failed["quotes"]["clauses"][0]
    text = terminal_text(data)
    assert f"  clause guide-br:end:2: \u201c{clause['text']}\u201d" in text.splitlines()
    assert "\U0001f51a" not in text


def test_summary_line_counts_every_status_present() -> None:
    data = wrong_data()
    data["duration"] = 5.7
    assert reports.summary_line(data) == ("UNEXPECTED RESULTS in 5.70s: 5 scenarios "
                                          "(3 passed, 2 failed)")
    assert terminal_text(data, "line") == reports.summary_line(data) + "\n"
    data["warnings"] = ["stale expectation 'x.*' (line 3): matches no scenario run"]
    summary = terminal_text(data, "summary").splitlines()
    assert summary[0] == "warning: stale expectation 'x.*' (line 3): matches no scenario run"
    assert summary[-1] == reports.summary_line(data) and "FAILED" not in "".join(summary)


def test_summary_line_says_one_scenario_in_the_singular() -> None:
    data = {"summary": {"total": 1, "passed": 1}, "results": [], "duration": 0.5}
    assert reports.summary_line(data) == "OK in 0.50s: 1 scenario (1 passed)"


def run_cli(*args: str) -> int:
    return main(["conformance", "run", str(TINY), "--no-progress", *args])


@pytest.fixture()
def fake_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIX))


VERDICT = re.compile(r"UNEXPECTED RESULTS in \d+\.\d\ds: 5 scenarios \(3 passed, 2 failed\)")


def test_output_puts_only_the_summary_on_the_terminal(
        tmp_path: Path, fake_path: None, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    assert run_cli("--adapter", "module:tiny_engine:WrongAdapter", "--format", "json",
                   "-o", str(out)) == 1
    cap = capsys.readouterr()
    assert cap.out == ""
    assert "FAILED" not in cap.err and "clause" not in cap.err  # no per-scenario detail
    assert "total" in cap.err  # the table
    assert VERDICT.fullmatch(cap.err.splitlines()[-1])
    assert json.loads(out.read_text())["summary"]["failed"] == 2
    # a document on stdout: the summary on stderr, the document alone on stdout
    assert run_cli("--adapter", "module:tiny_engine:WrongAdapter", "--format", "json") == 1
    cap = capsys.readouterr()
    assert json.loads(cap.out)["summary"]["failed"] == 2
    assert "FAILED" not in cap.err and VERDICT.fullmatch(cap.err.splitlines()[-1])


def test_quiet_prints_the_one_line_verdict(tmp_path: Path, fake_path: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--adapter", "module:tiny_engine:WrongAdapter", "--quiet") == 1
    cap = capsys.readouterr()
    assert VERDICT.fullmatch(cap.out.rstrip("\n")) and cap.out.count("\n") == 1
    assert cap.err == ""
    out = tmp_path / "r.xml"
    assert run_cli("--adapter", "module:tiny_engine:FakeAdapter", "-q", "--format", "junit",
                   "-o", str(out)) == 0
    cap = capsys.readouterr()
    assert cap.out == ""
    assert re.fullmatch(r"OK in \d+\.\d\ds: 5 scenarios \(5 passed\)\n", cap.err)
    assert out.read_text().startswith("<?xml")


def test_a_program_that_cannot_start_stops_the_run_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    missing = tmp_path / "no-such-program"
    assert run_cli("--adapter", f"stdio:{missing}", "--format", "json", "-o", str(out)) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.splitlines()
    assert lines[-1] == (f"uno-fsm conformance: stopped: the adapter failed to start 3 times in "
                        f"a row; last: spawn-failed: cannot start {missing}: {missing}: no such "
                        "executable; 5 scenario(s) not judged (listed as errored in the report)")
    assert re.fullmatch(r"STOPPED in \d+\.\d\ds: 5 scenarios \(5 errored\)", lines[-2])
    assert sum("stopped" in line for line in cap.err.splitlines()) == 1
    data = json.loads(out.read_text())
    assert data["stopped"]["after"] == 0 and data["stopped"]["ever_started"] is False
    assert [r["status"] for r in data["results"]] == ["errored"] * 5
    assert all("no such executable" in r["message"] for r in data["results"])
    assert reports.exit_code(data) == 2


def test_console_run_that_cannot_start_lists_no_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("--adapter", f"stdio:{tmp_path / 'nothing'}") == 2
    cap = capsys.readouterr()
    assert "ERRORED" not in cap.out and "at " not in cap.out
    assert re.fullmatch(r"STOPPED in \d+\.\d\ds: 5 scenarios \(5 errored\)",
                        cap.out.splitlines()[-1])
    assert len(cap.err.splitlines()) == 1 and cap.err.startswith("uno-fsm conformance: stopped:")


class Once(FakeAdapter):
    """Starts once, fails its first scenario (so it is restarted), then never starts again."""

    made = 0

    def __init__(self) -> None:
        Once.made += 1
        if Once.made > 1:
            raise OSError("port in use")
        super().__init__()

    def setup(self, params: dict[str, Any]) -> None:
        raise RuntimeError("crash")


def test_a_program_that_stops_starting_after_a_start_exits_1() -> None:
    Once.made = 0
    scs = load_corpus([TINY]).scenarios
    data = reports.to_json(Runner(Once, adapter_name="module:x").run(scs))
    assert Once.made == 1 + MAX_HELLO_FAILURES
    assert data["stopped"] == {
        "reason": "the adapter failed to start 3 times in a row; last: adapter raised "
                  "OSError: port in use", "after": 1, "ever_started": True}
    assert reports.exit_code(data) == 1
    text = reports.console_text(data, width=300)
    assert text.count("ERRORED ") == 1  # the scenario judged before the stop, not the rest
    assert reports.stop_line(data) in text.splitlines()
    assert "4 scenario(s) not judged" in reports.stop_line(data)  # type: ignore[operator]


def test_the_duration_counts_from_the_process_start(
        fake_path: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("conformance.cli.process_started", lambda: time.monotonic() - 100)
    assert run_cli("--adapter", "module:tiny_engine:FakeAdapter", "-q") == 0
    assert re.fullmatch(r"OK in 100\.\d\ds: 5 scenarios \(5 passed\)\n", capsys.readouterr().out)


def test_process_started_includes_what_ran_before_the_cli_was_imported() -> None:
    code = ("import time; time.sleep(0.5); import uno_cli.main as m; "
            "print(time.monotonic() - m.process_started(), time.monotonic() - m.IMPORTED)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    since_start, since_import = map(float, out)
    assert since_start >= 0.5 > since_import
