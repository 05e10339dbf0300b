"""The signals that end a command: SIGINT, SIGTERM and SIGHUP, all three the same way.

POSIX's conventions: an interactive interrupt (SIGINT, Ctrl-C), a request to terminate
(SIGTERM: `kill`, a CI job cancelled, a container stopped) and the loss of the controlling
terminal (SIGHUP: an SSH session dropped) each end a command, and a command that holds
resources ends them first: it kills the programs it started, writes nothing half, leaves no
temporary file, and exits with 128 + the signal number (130, 143, 129).

`ending_signals()` (the `uno-fsm` entry point holds it around every command) turns SIGTERM and
SIGHUP into `Interrupted`, a BaseException like KeyboardInterrupt, so that `finally:` clauses
and context managers run (a file being written is removed, an adapter is killed) instead of the
process dying where it stands; SIGINT stays Python's KeyboardInterrupt (an interactive command,
`play`, handles Ctrl-C itself). Code that must say what it did when stopped (the conformance
runner: the report of the scenarios judged so far) holds `interrupts()`, which turns all three
into `Interrupted`. `uno_spec.files` holds the three blocked while it writes and renames a file.

A signal is never lost. Python runs a handler in whatever Python code runs next, and there its
exception can vanish: in a garbage-collector callback (Hypothesis registers one, timing the
collections), a `__del__` method or a weakref callback Python prints it as "Exception ignored"
and goes on; code that catches every exception may turn it into another (Hypothesis, caught
mid-bookkeeping, reports `FlakyStrategyDefinition` instead). So the handler records the
signal before it raises, and:

- an `Interrupted` swallowed so (seen by `sys.unraisablehook`, which the holders replace) is
  noted lost, and a later signal raises again even under `interrupts()`'s "once"; so is a
  KeyboardInterrupt (SIGINT where `ending_signals` leaves it to Python), raised again as
  SIGINT's `Interrupted`;
- `raise_pending()`, called at safe points (each example of `conformance diff`, each step of
  `fuzz`, each scenario of a run or of diff's reduction, each measurement of `bench`), raises
  the `Interrupted` of a signal received while a holder is in force; `surfaced()` around a run
  of Hypothesis raises it in place of whatever that run raised or returned (`interruption_in`
  finds one wrapped in an exception group or chained to another error);
- a holder left normally with a signal still lost raises it then.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

ENDING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
               if hasattr(signal, name))


class Interrupted(BaseException):  # noqa: N818 - like KeyboardInterrupt
    """The process received SIGINT, SIGTERM or SIGHUP; `signum`, `name` (`SIGTERM`) and
    `exit_status` (128 + the signal number) say which."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        self.exit_status = 128 + signum
        super().__init__(self.name)


class _Holder:
    """What one `ending_signals()` or `interrupts()` received while it holds."""

    def __init__(self, once: bool) -> None:
        self.once = once
        self.received: int | None = None  # the last signal whose Interrupted was raised
        self.lost = False  # that Interrupted was swallowed (unraisable), and not raised since


_HOLDERS: list[_Holder] = []  # the holders in force, the innermost last (main thread only)


def raise_pending() -> None:
    """Raise the `Interrupted` of a signal received by a holder in force: a safe point. Where
    the handler's own exception took effect, the code it stopped is unwinding or ending and
    meets no safe point; where it vanished or was turned into another error, it is raised
    here. Nothing outside the main thread (its holders' signals are the main thread's)."""
    if not _HOLDERS or threading.current_thread() is not threading.main_thread():
        return
    for holder in reversed(_HOLDERS):
        if holder.received is not None:
            holder.lost = False
            raise Interrupted(holder.received)


def interruption_in(exc: BaseException) -> Interrupted | None:
    """The `Interrupted` in `exc` (a KeyboardInterrupt as SIGINT's): itself, one of its
    group's exceptions, or the exception it was raised from or while handling (Hypothesis
    turns one caught mid-bookkeeping into `FlakyStrategyDefinition` or an `IndexError` raised
    while handling it)."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        e = todo.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, Interrupted):
            return e
        if type(e) is KeyboardInterrupt:  # Python's own (a subclass is a program's: diff's
            return Interrupted(signal.SIGINT)  # `_Stalled` stops a run of Hypothesis so)
        if isinstance(e, BaseExceptionGroup):
            todo.extend(e.exceptions)
        todo.extend(x for x in (e.__cause__, e.__context__) if x is not None)
    return None


@contextmanager
def surfaced() -> Iterator[None]:
    """Around code that may swallow an `Interrupted` or turn it into another exception (a run
    of Hypothesis): a signal received meanwhile leaves it as `Interrupted`, whatever it
    raised or returned."""
    try:
        yield
    except Interrupted:
        raise
    except BaseException as exc:
        raise_pending()
        found = interruption_in(exc)
        if found is not None:
            raise Interrupted(found.signum) from exc
        raise
    raise_pending()


def _signum_of(exc: BaseException) -> int | None:
    """The signal an exception stands for: an `Interrupted`'s, SIGINT for Python's own
    KeyboardInterrupt (Ctrl-C where `ending_signals` leaves SIGINT to Python; not a subclass,
    which a program raises itself), else None."""
    if isinstance(exc, Interrupted):
        return exc.signum
    return signal.SIGINT if type(exc) is KeyboardInterrupt else None


def _unraisable(previous: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def hook(unraisable: Any) -> None:
        signum = _signum_of(unraisable.exc_value)
        if signum is not None:
            # raised by the handler in a callback that cannot raise: noted (no "Exception
            # ignored" lines), raised at the next safe point (a KeyboardInterrupt too: Ctrl-C
            # to `fuzz` or `bench` was lost so, 2 times in 5, and the run went on to its end)
            for holder in reversed(_HOLDERS):
                if holder.received is not None:
                    holder.lost = True
                    return
            if _HOLDERS:
                _HOLDERS[-1].received, _HOLDERS[-1].lost = signum, True
                return
        previous(unraisable)

    return hook


@contextmanager
def _raising(signals: tuple[int, ...], once: bool) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can be set in the main thread only
        return
    raise_pending()  # a signal an outer holder received and never acted on: acted on now
    holder = _Holder(once)

    def handler(signum: int, _frame: Any) -> None:
        if holder.once and holder.received is not None and not holder.lost:
            return  # a second signal during the clean-up is ignored
        holder.received, holder.lost = signum, False
        raise Interrupted(signum)

    hook = _unraisable(sys.unraisablehook)
    previous_hook = sys.unraisablehook
    _HOLDERS.append(holder)
    old = {sig: signal.signal(sig, handler) for sig in signals}
    sys.unraisablehook = hook
    try:
        yield
        if holder.lost and holder.received is not None:  # swallowed, no safe point met since
            raise Interrupted(holder.received)
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)
        if sys.unraisablehook is hook:
            sys.unraisablehook = previous_hook
        _HOLDERS.remove(holder)


def ending_signals() -> Any:
    """While inside: SIGTERM and SIGHUP raise `Interrupted` (SIGINT is left to Python's
    KeyboardInterrupt). Outside the main thread this does nothing."""
    return _raising(tuple(s for s in ENDING if s != signal.SIGINT), once=False)


def interrupts() -> Any:
    """While inside: SIGINT, SIGTERM and SIGHUP raise `Interrupted`, once (a second signal
    during the clean-up is ignored, unless the first one's exception was lost). Outside the
    main thread this does nothing."""
    return _raising(ENDING, once=True)
