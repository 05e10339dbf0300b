"""Every process a program under test starts is gone when the run ends: on `bye`, on timeout,
on crash, after the program's own exit, and when the runner is interrupted (issue 11, item 3).

The hostile programs (fixtures/conformance/hostile_stdio.py) fork children in their process
group and orphans in new sessions, write their pids to a file; each case asserts they are gone,
and the autouse fixture lists this process's descendants after each case (none may be left).
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness_helpers import (  # noqa: F401 - no_process_left is an autouse fixture
    FIX,
    HARNESS,
    HOSTILE,
    gone,
    hostile,
    linux_only,
    no_process_left,
    pids,
    run,
    verdicts,
)

from conformance import processes
from conformance.adapters.stdio import StdioAdapter
from conformance.runner import Runner

pytestmark = linux_only

PASSED = [("harness.1", "passed", ""), ("harness.2", "passed", ""), ("harness.3", "passed", "")]


@pytest.mark.parametrize("mode", ["child", "setsid"])
def test_children_are_gone_after_bye(tmp_path: Path, mode: str) -> None:
    f = tmp_path / "pids"
    report, made = run(["--mode", mode, "--when", "hello", "--pidfile", str(f)])
    assert verdicts(report) == PASSED
    assert len(made) == 1 and len(pids(f)) == 2  # the program and what it started
    assert gone(f) == []


def test_a_timeout_kills_the_session_escapee_and_the_run_goes_on(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    report, made = run(["--mode", "setsid,hang", "--seed", "2", "--pidfile", str(f)])
    assert verdicts(report) == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "timeout: setup: no answer within 1.00s"),
        ("harness.3", "passed", "")]
    assert len(made) == 2  # restarted after the timeout
    assert len(pids(f)) == 3 and gone(f) == []  # the program, its escapee, the next program


def test_an_orphan_holding_stdout_does_not_hide_the_exit(tmp_path: Path) -> None:
    """The program exits; a grandchild in another session keeps its stdout open. The crash is
    seen at once (the supervisor ends the tree), not after the timeout: the verdict is the
    crash, where waiting for the end of stdout would have made it `timeout: setup: no answer
    within 30.00s`."""
    f = tmp_path / "pids"
    report, _ = run(["--mode", "stdout-holder", "--seed", "2", "--pidfile", str(f)],
                    timeout=30)
    assert verdicts(report)[1] == (
        "harness.2", "errored", "crashed: setup: adapter exited with status 4 before answering")
    assert [r.status for r in report.results] == ["passed", "errored", "passed"]
    assert gone(f) == []


def test_what_a_crashing_program_started_dies_with_it(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    report, _ = run(["--mode", "setsid,child,exit", "--seed", "1", "--pidfile", str(f)])
    assert verdicts(report)[0] == (
        "harness.1", "errored", "crashed: setup: adapter exited with status 4 before answering")
    assert [r.status for r in report.results] == ["errored", "passed", "passed"]
    assert len(pids(f)) == 4 and gone(f) == []  # program, escapee, child, next program


def test_a_runaway_that_keeps_forking_is_caught(tmp_path: Path) -> None:
    """A detached process forks and exits over and over (its pid keeps changing); the kill
    loop re-scans until the tree is empty."""
    f = tmp_path / "pids"
    a = hostile("--mode", "chain", "--when", "hello", "--pidfile", str(f))
    a.hello()
    time.sleep(0.2)
    a.close()
    assert len(pids(f)) > 3
    assert gone(f) == []


def test_a_program_killed_by_a_signal_is_named_so(tmp_path: Path) -> None:
    report, _ = run(["--mode", "signal", "--seed", "3"])
    assert verdicts(report)[2] == (
        "harness.3", "errored",
        "crashed: setup: adapter was killed by signal 15 (SIGTERM) before answering")


def test_a_program_ignoring_bye_is_killed_with_its_children(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    a = hostile("--mode", "ignore-bye,setsid", "--when", "hello", "--pidfile", str(f),
                bye_grace=0.2)
    a.hello()
    proc = a._proc
    assert proc is not None
    real_wait, waits = proc.wait, []

    def wait(timeout: float | None = None) -> int:
        waits.append(timeout)
        return real_wait(timeout)

    proc.wait = wait  # type: ignore[method-assign]
    a.close()
    # `bye` was sent, the program was given bye_grace to leave, did not, and was killed
    # (SIGKILL, reaped at once): the observable form of "close does not wait for it"
    assert waits == [0.2, 5]
    assert proc.returncode == -signal.SIGKILL
    assert a.pid is None and gone(f) == []


def test_a_closed_stdout_on_a_live_program_is_reported_as_such(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    report, _ = run(["--mode", "close-stdout", "--seed", "2", "--pidfile", str(f)],
                    exit_grace=0.2)
    assert verdicts(report)[1] == (
        "harness.2", "errored",
        "protocol-error: setup: the adapter closed its stdout but is still running")
    assert gone(f) == []


def test_a_flood_on_stderr_neither_blocks_nor_piles_up() -> None:
    """64 MiB on stderr before the answer: the scenario passes, only the tail is kept."""
    report, made = run(["--mode", "flood-stderr", "--mb", "64", "--seed", "1"], timeout=20,
                       stderr_tail=1000)
    assert verdicts(report) == PASSED
    assert len(made[0]._err) == 1000


def test_the_stderr_tail_is_quoted_when_the_program_crashes() -> None:
    report, _ = run(["--mode", "flood-stderr,exit", "--mb", "2", "--seed", "1"],
                    stderr_tail=100)
    res = report.results[0]
    assert res.message == ("crashed: setup: adapter exited with status 4 before answering "
                           f"(stderr: {'e' * 100})")
    assert res.detail == ("the program ran with its data memory capped at 4096 MiB per process "
                          "(RLIMIT_DATA; --memory-limit)\nstderr: " + "e" * 100)


def _cli_run(tmp_path: Path, f: Path) -> subprocess.Popen[str]:
    program = shlex.join([*HOSTILE, "--mode", "setsid,hang", "--seed", "2", "--pidfile",
                          str(f)])
    return subprocess.Popen(
        [sys.executable, "-m", "uno_cli", "conformance", "run",
         str(FIX / "scenarios" / "harness.yaml"), "--adapter", f"stdio:{program}",
         "--timeout", "60", "--no-expectations", "--format", "json",
         "--output", str(tmp_path / "report.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(f: Path, count: int) -> None:
    end = time.monotonic() + 30
    while len(pids(f)) < count:
        assert time.monotonic() < end, "the program did not start"
        time.sleep(0.02)


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_interrupted_run_kills_everything_and_writes_the_report(
        tmp_path: Path, sig: signal.Signals, code: int) -> None:
    f = tmp_path / "pids"
    proc = _cli_run(tmp_path, f)
    _wait_for(f, 2)  # harness.1 passed; harness.2 hangs, its escapee is started
    time.sleep(0.1)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == (
        f"uno-fsm conformance: interrupted by {sig.name}: 1 of 3 scenarios judged, the others "
        "not run; exit status 128 + signal number")
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [(r["id"], r["status"]) for r in data["results"]] == [("harness.1", "passed")]
    assert data["warnings"] == [
        f"interrupted by {sig.name}: 1 of 3 scenarios judged, the others not run"]
    assert gone(f) == []


def test_a_runner_killed_outright_still_takes_the_tree_with_it(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the supervisor is told of its parent's death
    (PR_SET_PDEATHSIG) and ends the program's tree."""
    f = tmp_path / "pids"
    proc = _cli_run(tmp_path, f)
    _wait_for(f, 2)
    proc.kill()
    proc.communicate(timeout=30)
    end = time.monotonic() + 10
    while gone(f) and time.monotonic() < end:
        time.sleep(0.02)
    assert gone(f) == []


def test_kill_descendants_walks_a_tree_it_did_not_start() -> None:
    """The /proc walk itself, on a tree three levels deep that no supervisor started."""
    proc = subprocess.Popen(["sh", "-c", "sh -c 'sleep 60 & wait' & wait"])
    try:
        end = time.monotonic() + 10
        while len(processes.descendants(proc.pid)) < 2:
            assert time.monotonic() < end
            time.sleep(0.01)
        tree = processes.descendants(proc.pid)
        assert processes.kill_descendants(proc.pid)
        assert [p for p in tree if processes.alive(p)] == []
    finally:
        proc.kill()
        proc.wait()


def test_a_missing_program_fails_to_start_with_one_clear_message() -> None:
    rep = Runner(lambda: StdioAdapter(["./no-such-uno", "--serve"], timeout=1)).run(
        [*HARNESS, HARNESS[0]])
    assert [r.status for r in rep.results] == ["errored"] * 4
    assert [r.message for r in rep.results[:3]] == 3 * [
        "spawn-failed: hello failed: cannot start ./no-such-uno --serve: ./no-such-uno: no such "
        "executable"]
    assert rep.results[3].message == (
        "unavailable: adapter gave up after 3 failed starts; last: spawn-failed: "
        "cannot start ./no-such-uno --serve: ./no-such-uno: no such executable")


def test_a_program_that_kills_its_supervisor_is_still_caught(tmp_path: Path) -> None:
    """`conformance run` is a subreaper too: the program and its escapee, orphaned by their
    supervisor's death, are re-parented to the runner, which kills and reaps them."""
    f = tmp_path / "pids"
    program = shlex.join([*HOSTILE, "--mode", "setsid,kill-parent", "--seed", "2",
                          "--pidfile", str(f)])
    proc = subprocess.run(
        [sys.executable, "-m", "uno_cli", "conformance", "run",
         str(FIX / "scenarios" / "harness.yaml"), "--adapter", f"stdio:{program}",
         "--timeout", "5", "--no-expectations", "--format", "json",
         "--output", str(tmp_path / "report.json")], capture_output=True, text=True,
        timeout=60)
    assert proc.returncode == 1, proc.stderr
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [(r["id"], r["status"], r["message"], r["step"]) for r in data["results"]] == [
        ("harness.1", "passed", "", None),
        ("harness.2", "errored", "crashed: adapter was killed by signal 9 (SIGKILL)", 1),
        ("harness.3", "passed", "", None)]
    assert len(pids(f)) == 3 and gone(f) == []
