"""A signal whose exception vanishes still ends the command (uno_spec.signals).

Python runs a signal's handler in whatever Python code runs next. When the signal lands during
a garbage collection while Hypothesis' `gc.callbacks` entry (`gc_cumulative_time`) is
registered, that is the callback, whose exceptions Python prints as "Exception ignored" and
drops; when it lands inside Hypothesis' bookkeeping, Hypothesis raises another error in its
place (`FlakyStrategyDefinition`). `conformance diff`, `fuzz` and `bench` then ran to their end
and exited 0, or exited 2 with an internal error, for one SIGTERM in three to six sent at
random moments (an audit, by hand). Here the signal is delivered at a chosen point instead:
from inside a collection's callback (`_lost`), or caught and replaced by another error
(`_replaced`); each command must still stop with its one line and exit 143.
"""

from __future__ import annotations

import gc
import json
import signal
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from harness_helpers import no_process_left  # noqa: F401 - an autouse fixture
from hypothesis import settings
from hypothesis.errors import FlakyStrategyDefinition

from conformance.diff import Differ
from uno_cli import bench
from uno_cli import fuzz as fuzz_cli
from uno_cli.main import main
from uno_fsm import fuzz
from uno_spec.signals import (
    Interrupted,
    ending_signals,
    interruption_in,
    interrupts,
    raise_pending,
    surfaced,
)

pytestmark = pytest.mark.skipif(not hasattr(gc, "callbacks"), reason="CPython's gc callbacks")


def _lost(sig: int = signal.SIGTERM) -> None:
    """`sig` delivered while a collection's callback runs: its handler runs there (the
    callback is the next Python code) and its exception is swallowed, as Hypothesis' callback
    swallows it."""
    def callback(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            signal.raise_signal(sig)  # the handler runs at once, in this callback

    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)


def _replaced(sig: int = signal.SIGTERM, chained: bool = True) -> None:
    """`sig` delivered, its exception caught and another raised instead, as Hypothesis does
    when the signal lands in its bookkeeping (`chained`: while handling it, as Hypothesis
    does; else with no trace of it)."""
    message = "Inconsistent data generation! (a signal, here)"
    try:
        signal.raise_signal(sig)
    except Interrupted:
        if chained:
            raise FlakyStrategyDefinition(message)  # noqa: B904 - implicitly chained
    raise FlakyStrategyDefinition(message)


def _at(n: int, deliver: Callable[[], None]) -> Callable[..., Any]:
    """Wraps a function: its `n`th call delivers the signal first (once)."""
    calls = [0]

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kw: Any) -> Any:
            calls[0] += 1
            if calls[0] == n:
                deliver()
            return original(*args, **kw)

        wrapped.calls = calls  # type: ignore[attr-defined]
        return wrapped

    return wrap


# --- uno_spec.signals -------------------------------------------------------------------------


def test_a_signal_lost_in_a_collection_is_raised_at_the_next_safe_point(
        capsys: pytest.CaptureFixture[str]) -> None:
    """It was dropped: "Exception ignored in: <function ...gc_callback>", and nothing else."""
    with interrupts():
        _lost()
        with pytest.raises(Interrupted) as got:
            raise_pending()
    assert got.value.name == "SIGTERM" and got.value.exit_status == 143
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_ctrl_c_lost_in_a_collection_is_raised_at_the_next_safe_point(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Under `ending_signals` SIGINT is Python's KeyboardInterrupt, which the collection's
    callback swallowed as well ("Exception ignored"): Ctrl-C to `fuzz` was lost 2 times in 5
    (by hand, SIGINT 4 s into `uno-fsm fuzz --minutes 0.5`), the run going on to its end."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with ending_signals():
        _lost(signal.SIGINT)
        with pytest.raises(Interrupted) as got:
            raise_pending()
    assert got.value.name == "SIGINT" and got.value.exit_status == 130
    assert "Exception ignored" not in capsys.readouterr().err


def test_surfaced_gives_a_ctrl_c_replaced_by_another_error_as_sigint() -> None:
    def run() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise FlakyStrategyDefinition("Inconsistent data generation!")  # noqa: B904

    with pytest.raises(Interrupted) as got:
        with surfaced():
            run()
    assert got.value.name == "SIGINT"


def test_a_subclass_of_keyboard_interrupt_is_not_a_ctrl_c() -> None:
    """A program's own subclass (diff's `_Stalled`, which stops a run of Hypothesis) was read
    as SIGINT: `conformance diff` reported nothing after a stalled run."""
    class Stop(KeyboardInterrupt):
        pass

    with pytest.raises(Stop):
        with surfaced():
            raise Stop
    assert interruption_in(Stop()) is None


def test_a_second_signal_is_not_ignored_while_the_first_was_lost() -> None:
    """`interrupts()` ignores a second signal during the clean-up of the first; it ignored
    it as well when the first had never taken effect."""
    with interrupts():
        with pytest.raises(Interrupted):
            _lost()
            signal.raise_signal(signal.SIGTERM)  # raised by its handler, here


def test_a_second_signal_during_the_clean_up_is_still_ignored() -> None:
    with interrupts():
        with pytest.raises(Interrupted):
            signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGINT)  # the clean-up goes on


def test_a_holder_left_with_a_signal_still_lost_raises_it() -> None:
    with pytest.raises(Interrupted) as got:
        with ending_signals():
            _lost(signal.SIGHUP)
    assert got.value.name == "SIGHUP"


@pytest.mark.parametrize("what", ["chained", "unchained", "returned"])
def test_surfaced_gives_the_signal_whatever_the_run_made_of_it(what: str) -> None:
    """Hypothesis raised FlakyStrategyDefinition (or an IndexError) while handling the
    signal's exception, or carried on."""
    with interrupts():
        with pytest.raises(Interrupted) as got, surfaced():
            if what == "returned":
                try:
                    signal.raise_signal(signal.SIGINT)
                except Interrupted:
                    pass
            else:
                _replaced(signal.SIGINT, chained=what == "chained")
    assert got.value.name == "SIGINT"


def test_interruption_in_finds_it_in_a_group_or_a_chain() -> None:
    """What Hypothesis reports of an example that a signal stopped, outside any holder."""
    sig = Interrupted(signal.SIGTERM)
    group = BaseExceptionGroup("found", [ValueError("a failure"), sig])
    chained = FlakyStrategyDefinition("inconsistent")
    chained.__context__ = IndexError("pop from empty list")
    chained.__context__.__context__ = sig
    for exc in (sig, group, chained):
        assert interruption_in(exc) is sig
        with pytest.raises(Interrupted), surfaced():
            raise exc
    assert interruption_in(ValueError("a failure")) is None


def test_surfaced_leaves_other_errors_alone() -> None:
    with pytest.raises(ValueError), interrupts(), surfaced():
        raise ValueError("a failure found")


# --- the commands -------------------------------------------------------------------------------


def _diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, dict[str, Any]]:
    out = tmp_path / "diff.json"
    code = main(["conformance", "diff", "--adapter", "reference", "--no-database",
                 "--no-progress", "--examples", "300", "--seed", "1", "--format", "json",
                 "-o", str(out)])
    data = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    return code, capsys.readouterr().err, data


@pytest.mark.parametrize("deliver", [_lost, _replaced], ids=["lost", "replaced"])
def test_diff_stops_on_a_signal_whose_exception_vanished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        deliver: Callable[[], None]) -> None:
    """Lost: the diff ran its 300 examples and exited 0. Replaced: the FlakyStrategyDefinition
    counted as an implementation that does not answer the same way twice, and was dropped."""
    example = _at(5, deliver)(Differ.example)
    monkeypatch.setattr(Differ, "example", example)
    code, err, data = _diff(tmp_path, capsys)
    assert code == 143, err
    assert err.strip().splitlines()[-1] == (
        "uno-fsm conformance diff: interrupted by SIGTERM during fuzzing: 0 group(s) "
        "confirmed, 0 found but not confirmed; exit status 128 + signal number")
    assert "Exception ignored" not in err
    assert data["interrupted"] == {"signal": "SIGTERM", "during": "fuzzing"}
    assert example.calls[0] < 50  # stopped at once, not after the 300 examples


settings.register_profile("signals-lost-test", settings.get_profile(fuzz.LONG_PROFILE),
                          max_examples=20, stateful_step_count=40)


def _lost_ctrl_c() -> None:
    _lost(signal.SIGINT)


@pytest.mark.parametrize(("deliver", "name"), [
    (_lost, "SIGTERM"), (_replaced, "SIGTERM"), (_lost_ctrl_c, "SIGINT")],
    ids=["lost", "replaced", "lost-ctrl-c"])
def test_fuzz_stops_on_a_signal_whose_exception_vanished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        deliver: Callable[[], None], name: str) -> None:
    """Lost: `fuzz` ran every batch and exited 0 (a Ctrl-C too: SIGINT is Python's
    KeyboardInterrupt under `ending_signals`). Replaced: it reported a failure, exit 1."""
    monkeypatch.setattr(fuzz, "LONG_PROFILE", "signals-lost-test")
    batches = [0]
    real_run, now = fuzz.run, [0.0]

    def one_batch(*args: Any, **kw: Any) -> None:  # each batch 1 s on the fuzzer's clock
        batches[0] += 1
        now[0] += 1.0
        real_run(*args, **kw)

    monkeypatch.setattr(fuzz_cli, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(fuzz, "run", one_batch)
    monkeypatch.setattr(fuzz, "check_invariants", _at(30, deliver)(fuzz.check_invariants))
    code = main(["fuzz", "--minutes", "0.1", "--ruleset", "classic-official", "--players", "3",
                 "--seed", "1", "--database", str(tmp_path / "db")])
    err = capsys.readouterr().err
    assert code == 128 + signal.Signals[name], err
    assert err.strip().splitlines()[-1] == f"uno-fsm fuzz: interrupted by {name}"
    assert "Exception ignored" not in err and batches[0] == 1


def _bench_from_fuzzing(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bench` without its game stepping and corpus stages (seconds each)."""
    monkeypatch.setattr(bench, "bench_games", lambda *_a: {bench.HEADLINE: {
        "ratio_step_like_for_like": 1.0, "ratio_round_loop_like_for_like": 1.0}})
    monkeypatch.setattr(bench, "bench_corpus", lambda *_a: {})


@pytest.mark.parametrize("deliver", [_lost, _replaced], ids=["lost", "replaced"])
def test_bench_stops_on_a_signal_whose_exception_vanished_while_fuzzing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        deliver: Callable[[], None]) -> None:
    """Lost: `bench` measured on and exited 0. Replaced: `internal error:
    FlakyStrategyDefinition: Inconsistent data generation!`, exit 2."""
    _bench_from_fuzzing(monkeypatch)
    monkeypatch.setattr(fuzz, "check_invariants", _at(30, deliver)(fuzz.check_invariants))
    stages: list[str] = []
    monkeypatch.setattr(bench, "bench_diff", lambda *_a: stages.append("diff"))
    code = main(["bench", "--format", "json", "--repeat", "1", "--fuzz-examples", "3"])
    err = capsys.readouterr().err
    assert code == 143, err
    assert err.strip().splitlines()[-1] == "uno-fsm bench: interrupted by SIGTERM"
    assert "Exception ignored" not in err and stages == []


def test_bench_ends_when_a_run_it_measures_is_interrupted(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`conformance diff`'s run takes the signal and returns its report marked interrupted;
    `bench` went on measuring (the signal lost to it) and exited 0."""
    _bench_from_fuzzing(monkeypatch)
    monkeypatch.setattr(bench, "bench_fuzz", lambda *_a: {})
    monkeypatch.setattr(Differ, "example",
                        _at(3, lambda: signal.raise_signal(signal.SIGTERM))(Differ.example))
    stages: list[str] = []
    monkeypatch.setattr(bench, "bench_memory", lambda *_a: stages.append("memory"))
    code = main(["bench", "--format", "json", "--repeat", "1", "--fuzz-examples", "3"])
    err = capsys.readouterr().err
    assert code == 143, err
    assert err.strip().splitlines()[-1] == "uno-fsm bench: interrupted by SIGTERM"
    assert stages == []
