"""How the runner keeps an in-process adapter from hanging the run (docs/robustness.md).

- Third-party Python adapters (`module:...`, `rlcard`) run in a **worker process**:
  `uno-fsm conformance serve --adapter <spec>` driven by the stdio adapter. There is one hardened
  out-of-process path (timeouts, kill and restart, process tree, bounded output), not two.
  The worker imports with the runner's `sys.path`, so whatever the runner can import, it can.
- The reference engine keeps its fast in-process path, under `DeadlineGuard`: each call runs
  with a `setitimer` alarm at the scenario's deadline (or, within `holding_alarm`, under one
  timer firing every `REFIRE` seconds that raises once the call's deadline has passed); the
  alarm raises in the engine's (pure Python) code, and keeps raising every `REFIRE` seconds
  until the call gives up, so even a loop that catches exceptions is stopped. That needs the
  main thread (signals are delivered only there): anywhere else the reference engine runs in a
  worker process like the others.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from conformance.protocol import AdapterError
from conformance.supervisor import MEMORY_LIMIT

REFIRE = 0.05  # seconds between repeated alarms while a timed-out call has not given up


def worker_command(spec: str) -> list[str]:
    """The command line of a worker process serving the in-process adapter `spec`."""
    return [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter", spec]


def worker_env() -> dict[str, str]:
    """The runner's environment, with its import path (a test's fixtures, a user's project)."""
    path = [p or os.getcwd() for p in sys.path]
    old = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path + ([old] if old else []))}


def worker_factory(spec: str, timeout: float,
                   memory_limit: int = MEMORY_LIMIT) -> Callable[[], Any]:
    """Makes the StdioAdapter of a worker (its data memory capped at `memory_limit` bytes,
    0: no cap)."""

    def make() -> Any:  # a StdioAdapter, imported when a worker is started (not in process)
        from conformance.adapters.stdio import StdioAdapter

        return StdioAdapter(worker_command(spec), timeout=timeout, env=worker_env(),
                            memory_limit=memory_limit)

    return make


def alarms_usable() -> bool:
    """Whether `DeadlineGuard` can work here (a POSIX timer, on the main thread)."""
    return hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()


class _Alarm(BaseException):  # noqa: N818 - a BaseException so that `except Exception` in the
    """The deadline passed during a guarded call."""  # guarded code cannot swallow it


_ARMED = [False]  # a guarded call is running: its alarm raises once its end has passed
_END = [0.0]  # the running call's end (`time.monotonic`); 0: whenever the alarm fires
_HELD = [False]  # `holding_alarm`: the handler stays set between calls, the timer running


def _fire(_signum: int, _frame: Any) -> None:
    if _ARMED[0] and time.monotonic() >= _END[0]:
        raise _Alarm


@contextlib.contextmanager
def holding_alarm() -> Iterator[None]:
    """While it lasts, `DeadlineGuard` calls keep one SIGALRM handler, set here, and one timer
    firing every REFIRE seconds, instead of setting and restoring both around each call (two
    `signal.signal` and two `setitimer` calls, system calls that took a tenth of the fuzzer's
    time in process: `conformance diff` holds it for its run). A call then only notes its end;
    the alarm raises in it once that end has passed, so a hang is stopped at most REFIRE
    seconds after its deadline. Nothing where the guard cannot work (`alarms_usable`) or
    inside another holder; the timer is stopped and the handler found put back at the end."""
    if _HELD[0] or not alarms_usable():
        yield
        return
    old = signal.signal(signal.SIGALRM, _fire)
    _HELD[0] = True
    try:
        signal.setitimer(signal.ITIMER_REAL, REFIRE, REFIRE)
        yield
    finally:
        # the timer stopped and an alarm it already raised taken, SIGALRM held back meanwhile:
        # none reaches the handler put back (the default one ends the process)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            while signal.sigtimedwait([signal.SIGALRM], 0) is not None:
                pass
            _HELD[0] = False
            _ARMED[0] = False
            signal.signal(signal.SIGALRM, old)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class DeadlineGuard:
    """Wraps an in-process adapter: each call ends at the deadline (`AdapterError` timeout)."""

    def __init__(self, inner: Any, timeout: float) -> None:
        self.inner = inner
        self.timeout = timeout
        self.deadline: float | None = None
        self._span = 0.0

    def set_deadline(self, deadline: float | None) -> None:
        self.deadline = deadline
        self._span = 0.0 if deadline is None else deadline - time.monotonic()

    def _call(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        budget = limit = self.timeout
        if self.deadline is not None and self.deadline - time.monotonic() < budget:
            budget, limit = self.deadline - time.monotonic(), self._span
        budget = max(budget, 0.001)
        if _HELD[0]:  # the timer fires every REFIRE seconds: the call's end is noted only
            _END[0] = time.monotonic() + budget
            try:
                _ARMED[0] = True
                try:
                    return fn(*args)
                finally:
                    _ARMED[0] = False  # a late alarm is ignored from here on
            except _Alarm:
                raise AdapterError("timeout", f"{method}: no answer within {limit:.2f}s") \
                    from None
        old = signal.signal(signal.SIGALRM, _fire)
        try:
            _END[0] = 0.0  # the timer is the call's: its first alarm is the deadline
            _ARMED[0] = True
            signal.setitimer(signal.ITIMER_REAL, budget, REFIRE)
            try:
                return fn(*args)
            finally:
                _ARMED[0] = False  # a late alarm is ignored from here on
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Alarm:
            raise AdapterError("timeout", f"{method}: no answer within {limit:.2f}s") from None
        finally:
            signal.signal(signal.SIGALRM, old)

    def hello(self) -> dict[str, Any]:
        return self._call("hello", self.inner.hello)  # type: ignore[no-any-return]

    def setup(self, params: dict[str, Any]) -> Any:
        return self._call("setup", self.inner.setup, params)

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        return self._call("act", self.inner.act, action)  # type: ignore[no-any-return]

    def observe(self, keys: list[str]) -> dict[str, Any]:
        return self._call("observe", self.inner.observe, keys)  # type: ignore[no-any-return]

    def close(self) -> None:
        self._call("close", self.inner.close)

    def __getattr__(self, name: str) -> Any:
        """Any other method of the adapter (an optional capability) runs guarded too (its
        wrapper made once: the fuzzer calls `act_observe` at every step)."""
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def guarded(*args: Any) -> Any:
            return self._call(name, attr, *args)

        self.__dict__[name] = guarded
        return guarded
