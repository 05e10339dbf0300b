"""The runner against in-process fake adapters: statuses, expectations, filters, timeouts."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.expectations import Entry, Expectations, ExpectationsError, load
from conformance.runner import Runner
from conformance.scenario import load_corpus

FIX = Path(__file__).parent / "fixtures" / "conformance"
sys.path.insert(0, str(FIX))

from tiny_engine import FakeAdapter, RaisingAdapter, WrongAdapter  # noqa: E402

TINY = load_corpus([FIX / "scenarios" / "tiny.yaml"]).scenarios
UNSUPPORTED = load_corpus([FIX / "scenarios" / "unsupported.yaml"]).scenarios


def statuses(report: Any) -> dict[str, str]:
    return {r.id: r.status for r in report.results}


def test_right_adapter_passes_everything() -> None:
    report = Runner(FakeAdapter).run(TINY)
    assert set(statuses(report).values()) == {"passed"}
    assert report.summary()["passed"] == 5 and report.ok


def test_wrong_adapter_fails_with_step_and_expected_vs_observed() -> None:
    report = Runner(WrongAdapter).run(TINY)
    st = statuses(report)
    assert st["tiny.play.reject-mismatch"] == "failed"
    assert st["tiny.draw.passes"] == "failed"
    assert st["tiny.play.match-colour"] == "passed"
    r = next(r for r in report.results if r.id == "tiny.draw.passes")
    assert r.step == 2 and r.step_kind == "expect"
    assert r.expected["current"] == 1 and r.observed["current"] == 0
    assert r.observed["hands"] == {"0": ["G3", "B2"]}  # only the seats the step asked about
    assert [m["key"] for m in r.mismatches] == ["current"]
    r = next(r for r in report.results if r.id == "tiny.play.reject-mismatch")
    assert r.step == 1 and r.expected == {"error": "card-does-not-match"}
    assert r.observed == "accepted"
    assert not report.ok


class StateChangingRejecter(FakeAdapter):
    """Rejects correctly but has already moved the card (breaks state_unchanged)."""

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        if action.get("play") == "G3":
            self.s["hands"]["0"].remove("G3")
            return {"code": "card-does-not-match"}
        return super().act(action)


def test_state_unchanged_detects_a_changed_state() -> None:
    report = Runner(StateChangingRejecter).run(TINY)
    r = next(r for r in report.results if r.id == "tiny.play.reject-mismatch")
    assert r.status == "failed" and "state changed" in r.message
    assert {m["key"] for m in r.mismatches} == {"hands", "hand_sizes"}


class WrongCode(FakeAdapter):
    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        res = super().act(action)
        return {"code": "wrong-decision", "message": "anything"} if res else None


def test_error_compared_by_code_only() -> None:
    report = Runner(WrongCode).run(TINY)
    r = next(r for r in report.results if r.id == "tiny.turn.not-your-turn")
    assert r.status == "failed" and "wrong-decision" in r.message
    assert r.observed == {"error": {"code": "wrong-decision", "message": "anything"}}


def test_unsupported_ruleset_observation_and_action() -> None:
    report = Runner(FakeAdapter).run(UNSUPPORTED)
    assert set(statuses(report).values()) == {"unsupported"}
    msgs = {r.id: r.message for r in report.results}
    assert "ruleset flip" in msgs["tiny.unsupported.ruleset"]
    assert "feature(s) flip" in msgs["tiny.unsupported.ruleset"]
    assert "observation(s) scores" in msgs["tiny.unsupported.observation"]
    assert "not modelled" in msgs["tiny.unsupported.action"]
    assert report.ok  # unsupported is not unexpected


def test_composed_ruleset_supported_when_parts_are_declared() -> None:
    from conformance.runner import _ruleset_supported

    assert _ruleset_supported("classic-official+stacking", ["classic-official", "stacking"])
    assert _ruleset_supported("classic-official+stacking", ["classic-official+stacking"])
    assert not _ruleset_supported("classic-official+stacking", ["classic-official"])


def test_in_process_exception_is_errored_and_adapter_recreated() -> None:
    made: list[Any] = []

    def factory() -> Any:
        made.append(RaisingAdapter())
        return made[-1]

    scs = list(TINY)
    boom = scs[0].__class__(**{**scs[0].__dict__, "id": "tiny.boom", "seed": 7})
    report = Runner(factory).run([boom, *scs])
    st = statuses(report)
    assert st["tiny.boom"] == "errored"
    assert all(st[s.id] == "passed" for s in scs)
    r = report.results[0]
    assert "RuntimeError: engine exploded" in r.message and "Traceback" in r.detail
    assert len(made) == 2  # thrown away and made afresh


class Slow(FakeAdapter):
    def observe(self, keys: list[str]) -> dict[str, Any]:
        time.sleep(0.3)
        return super().observe(keys)


def test_slow_in_process_adapter_times_out() -> None:
    report = Runner(Slow, timeout=0.1).run(TINY[:1])
    [r] = report.results
    assert r.status == "errored" and "timeout" in r.message


class BadHello(FakeAdapter):
    def hello(self) -> dict[str, Any]:
        return {**super().hello(), "protocol": "uno-conformance/0"}


def test_bad_hello_errors_every_scenario_and_gives_up() -> None:
    calls = []

    def factory() -> Any:
        calls.append(1)
        return BadHello()

    report = Runner(factory).run(TINY)
    assert report.summary()["errored"] == 5
    assert "uno-conformance/0" in report.results[0].message
    assert len(calls) == 3  # MAX_HELLO_FAILURES, then the rest errored without retrying
    assert "gave up" in report.results[-1].message


def test_expectations_xfail_and_xpass() -> None:
    exp = Expectations("fake", [
        Entry("tiny.draw.*", "draw does not pass the turn", 3),
        Entry("tiny.play.match-colour", "thought broken", 5),
        Entry("tiny.never.*", "stale", 7),
    ], "fake.yaml")
    report = Runner(WrongAdapter, expectations=exp).run(TINY)
    st = statuses(report)
    assert st["tiny.draw.passes"] == "xfailed"
    assert st["tiny.play.match-colour"] == "xpassed"
    assert st["tiny.play.reject-mismatch"] == "failed"
    r = next(r for r in report.results if r.id == "tiny.draw.passes")
    assert r.outcome == "failed" and r.reason == "draw does not pass the turn"
    assert any("tiny.never.*" in w for w in report.warnings)
    s = report.summary()
    assert (s["passed"], s["failed"], s["xfailed"], s["xpassed"]) == (2, 1, 1, 1)


def test_expectation_file_format(tmp_path: Path) -> None:
    good = tmp_path / "x.yaml"
    good.write_text("implementation: x\nfailures:\n  - id: a.*\n    reason: because\n")
    exp = load(good)
    assert exp.lookup("a.b") is not None and exp.lookup("b.a") is None
    bad = tmp_path / "bad.yaml"
    bad.write_text("failures:\n  - id: a.b\n")
    with pytest.raises(ExpectationsError, match="bad.yaml:2: .*reason"):
        load(bad)


def test_reference_expectations_file_loads() -> None:
    from conformance.expectations import default_path

    path = default_path("reference")
    assert path is not None and load(path).entries == []
