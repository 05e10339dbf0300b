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
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
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


@contextmanager
def _raising(signals: tuple[int, ...], once: bool) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can be set in the main thread only
        return
    fired: list[int] = []

    def handler(signum: int, _frame: Any) -> None:
        if once and fired:
            return  # a second signal during the clean-up is ignored
        fired.append(signum)
        raise Interrupted(signum)

    old = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def ending_signals() -> Any:
    """While inside: SIGTERM and SIGHUP raise `Interrupted` (SIGINT is left to Python's
    KeyboardInterrupt). Outside the main thread this does nothing."""
    return _raising(tuple(s for s in ENDING if s != signal.SIGINT), once=False)


def interrupts() -> Any:
    """While inside: SIGINT, SIGTERM and SIGHUP raise `Interrupted`, once (a second signal
    during the clean-up is ignored). Outside the main thread this does nothing."""
    return _raising(ENDING, once=True)
