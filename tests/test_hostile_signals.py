"""Hostile inputs, third round (issue 26): signals, for every command that starts programs.

SIGINT, SIGTERM and SIGHUP to the main process alone end `conformance run`, `diff`,
`compliance --run`, `serve` and the pytest plugin the same way (uno_spec.signals): what they
started is gone, nothing is written half, no temporary file is left, and the exit status is
128 + the signal number. An interrupted run says so in every format (`interrupted: true`,
`ok: false`, `INTERRUPTED` on the console). A runner stopped (SIGSTOP) by a program is resumed
by that program's supervisor, which ends the program; a stop by job control is left alone.
(`uno-fsm check --jobs` workers: issue 25.)
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from harness_helpers import (  # noqa: F401 - no_process_left is an autouse fixture
    ENV,
    FIX,
    HARNESS,
    HOSTILE,
    gone,
    linux_only,
    no_process_left,
    pids,
    run,
    verdicts,
)

from conformance import processes, reports
from conformance.runner import Result, RunReport

pytestmark = linux_only

SCENARIOS = FIX / "scenarios" / "harness.yaml"
SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
ROOT = Path(__file__).resolve().parents[1]


def _hang(pidfile: Path, when: str = "setup", seed: str = "2") -> str:
    """A stdio adapter whose program starts a session escapee and hangs (at the first `setup`
    of seed `seed`, or at `hello`)."""
    extra = ["--seed", seed] if when == "setup" and seed else []
    return "stdio:" + shlex.join([*HOSTILE, "--mode", "setsid,hang", "--when", when, *extra,
                                  "--pidfile", str(pidfile)])


def _start(argv: list[str], **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "uno_cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)  # type: ignore[call-overload]


def _wait_for(pidfile: Path, count: int = 2) -> None:
    end = time.monotonic() + 60
    while len(pids(pidfile)) < count:
        assert time.monotonic() < end, "the program did not start"
        time.sleep(0.02)
    time.sleep(0.1)


def _stopped(proc: subprocess.Popen[str], sig: int) -> tuple[str, str]:
    proc.send_signal(sig)
    return proc.communicate(timeout=60)


# --- conformance run: SIGHUP as SIGTERM, the report in every format ---------------------------


def test_sighup_ends_a_run_as_sigterm_does(tmp_path: Path) -> None:
    """SIGHUP killed the runner outright: no report, a temporary file left beside it."""
    f = tmp_path / "pids"
    out = tmp_path / "report.json"
    proc = _start(["conformance", "run", str(SCENARIOS), "--adapter", _hang(f),
                   "--timeout", "60", "--no-expectations", "--format", "json", "-o", str(out)])
    _wait_for(f)
    _err_out, err = _stopped(proc, signal.SIGHUP)
    assert proc.returncode == 129, err
    assert err.strip().splitlines()[-2:] == [
        "INTERRUPTED by SIGHUP in " + err.split("INTERRUPTED by SIGHUP in ")[1].split("s:")[0]
        + "s: 1 of 3 scenarios judged (1 passed)",
        "uno-fsm conformance: interrupted by SIGHUP: 1 of 3 scenarios judged, the others not "
        "run; exit status 128 + signal number"]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["ok"], data["interrupted"], data["signal"], data["not_run"]) == \
        (False, True, "SIGHUP", 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pids", "report.json"]  # no temporary
    assert gone(f) == []


def _interrupted_report() -> dict[str, object]:
    passed = Result(id="harness.1", title="scenario 1 of 3", status="passed",
                    ruleset="classic-official", outcome="passed")
    report = RunReport([passed], {"name": "fake", "version": "1"}, "stdio:x", "2026-01-01",
                       0.5, ["interrupted by SIGTERM: 1 of 3 scenarios judged, the others not "
                             "run"], interrupted="SIGTERM", not_run=2)
    assert report.ok is False  # nothing unexpected was judged, but not everything was
    return reports.to_json(report)


def test_an_interrupted_run_says_so_in_every_format() -> None:
    """After SIGTERM the console printed `OK in 0.43s` and the JSON said `"ok": true`, with
    no `interrupted` field."""
    data = _interrupted_report()
    assert (data["ok"], data["interrupted"], data["signal"], data["not_run"]) == \
        (False, True, "SIGTERM", 2)
    assert reports.exit_code(data) == 143
    line = "INTERRUPTED by SIGTERM in 0.50s: 1 of 3 scenarios judged (1 passed)"
    assert reports.summary_line(data) == line
    assert reports.console_text(data).splitlines()[-1] == line
    back = reports.load_json(reports.render(data, "json"))  # valid against the schema
    assert back["interrupted"] is True
    root = ET.fromstring(reports.render(data, "junit"))
    assert (root.get("tests"), root.get("errors")) == ("2", "1")
    error = root.find("testsuite[@name='interrupted']/testcase/error")
    assert error is not None and error.get("message") == line
    md = reports.render(data, "markdown")
    assert "Result: **interrupted by SIGTERM: 1 of 3 scenarios judged**." in md


# --- diff, compliance --run, serve, the pytest plugin ---------------------------------------


@pytest.mark.parametrize(("sig", "code"), SIGNALS)
def test_diff_ends_with_its_programs_on_each_signal(
        tmp_path: Path, sig: signal.Signals, code: int) -> None:
    f = tmp_path / "pids"
    out = tmp_path / "diff.json"
    proc = _start(["conformance", "diff", "--adapter", _hang(f, seed=""), "--examples", "5",
                   "--no-database", "--timeout", "60", "--format", "json", "-o", str(out)])
    _wait_for(f)
    _o, err = _stopped(proc, sig)
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == f"uno-fsm conformance diff: interrupted by {sig.name}"
    assert not out.exists()
    assert gone(f) == []


@pytest.mark.parametrize(("sig", "code"), SIGNALS)
def test_diff_interrupted_while_fuzzing_writes_the_report_of_what_it_found(
        tmp_path: Path, sig: signal.Signals, code: int) -> None:
    """Stopped at its first `act` (fuzzing: the set-ups of the start probes are done), the
    diff writes its report, says it was interrupted and during what, ends its programs and
    exits 128 + the signal number. (The test above: stopped while the implementation starts,
    before anything is fuzzed, nothing is written.)"""
    f = tmp_path / "pids"
    out = tmp_path / "diff.json"
    hang = "stdio:" + shlex.join([*HOSTILE, "--mode", "setsid,hang", "--when", "act",
                                  "--pidfile", str(f)])
    proc = _start(["conformance", "diff", "--adapter", hang, "--examples", "5",
                   "--no-database", "--timeout", "60", "--format", "json", "-o", str(out)])
    # the pids: the program, the two it is restarted as after crashing on the `round` and
    # `game` probes (tiny_engine takes neither), and the grandchild of the hang at `act`
    _wait_for(f, count=4)
    _o, err = _stopped(proc, sig)
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == (
        f"uno-fsm conformance diff: interrupted by {sig.name} during fuzzing: 0 group(s) "
        "confirmed, 0 found but not confirmed; exit status 128 + signal number")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["interrupted"] == {"signal": sig.name, "during": "fuzzing"}
    assert data["groups"] == data["unconfirmed"] == data["dropped"] == []
    assert data["summary"]["unconfirmed"] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diff.json", "pids"]
    assert gone(f) == []


def test_compliance_run_interrupted_writes_nothing(tmp_path: Path) -> None:
    """The run of `compliance --run` stopped by SIGTERM: neither its report nor its page nor
    its expectation file is written from the part judged."""
    f = tmp_path / "pids"
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    (knowledge / "hostile.yaml").write_text(
        "name: hostile\ntitle: Hostile\nlabel: Hostile\n"
        "package: {registry: pypi, name: hostile, version: '1'}\n"
        f"adapter: {{spec: {json.dumps(_hang(f, seed=''))}, file: x.py}}\n"
        "commands: {setup: [], run: x, compliance: x}\n"
        "expectations: x.yaml\nreport: x.json\npage: x.md\ndriven: [by a hang]\nlacks: all\n",
        encoding="utf-8")
    report, page, written = tmp_path / "r.json", tmp_path / "p.md", tmp_path / "e.yaml"
    code = ("import sys; from pathlib import Path; import conformance.knowledge as k; "
            f"k.IMPLEMENTATIONS_DIR = Path({str(knowledge)!r}); "
            "from uno_cli.main import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", code, "conformance", "compliance",
                             "--implementation", "hostile", "--run", "--timeout", "60",
                             "--from", str(report), "--output", str(page),
                             "--write-expectations", str(written)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(f)
    _o, err = _stopped(proc, signal.SIGTERM)
    assert proc.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("uno-fsm conformance compliance: interrupted by SIGTERM: ") and \
        last.endswith(" scenarios judged; nothing written"), last
    assert sorted(p.name for p in tmp_path.iterdir()) == ["knowledge", "pids"]
    assert gone(f) == []


@pytest.mark.parametrize(("sig", "code"), SIGNALS[1:])
def test_serve_ends_on_sigterm_and_sighup(sig: signal.Signals, code: int) -> None:
    """`serve` of an in-process adapter that hangs in `setup`: it ends as any command does."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter",
         "module:hanging_adapter:HangingAdapter"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write('{"id": 1, "method": "hello"}\n{"id": 2, "method": "setup", "params": '
                     '{"seed": 2}}\n')
    proc.stdin.flush()
    assert proc.stdout.readline().startswith('{"id":1,')
    time.sleep(0.2)  # in `setup`, asleep
    _o, err = _stopped(proc, sig)
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == \
        f"uno-fsm conformance serve: interrupted by {sig.name}"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_the_pytest_plugin_leaves_no_program_on_any_signal(
        tmp_path: Path, sig: signal.Signals) -> None:
    f = tmp_path / "pids"
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir",
            str(tmp_path), "--uno-adapter", _hang(f), "--uno-corpus", str(SCENARIOS),
            "--uno-timeout", "60"]
    # each signal ends pytest from its default disposition (SIGINT as KeyboardInterrupt, the
    # others by their default action): pytest is started with those, whatever this process
    # inherited (`nohup` ignores SIGHUP, an ignored signal stays ignored across exec, and
    # pytest then rightly goes on)
    reset = ("import os, signal, sys\nfor s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):"
             "\n    signal.signal(s, signal.SIG_DFL)\nos.execv(sys.executable, sys.argv[1:])")
    proc = subprocess.Popen([sys.executable, "-c", reset, *argv], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(f)
    _stopped(proc, sig)
    assert proc.returncode != 0
    end = time.monotonic() + 10  # SIGTERM, SIGHUP: the supervisors are told of pytest's death
    while gone(f) and time.monotonic() < end:
        time.sleep(0.02)
    assert gone(f) == []


# --- a runner stopped by its program ----------------------------------------------------------


def test_a_program_that_stops_the_runner_is_ended_and_the_runner_resumed(
        tmp_path: Path) -> None:
    """An adapter sending SIGSTOP to the runner stopped the run until someone sent SIGCONT."""
    report, made = run(["--mode", "stop-runner", "--seed", "2"], timeout=30)
    first, second, third = verdicts(report)
    assert first == ("harness.1", "passed", "") and third == ("harness.3", "passed", "")
    # seen in the middle of `act`, or as the program's end between two requests
    assert second[:2] == ("harness.2", "errored") and re.fullmatch(
        r"crashed: (act: )?adapter was ended by its supervisor \(status 125: the runner was "
        r"found stopped, SIGSTOP, and resumed\)( before answering)?", second[2]), second
    assert len(made) == 2


def test_a_stop_by_job_control_is_left_to_the_user(tmp_path: Path) -> None:
    """Ctrl-Z stops the supervisors first (processes._job_stop), then the runner: no supervisor
    sees its runner stopped, the run stays stopped until SIGCONT and then goes on."""
    f = tmp_path / "pids"
    proc = _start(["conformance", "run", str(SCENARIOS), "--adapter", _hang(f),
                   "--timeout", "60", "--no-expectations", "-q"])
    _wait_for(f)
    table = processes._table()
    [supervisor] = [p for p, (parent, _s) in table.items() if parent == proc.pid]
    os.kill(supervisor, signal.SIGSTOP)  # what `_job_stop` does, in its order
    os.kill(proc.pid, signal.SIGSTOP)
    time.sleep(0.3)  # several of the supervisor's looks, were it running
    assert processes._table()[proc.pid][1] == "T"
    os.kill(proc.pid, signal.SIGCONT)
    os.kill(supervisor, signal.SIGCONT)
    time.sleep(0.2)
    assert processes.alive(supervisor) and len(gone(f)) == 2  # nothing was ended
    _o, err = _stopped(proc, signal.SIGTERM)
    assert proc.returncode == 143, err
    assert gone(f) == []


def test_job_stop_stops_the_supervisors_around_the_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_job_stop` (the SIGTSTP handler): every live program's supervisor is stopped before
    the runner stops, and resumed after it is resumed."""
    child = subprocess.Popen(["sleep", "30"])

    class Live:
        pid = child.pid

        def kill(self) -> None:
            pass

    seen: list[str] = []

    def state(stopped: bool = True) -> str:
        end = time.monotonic() + 2  # a signal takes effect soon, not at once
        while (processes._table()[child.pid][1] == "T") != stopped and time.monotonic() < end:
            time.sleep(0.005)
        return processes._table()[child.pid][1]

    def previous(_signum: int, _frame: object) -> None:  # stands for the stop itself
        seen.append(state())

    monkeypatch.setitem(processes._PREVIOUS, signal.SIGTSTP, previous)
    live = Live()
    processes.register(live)  # type: ignore[arg-type]
    try:
        processes._job_stop(signal.SIGTSTP, None)
        assert seen == ["T"] and state(stopped=False) != "T"
    finally:
        processes.unregister(live)  # type: ignore[arg-type]
        child.kill()
        child.wait()


@pytest.mark.parametrize(("sig", "stage"), [(signal.SIGINT, "reduction"),
                                            (signal.SIGTERM, "confirmation")])
def test_diff_interrupted_while_reducing_or_confirming_keeps_the_groups_confirmed(
        sig: signal.Signals, stage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal while the second of two groups is reduced (or confirmed): the first stays
    reported (reduced and confirmed), the second is listed as found and not confirmed, the
    report says which signal stopped it during what, in every format, and the mutant's
    programs are gone (no_process_left)."""
    from conformance import diff_cli, reduce
    from conformance.adapters.reference import ReferenceOracle
    from conformance.adapters.stdio import StdioAdapter
    from conformance.diff import Differ

    name = "reduce" if stage == "reduction" else "reproduces"
    owner: object = reduce if stage == "reduction" else reduce.Checker
    original = getattr(owner, name)
    groups: list[object] = []

    def interrupting(*args: object, **kw: object) -> object:
        key = args[1].key  # type: ignore[attr-defined] - (checker or self, div, ...)
        if key not in groups:
            groups.append(key)
            if len(groups) == 2:  # the second group: raised as Interrupted at once, inside
                os.kill(os.getpid(), sig)
        return original(*args, **kw)

    monkeypatch.setattr(owner, name, interrupting)
    mutant = [sys.executable, str(ROOT / "tests" / "fixtures" / "mutant_serve.py"),
              "wd4-challenge"]
    report = Differ(ReferenceOracle, lambda: StdioAdapter(mutant), shrink_seconds=0.5,
                    reduce_seconds=0.5, confirm_runs=1).run(
        examples=200, seed=1, until=lambda found: len(found) >= 2)
    assert report.interrupted == sig.name and report.interrupted_during == stage
    assert len(report.groups) == 1 and len(report.unconfirmed) == 1 and not report.ok
    assert report.groups[0][0].key != report.unconfirmed[0][0].key
    data = diff_cli.to_json(report, 1)
    assert data["interrupted"] == {"signal": sig.name, "during": stage}
    assert [u["why"] for u in data["unconfirmed"]] == \
        ["found, not reduced nor confirmed: the run was interrupted"]
    assert data["groups"][0]["reduction"]["candidates_tried"] >= 1
    line = (f"interrupted by {sig.name} during {stage}: 1 group(s) confirmed, 1 found but not "
            "confirmed")
    assert f"  INTERRUPTED: {line}\n" in diff_cli.render(data, "console")
    assert f"**{line}**" in diff_cli.render(data, "markdown")
