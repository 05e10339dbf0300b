"""Play scenarios against an adapter and judge them.

For each scenario: check that the adapter supports its ruleset, features and observations
(otherwise `unsupported`), `setup`, then each step in order; a match scenario is one `match`
request instead, its answer judged by conformance.matches. An `act` with `error:` must be
rejected with that code (codes only, never messages); without `error:` it must be accepted.
`state_unchanged: true` observes every key the adapter supports before and after the rejected
action and compares. An `expect` step compares observations (conformance.compare). The first
failing step ends the scenario.

The runner survives adapters that crash, hang, flood or answer garbage: the scenario is
`errored`, the adapter is thrown away and a fresh one made (and greeted) for the next scenario.
An error is blamed on the adapter only when it came from the adapter: a request the runner
cannot encode, or a failure of the runner's own code, is reported as the runner's. SIGINT,
SIGTERM and SIGHUP stop the run between two calls: the adapters are killed (with every process they
started) and the report of the scenarios judged so far is returned, `interrupted` set.

An adapter that pipelines (a stdio program declaring `"pipelining": true`) gets the requests of
the next scenarios before their answers are read (`Runner.plan`: no request depends on an
answer); the judging is the same, answers after a deciding step are read and dropped.
"""

from __future__ import annotations

import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from conformance import compare as cmp
from conformance import matches, processes
from conformance.expectations import Expectations
from conformance.protocol import (
    MAX_OBSERVATION,
    START_TIMEOUT,
    AdapterError,
    RunnerError,
    Unsupported,
    check_hello,
    check_observation,
    check_rejection,
)
from conformance.scenario import Scenario, Step
from uno_spec.signals import raise_pending

STATUSES = ("passed", "failed", "errored", "unsupported", "xfailed", "xpassed")
UNEXPECTED = ("failed", "errored", "xpassed")
MAX_HELLO_FAILURES = 3
PIPELINE_WINDOW = 16  # scenarios in flight at most, for an adapter that pipelines


@dataclass
class Result:
    id: str
    title: str
    status: str
    file: str = ""
    line: int = 0
    ruleset: str = ""
    outcome: str = ""  # the status before expectation files were applied
    step: int | None = None  # 1-based index of the deciding step
    step_line: int | None = None
    step_kind: str | None = None
    action: dict[str, Any] | None = None
    expected: Any = None
    observed: Any = None
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""
    detail: str = ""
    reason: str = ""  # from the expectation file
    rules: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)
    duration: float = 0.0
    # what the failure breaks (conformance.blame.Blame.to_json), set after the run from the
    # reference's replay of the scenario (conformance.blame.blame_failures)
    broken: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "title": self.title, "status": self.status, "outcome": self.outcome,
            "file": self.file, "line": self.line, "ruleset": self.ruleset, "step": self.step,
            "step_line": self.step_line, "step_kind": self.step_kind, "action": self.action,
            "expected": self.expected, "observed": self.observed, "mismatches": self.mismatches,
            "message": self.message, "detail": self.detail, "reason": self.reason,
            "rules": self.rules, "cites": self.cites, "features": self.features,
            "duration": round(self.duration, 6),
        } | ({"broken": self.broken} if self.broken is not None else {})


@dataclass
class RunReport:
    results: list[Result]
    implementation: dict[str, Any]
    adapter: str
    started: str
    duration: float
    warnings: list[str] = field(default_factory=list)
    interrupted: str | None = None  # "SIGINT" / "SIGTERM" / "SIGHUP": the run was stopped early
    # Set when the adapter failed to start MAX_HELLO_FAILURES times in a row, or at every
    # scenario of a shorter run (`Runner.run`: it never started):
    # {"reason": one line, "after": results before that streak, "ever_started": bool}
    stopped: dict[str, Any] | None = None
    not_run: int = 0  # scenarios selected but not judged (an interrupted run)

    def summary(self) -> dict[str, int]:
        counts = {"total": len(self.results)} | {s: 0 for s in STATUSES}
        for r in self.results:
            counts[r.status] += 1
        return counts

    @property
    def ok(self) -> bool:
        """Nothing unexpected, and every scenario judged (an interrupted run is not ok)."""
        return self.interrupted is None and not any(r.status in UNEXPECTED for r in self.results)


class _StepFailed(Exception):
    def __init__(self, message: str, expected: Any = None, observed: Any = None,
                 mismatches: list[cmp.Mismatch] | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.observed = observed
        self.mismatches = mismatches or []
        self.line = line  # a match scenario: the line of the expectation that failed


class _Timeout(Exception):
    pass


class _AdapterRaised(Exception):
    """An in-process adapter raised something that is not part of the protocol."""

    def __init__(self, exc: Exception, detail: str) -> None:
        super().__init__(f"adapter raised {type(exc).__name__}: {exc}")
        self.detail = detail


def _ask(fn: Callable[..., Any], *args: Any) -> Any:
    """Call the adapter: an exception outside the protocol is the adapter's (`_AdapterRaised`),
    so that what the runner's own code raises is never blamed on it."""
    try:
        return fn(*args)
    except (AdapterError, Unsupported, RunnerError):
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the adapter raised
        raise _AdapterRaised(exc, traceback.format_exc(limit=8)) from None


def _ruleset_supported(ruleset: str, declared: Sequence[str]) -> bool:
    """Exact id declared, or the base and every `+variant` declared separately."""
    return ruleset in declared or all(part in declared for part in ruleset.split("+"))


def _judge_setup(sc: Scenario, refusal: dict[str, Any] | None) -> None:
    """`expect_setup_error`: the set-up must be refused with that code; without it, a set-up
    refused with a rule code (not `unsupported`) fails the scenario."""
    want = sc.expect_setup_error
    if refusal is None:
        if want is not None:
            raise _StepFailed(f"set-up accepted; expected error {want}",
                              expected={"setup_error": want}, observed="accepted")
        return
    got = f"set-up rejected with {refusal['code']}" + (
        f" (rule {refusal['rule']})" if refusal.get("rule") else "")
    if want is None:
        raise _StepFailed(got + (f": {refusal['message']}" if refusal.get("message") else ""),
                          expected="accepted", observed={"setup_error": refusal})
    if refusal["code"] != want:
        raise _StepFailed(f"{got}, expected {want}", expected={"setup_error": want},
                          observed={"setup_error": refusal})


def missing_capabilities(sc: Scenario, caps: dict[str, Any]) -> list[str]:
    """What the scenario needs and the adapter does not declare (empty: supported)."""
    missing = []
    if not _ruleset_supported(sc.ruleset, caps.get("rulesets", [])):
        missing.append(f"ruleset {sc.ruleset}")
    count = sc.setup.get("players") if sc.match is None else None
    players = caps.get("players") or {}
    # a set-up the rules refuse is judged whatever the count (the refusal is the point)
    if isinstance(count, int) and isinstance(players, dict) and sc.expect_setup_error is None \
            and not players.get("min", 1) <= count <= players.get("max", count):
        missing.append(f"{count} players (plays {players.get('min')} to {players.get('max')})")
    feats = [f for f in sc.features if f not in caps.get("features", [])]
    if feats:
        missing.append("feature(s) " + ", ".join(feats))
    params = [p for p in sc.param_paths() if p not in caps.get("params", [])]
    if params:
        missing.append("parameter(s) " + ", ".join(params))
    obs = sorted(sc.observation_keys() - set(caps.get("observations", [])))
    if obs:
        missing.append("observation(s) " + ", ".join(obs))
    return missing


def _starts(failures: int) -> str:
    """`2 times in a row (each scenario of the run)`: the failed starts of a run shorter than
    MAX_HELLO_FAILURES that never started its adapter."""
    if failures == 1:
        return "for the run's only scenario"
    return f"{failures} times in a row (each scenario of the run)"


class Runner:
    """Runs scenarios through adapters made by `factory` (called again after each failure)."""

    def __init__(self, factory: Callable[[], Any], *, adapter_name: str = "",
                 timeout: float = 10.0, expectations: Expectations | None = None,
                 on_start: Callable[[int], None] | None = None,
                 on_result: Callable[[Result], None] | None = None,
                 max_observation: int = MAX_OBSERVATION, adopt_orphans: bool = False,
                 start_timeout: float = START_TIMEOUT) -> None:
        self.factory = factory
        self.start_timeout = start_timeout  # for the adapter's start and `hello`
        self.adopt_orphans = adopt_orphans  # see processes.adopting_orphans
        self.max_observation = max_observation
        self.adapter_name = adapter_name
        self.timeout = timeout
        self.expectations = expectations or Expectations()
        self.on_start = on_start
        self.on_result = on_result
        self.adapter: Any = None
        self.caps: dict[str, Any] = {}
        self.hello_failures = 0
        self.hello_error = ""
        self.ever_started = False  # an adapter of this runner answered `hello` once
        # scenarios whose requests were sent to `_sent_to` and not judged yet: (id, last id)
        self._sent: deque[tuple[str, int]] = deque()
        self._sent_to: Any = None

    # --- adapter lifecycle -----------------------------------------------------------------

    def _discard(self) -> None:
        adapter, self.adapter = self.adapter, None
        if adapter is not None:
            try:
                adapter.close()
            except Exception:  # noqa: BLE001 - a broken adapter must not stop the run
                pass

    def close(self) -> None:
        """Throw the current adapter away (a program is stopped); the next `run_one` makes a
        fresh one. `run` does this itself; callers of `run_one` call it when done."""
        self._discard()

    def _kill(self) -> None:
        """Stop the adapter now, without the `bye` courtesy (an interrupt)."""
        adapter, self.adapter = self.adapter, None
        kill = getattr(adapter, "kill", None)
        if callable(kill):
            try:
                kill()
            except Exception:  # noqa: BLE001
                pass
        processes.kill_all()

    def _ensure(self) -> Any:
        if self.adapter is not None:
            return self.adapter
        if self.hello_failures >= MAX_HELLO_FAILURES:
            raise AdapterError("unavailable", f"adapter gave up after {self.hello_failures} "
                               f"failed starts; last: {self.hello_error}")
        adapter = None
        try:
            adapter = _ask(self.factory)
            if hasattr(adapter, "set_deadline"):
                adapter.set_deadline(time.monotonic() + max(self.timeout, self.start_timeout))
            caps = check_hello(_ask(adapter.hello))
        except Exception as exc:
            self.hello_failures += 1
            self.hello_error = str(exc)
            try:
                if adapter is not None:
                    adapter.close()
            except Exception:  # noqa: BLE001
                pass
            if isinstance(exc, AdapterError):
                exc.message = f"hello failed: {exc.message}"
                raise
            if isinstance(exc, _AdapterRaised):
                raise AdapterError("hello-failed", f"hello failed: {exc}",
                                   detail=exc.detail) from None
            raise
        self.hello_failures = 0
        self.ever_started = True
        self.adapter, self.caps = adapter, caps
        return adapter

    # --- one scenario ----------------------------------------------------------------------

    def _pipeline(self, adapter: Any, sc: Scenario, ahead: Sequence[Scenario]) -> int:
        """Make sure the scenario's requests were sent, and keep the program busy: about
        PIPELINE_WINDOW scenarios are sent ahead, half a window per write, so that it works on
        the next ones while this one is judged. Returns the id of this scenario's last request."""
        sent = self._sent
        if self._sent_to is not adapter or not sent or sent[0][0] != sc.id or not adapter.pending:
            _ask(adapter.drain)  # nothing usable in flight (a restart, a skipped scenario)
            sent.clear()
            self._sent_to = adapter
        batch: list[Scenario] = [] if sent else [sc]
        if len(sent) <= PIPELINE_WINDOW // 2:
            known = {sid for sid, _ in sent}
            room = PIPELINE_WINDOW - len(sent) - len(batch)
            for nxt in ahead:
                if room <= 0:
                    break
                if nxt.id not in known and not missing_capabilities(nxt, self.caps):
                    batch.append(nxt)
                    room -= 1
        if batch:
            plans = [self.plan(b) for b in batch]
            last = int(_ask(adapter.pipeline, [call for plan in plans for call in plan]))
            ends = []
            for plan in reversed(plans):
                ends.append(last)
                last -= len(plan)
            sent.extend(zip((b.id for b in batch), reversed(ends), strict=True))
        return sent.popleft()[1]

    def run_one(self, sc: Scenario, ahead: Sequence[Scenario] = ()) -> Result:
        """Play one scenario. `ahead`: the scenarios played next, whose requests an adapter
        that pipelines may receive now."""
        res = Result(id=sc.id, title=sc.title, status="passed", file=sc.file, line=sc.line,
                     ruleset=sc.ruleset, rules=list(sc.rules), cites=list(sc.cites),
                     features=list(sc.features))
        t0 = time.monotonic()
        deadline = t0 + self.timeout
        step: Step | None = None
        last: int | None = None
        try:
            adapter = self._ensure()
            deadline = time.monotonic() + self.timeout  # starting is not the scenario's time
            missing = missing_capabilities(sc, self.caps)
            if missing:
                res.status = "unsupported"
                res.message = "adapter does not declare " + "; ".join(missing)
            else:
                if hasattr(adapter, "set_deadline"):
                    adapter.set_deadline(deadline)
                if self.caps.get("pipelining") is True and hasattr(adapter, "pipeline"):
                    last = self._pipeline(adapter, sc, ahead)
                if sc.match is not None:
                    self._run_match(adapter, sc, deadline)
                else:
                    refusal = _ask(adapter.setup, sc.setup_params())
                    self._check_time(deadline, "setup")
                    _judge_setup(sc, check_rejection(refusal, "setup"))
                    for step in sc.steps:
                        self._run_step(adapter, step, deadline)
                step = None
        except _StepFailed as exc:
            res.status = "failed"
            res.message = exc.message
            res.expected, res.observed = exc.expected, exc.observed
            res.mismatches = [{"key": m.key, "expected": m.expected, "observed": m.observed}
                              for m in exc.mismatches]
            res.step_line = exc.line
        except Unsupported as exc:
            res.status = "unsupported"
            res.message = f"adapter: {exc}" if str(exc) else "adapter answered unsupported"
        except (AdapterError, _Timeout, _AdapterRaised) as exc:
            res.status = "errored"
            res.message = f"{exc.code}: {exc.message}" if isinstance(exc, AdapterError) \
                else str(exc)
            res.detail = getattr(exc, "detail", "")
            self._discard()
        except RunnerError as exc:  # nothing was sent: the adapter is still usable
            res.status = "errored"
            res.message = f"runner error: {exc}"
        except Exception as exc:  # noqa: BLE001 - the runner's own failure, said as such
            res.status = "errored"
            res.message = f"internal error in the runner: {type(exc).__name__}: {exc}"
            res.detail = traceback.format_exc(limit=8)
            self._discard()
        if last is not None and self.adapter is not None and self.adapter.pending:
            try:  # answers to the requests after the deciding step: read and dropped
                _ask(self.adapter.drain, last)
            except Exception:  # noqa: BLE001 - the verdict stands; restart the adapter
                self._discard()
        if step is not None and res.status != "passed":
            res.step, res.step_line, res.step_kind = step.index, step.line, step.kind
            res.action = step.act
            if res.status == "errored" and res.expected is None:
                res.expected = step.to_json()
        res.duration = time.monotonic() - t0
        res.outcome = res.status
        self._apply_expectations(res)
        return res

    def plan(self, sc: Scenario) -> list[tuple[str, dict[str, Any]]]:
        """Every request the scenario makes if all its steps pass, in order (`setup`, then per
        step: `act`, with an `observe` of every key before and after for `state_unchanged`;
        `observe` for an `expect`). None depends on an earlier answer, so an adapter that
        pipelines can send them all at once (docs/adapter-protocol.md)."""
        if sc.match is not None:
            return [("match", sc.match_params())]
        every = {"keys": list(self.caps.get("observations", []))}
        calls: list[tuple[str, dict[str, Any]]] = [("setup", sc.setup_params())]
        for step in sc.steps:
            if step.act is not None:
                if step.state_unchanged:
                    calls.append(("observe", every))
                calls.append(("act", {"action": step.act}))
                if step.state_unchanged:
                    calls.append(("observe", every))
            elif step.expect is not None:
                calls.append(("observe", {"keys": list(step.expect)}))
        return calls

    def _check_time(self, deadline: float, what: str) -> None:
        if time.monotonic() > deadline:
            raise _Timeout(f"timeout: scenario exceeded {self.timeout:g}s (during {what})")

    def _observe(self, adapter: Any, keys: list[str]) -> dict[str, Any]:
        return check_observation(_ask(adapter.observe, keys), limit=self.max_observation)

    def _run_step(self, adapter: Any, step: Step, deadline: float) -> None:
        if step.act is not None:
            before: dict[str, Any] | None = None
            if step.state_unchanged:
                before = self._observe(adapter, list(self.caps.get("observations", [])))
            rejection = check_rejection(_ask(adapter.act, step.act))
            self._check_time(deadline, f"step {step.index}")
            if step.error is None and rejection is not None:
                raise _StepFailed(
                    f"action rejected with {rejection['code']}"
                    + (f" (rule {rejection['rule']})" if rejection.get("rule") else "")
                    + (f": {rejection['message']}" if rejection.get("message") else ""),
                    expected="accepted", observed={"error": rejection})
            if step.error is not None:
                if rejection is None:
                    raise _StepFailed(f"action accepted; expected error {step.error}",
                                      expected={"error": step.error}, observed="accepted")
                if rejection["code"] != step.error:
                    raise _StepFailed(
                        f"action rejected with {rejection['code']}, expected {step.error}",
                        expected={"error": step.error}, observed={"error": rejection})
            if before is not None:
                after = self._observe(adapter, list(self.caps.get("observations", [])))
                self._check_time(deadline, f"step {step.index}")
                changes = cmp.diff_states(before, after)
                if changes:
                    raise _StepFailed(
                        "state changed after a rejected action: "
                        + ", ".join(m.key for m in changes),
                        expected={m.key: m.expected for m in changes},
                        observed={m.key: m.observed for m in changes}, mismatches=changes)
        elif step.expect is not None:
            obs = self._observe(adapter, list(step.expect))
            self._check_time(deadline, f"step {step.index}")
            mismatches = cmp.compare(step.expect, obs)
            if mismatches:
                raise _StepFailed("; ".join(m.describe() for m in mismatches),
                                  expected=step.expect,
                                  observed=cmp.restrict(step.expect, obs),
                                  mismatches=mismatches)

    def _run_match(self, adapter: Any, sc: Scenario, deadline: float) -> None:
        """A match scenario: one `match` request, its answer judged against the scenario's
        expectations (conformance.matches). An adapter without the operation is
        `unsupported`."""
        ask = getattr(adapter, "match", None)
        if not callable(ask):
            raise Unsupported("the adapter has no `match` operation")
        answer = matches.check_answer(_ask(ask, sc.match_params()), limit=self.max_observation)
        self._check_time(deadline, "match")
        expect = (sc.match or {})["expect"]
        mismatches = matches.judge(expect, answer)
        if mismatches:
            key = mismatches[0].key  # schedule.hands (its own line), totals.1 (the totals')
            line = sc.raw_lines.get(f"expect.{key}") or \
                sc.raw_lines.get(f"expect.{key.split('.')[0]}")
            raise _StepFailed("; ".join(m.describe() for m in mismatches), expected=expect,
                              observed=matches.restrict(expect, answer), mismatches=mismatches,
                              line=line)

    def _apply_expectations(self, res: Result) -> None:
        entry = self.expectations.lookup(res.id)
        if entry is None:
            return
        res.reason = entry.reason
        if res.status in ("failed", "errored"):
            res.status = "xfailed"
        elif res.status == "passed":
            res.status = "xpassed"
            res.message = ("listed as a known failure but passed: remove it from "
                           f"{self.expectations.file or 'the expectation file'}")

    # --- the whole run ---------------------------------------------------------------------

    def run(self, scenarios: Sequence[Scenario]) -> RunReport:
        started = datetime.now(UTC).isoformat(timespec="seconds")
        t0 = time.monotonic()
        if self.on_start:
            self.on_start(len(scenarios))
        results: list[Result] = []
        interrupted: str | None = None
        stopped: dict[str, Any] | None = None
        streak = 0  # index of the first result of the current streak of failed starts
        orphans = processes.adopting_orphans() if self.adopt_orphans else nullcontext()
        with processes.interrupts(), orphans:
            try:
                for i, sc in enumerate(scenarios):
                    raise_pending()  # each scenario a safe point (uno_spec.signals)
                    r = self.run_one(sc, scenarios[i + 1:i + 1 + PIPELINE_WINDOW])
                    results.append(r)
                    if self.on_result:
                        self.on_result(r)
                    if self.hello_failures == 1:
                        streak = i
                    if stopped is None and self.hello_failures >= MAX_HELLO_FAILURES:
                        # the rest are reported errored without a start (run_one gives up)
                        stopped = {"reason": f"the adapter failed to start "
                                   f"{self.hello_failures} times in a row; last: "
                                   f"{self.hello_error}", "after": streak,
                                   "ever_started": self.ever_started}
            except processes.Interrupted as sig:
                interrupted = sig.name
                self._kill()
            finally:
                self._discard()
        if interrupted is None and stopped is None and results and not self.ever_started \
                and self.hello_failures:
            # fewer scenarios than MAX_HELLO_FAILURES, each a failed start: the adapter never
            # started, as after three failed starts (exit 2, whatever the corpus's size)
            stopped = {"reason": f"the adapter failed to start {_starts(self.hello_failures)}; "
                       f"last: {self.hello_error}", "after": streak, "ever_started": False}
        if interrupted is not None:
            warnings = [f"interrupted by {interrupted}: {len(results)} of {len(scenarios)} "
                        "scenarios judged, the others not run"]
        else:
            warnings = [f"stale expectation {e.pattern!r} (line {e.line}): matches no scenario "
                        "run" for e in self.expectations.stale([s.id for s in scenarios])]
        keys = ("name", "version", "protocol", "rulesets", "features", "observations",
                "players")
        impl: dict[str, Any] = {k: self.caps[k] for k in keys if k in self.caps}
        if not impl and self.hello_error:
            impl = {"error": self.hello_error}
        return RunReport(results, impl, self.adapter_name, started, time.monotonic() - t0,
                         warnings, interrupted, stopped, not_run=len(scenarios) - len(results))
