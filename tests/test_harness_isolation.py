"""No hang, whatever the adapter kind (issue 11, items 1 harness side and 2).

`module:` adapters run in a worker process (`conformance serve`), the reference engine in
process under a deadline alarm (or in a worker off the main thread). A hanging call ends as
`errored` with a `timeout:` message, the adapter is restarted, the run goes on, the report is
complete. `serve` answers each request as soon as it is handled, so the scenarios sent ahead
with a hanging one (a pipelining runner) get their own verdicts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import ENV, FIX, HARNESS, HOSTILE, no_process_left, verdicts  # noqa: F401

from conformance.adapters import AdapterSpecError, resolve
from conformance.adapters.isolation import REFIRE, DeadlineGuard, holding_alarm
from conformance.adapters.stdio import StdioAdapter
from conformance.protocol import PROTOCOL, AdapterError
from conformance.runner import Runner

HANGING = "module:hanging_adapter:HangingAdapter"


def _run(spec: str, timeout: float = 1.0) -> tuple[Any, list[Any]]:
    made: list[Any] = []
    adapter = resolve(spec, timeout=timeout)

    def factory() -> Any:
        made.append(adapter.factory())
        return made[-1]

    return Runner(factory, timeout=timeout).run(HARNESS), made


@pytest.mark.parametrize("seed", [2, 12], ids=["sleeps", "swallows-exceptions"])
def test_a_hanging_module_adapter_times_out_in_its_worker(seed: int) -> None:
    scenarios = [HARNESS[0], dataclasses.replace(HARNESS[1], seed=seed), HARNESS[2]]
    made: list[Any] = []
    adapter = resolve(HANGING, timeout=1.0)

    def factory() -> Any:
        made.append(adapter.factory())
        return made[-1]

    report = Runner(factory, timeout=1.0).run(scenarios)
    assert verdicts(report) == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "timeout: setup: no answer within 1.00s"),
        ("harness.3", "passed", "")]
    assert all(isinstance(a, StdioAdapter) for a in made) and len(made) == 2


def test_neighbours_of_a_hanging_request_get_their_verdicts_through_serve() -> None:
    """The worker declares pipelining: the three scenarios' requests arrive together. The
    answers to harness.1 are written before harness.2's setup hangs, so harness.1 passes."""
    report, made = _run(HANGING)
    assert verdicts(report) == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "timeout: setup: no answer within 1.00s"),
        ("harness.3", "passed", "")]
    assert len(made) == 2


def test_serve_writes_each_answer_before_handling_the_next_request() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter", HANGING],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        requests = [{"id": 1, "method": "hello", "params": {"protocol": PROTOCOL}},
                    {"id": 2, "method": "setup", "params": HARNESS[0].setup_params()},
                    {"id": 3, "method": "setup", "params": HARNESS[1].setup_params()},
                    {"id": 4, "method": "observe", "params": {"keys": ["current"]}}]
        proc.stdin.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        proc.stdin.flush()  # one write: the requests arrive in one read
        got = b""
        end = time.monotonic() + 20
        while got.count(b"\n") < 2 and time.monotonic() < end:
            if select.select([proc.stdout], [], [], 0.1)[0]:
                got += os.read(proc.stdout.fileno(), 65536)
        answers = [json.loads(x) for x in got.splitlines()]
        assert [a["id"] for a in answers] == [1, 2]  # request 3 hangs; 4 waits behind it
        assert answers[1] == {"id": 2, "result": {}}
    finally:
        proc.kill()
        proc.wait()


def test_a_module_adapter_whose_constructor_fails_is_reported_in_one_line() -> None:
    report, made = _run("module:hanging_adapter:BrokenAdapter")
    expected = ("crashed: hello failed: hello: adapter exited with status 2 before answering "
                "(stderr: uno-fsm conformance: cannot start adapter "
                "module:hanging_adapter:BrokenAdapter: RuntimeError: cannot open the game "
                "database)")
    assert [r.message for r in report.results] == [expected] * 3
    assert len(made) == 3


def test_a_module_adapter_naming_no_class_is_reported_in_one_line() -> None:
    report, _ = _run("module:hanging_adapter:Nope")
    assert report.results[0].message == (
        "crashed: hello failed: hello: adapter exited with status 2 before answering (stderr: "
        "uno-fsm conformance: module 'hanging_adapter' has no attribute 'Nope')")


def test_a_missing_module_is_refused_before_anything_starts() -> None:
    with pytest.raises(AdapterSpecError, match="cannot import adapter 'no_such_module:X'"):
        resolve("module:no_such_module:X")


@pytest.mark.parametrize("held", [False, True], ids=["per-call", "held"])
@pytest.mark.parametrize(("method", "seed"), [("setup", 2), ("setup", 12), ("act", 14)],
                         ids=["sleep", "swallowing-loop", "busy-loop"])
def test_the_deadline_guard_stops_a_pure_python_hang(method: str, seed: int, held: bool) -> None:
    """Its handler set around each call, or once for a whole run (`holding_alarm`, what
    `conformance diff` does): the same timeout, no timer left, the handler found put back."""
    from hanging_adapter import HangingAdapter

    guard = DeadlineGuard(HangingAdapter(), timeout=0.3)
    guard.set_deadline(time.monotonic() + 5)  # the shorter of the two applies
    params = {**HARNESS[0].setup_params(), "seed": seed}
    with contextlib.ExitStack() as stack:
        if held:
            stack.enter_context(holding_alarm())
        with pytest.raises(AdapterError) as info:
            if method == "setup":
                guard.setup(params)
            else:
                guard.setup({**params, "seed": 1})
                guard.inner.seed = seed
                guard.act({"player": 0, "play": "R7"})
        assert (info.value.code, info.value.message) == ("timeout",
                                                         f"{method}: no answer within 0.30s")
        # per call: no timer left; held: the holder's timer, firing every REFIRE seconds
        assert signal.getitimer(signal.ITIMER_REAL)[1] == (REFIRE if held else 0.0)
        assert (signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL) is held
        guard.setup({**params, "seed": 1})  # the next call runs (a late alarm ignored)
        assert guard.act({"player": 0, "play": "R7"}) is None
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_a_held_alarm_lets_a_call_run_until_its_deadline() -> None:
    """Within `holding_alarm` the timer fires every REFIRE seconds whatever the call: a call
    lasting several of those, inside its deadline, answers (each alarm before the deadline is
    ignored), and the next one, past it, is stopped."""

    class Slow:
        def setup(self, params: dict[str, Any]) -> None:
            end = time.monotonic() + params["seconds"]
            while time.monotonic() < end:  # busy: an alarm raises here if it raises at all
                pass

    guard = DeadlineGuard(Slow(), timeout=1.0)
    with holding_alarm():
        assert guard.setup({"seconds": 4 * REFIRE}) is None
        with pytest.raises(AdapterError, match="no answer within 1.00s"):
            guard.setup({"seconds": 3.0})
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_the_deadline_guard_passes_answers_through() -> None:
    from hanging_adapter import HangingAdapter

    guard = DeadlineGuard(HangingAdapter(), timeout=5)
    assert guard.hello()["name"] == "fake-hanging"
    guard.setup(HARNESS[0].setup_params())
    assert guard.act({"player": 0, "play": "R7"}) is None
    assert guard.observe(["current", "top"]) == {"current": 1, "top": "R7"}
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_hang_in_the_reference_engine_ends_in_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference path itself (resolve("reference")) enforces the deadline, whatever the
    engine does: here its setup is made to spin."""
    from conformance.adapters import reference

    plain = reference.ReferenceAdapter.setup

    def spin(self: Any, params: dict[str, Any]) -> Any:
        if params["seed"] == 2:
            while True:
                pass
        return plain(self, params)

    monkeypatch.setattr(reference.ReferenceAdapter, "setup", spin)
    report, made = _run("reference", timeout=0.5)
    assert verdicts(report) == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "timeout: setup: no answer within 0.50s"),
        ("harness.3", "passed", "")]
    assert all(isinstance(a, DeadlineGuard) for a in made) and len(made) == 2


def test_off_the_main_thread_the_reference_engine_runs_in_a_worker() -> None:
    out: dict[str, Any] = {}

    def body() -> None:
        out["report"], out["made"] = _run("reference", timeout=20)

    t = threading.Thread(target=body)
    t.start()
    t.join(60)
    assert [r.status for r in out["report"].results] == ["passed"] * 3
    assert [type(a) for a in out["made"]] == [StdioAdapter]


def test_the_cli_run_with_a_hanging_module_adapter_writes_a_complete_report(
        tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "uno_cli", "conformance", "run",
         str(FIX / "scenarios" / "harness.yaml"), "--adapter", HANGING, "--timeout", "1",
         "--no-expectations", "--format", "json", "--output", str(out)],
        capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["id"], r["status"], r["message"]) for r in data["results"]] == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "timeout: setup: no answer within 1.00s"),
        ("harness.3", "passed", "")]
    assert data["summary"]["total"] == 3


def test_a_slow_start_is_not_counted_against_the_first_scenario() -> None:
    """The program takes 0.6 s to answer `hello`; each scenario has 0.4 s (starting has the
    start budget, at least 10 s by default): everything passes."""
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter([*HOSTILE, "--mode", "slow", "--when", "hello"], timeout=0.4))
        return made[-1]

    report = Runner(factory, timeout=0.4).run(HARNESS)
    assert verdicts(report) == [(f"harness.{i}", "passed", "") for i in (1, 2, 3)]
    assert len(made) == 1


def test_a_program_that_never_greets_is_given_up_after_three_starts() -> None:
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter([*HOSTILE, "--mode", "hang", "--when", "hello"], timeout=0.2,
                                 start_timeout=0.3))
        return made[-1]

    report = Runner(factory, timeout=0.2, start_timeout=0.3).run([*HARNESS, HARNESS[0]])
    assert [r.message for r in report.results] == 3 * [
        "timeout: hello failed: hello: no answer within 0.30s"] + [
        "unavailable: adapter gave up after 3 failed starts; last: timeout: hello: no answer "
        "within 0.30s"]
    assert len(made) == 3
