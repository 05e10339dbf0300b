"""The process trees of the programs the runner starts, and the runner's own signals.

Every program an adapter starts runs under a small **supervisor** (conformance/supervisor.py,
run as a script with `python -I -S`): on Linux it makes itself a child subreaper
(`prctl(PR_SET_CHILD_SUBREAPER)`), forks and execs the program, and waits. Whatever the program
starts, in its process group or in a new session (`setsid`, double fork), stays a descendant of
the supervisor: an orphan is re-parented to the nearest subreaper, the supervisor, not to init.
So the tree can be found by a walk of `/proc` from the supervisor's pid, and no other process
of the machine is ever touched.

- `kill_descendants(pid)` sends SIGKILL to every descendant of `pid` and walks again, until
  none is left (a process forked meanwhile is found by the next walk); the adapter then kills
  and reaps the supervisor itself.
- The supervisor ends the tree itself when the program exits (whatever the program left running
  dies with it), and then exits with the program's status (a signal is re-raised), so the runner
  sees the program's own exit status. If the runner dies, the supervisor is told
  (`PR_SET_PDEATHSIG`) and ends the tree.
- The supervisor is per program (not the runner itself as the only subreaper) so that orphans
  are attributed to the program that made them, even when several adapters run at once (the
  differential fuzzer) or when the runner lives in a process that has children of its own.
  `conformance run`, whose process has no other children, is a subreaper as well
  (`adopting_orphans`): a program that kills its own supervisor is re-parented to it and
  `sweep_orphans` ends it.

The supervisor also caps the data memory of the program (`RLIMIT_DATA`, set in the child before
exec, inherited by whatever the program starts; `MEMORY_LIMIT` by default, `StdioAdapter
(memory_limit=)`, `--memory-limit`): a program that allocates without bound fails to allocate
(Python's `MemoryError`, Node's "heap out of memory", a null `malloc`) and exits or is killed
well before it can swap the machine; the runner reports that crash like any other.

Elsewhere than Linux (no `/proc`, no subreaper) the program runs directly in a new session and
its process group is killed (`TREE_TRACKING` is False); a child that moved to another session
may survive there, and the memory cap is not applied.

`interrupts()` turns SIGINT and SIGTERM into `Interrupted` (a BaseException, like
KeyboardInterrupt) while a run is on, so that the runner can kill its adapters and still write
the report (docs/robustness.md).
"""

from __future__ import annotations

import atexit
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from conformance.supervisor import (  # noqa: F401 - this module's interface too
    KILL_PATIENCE,
    MEMORY_LIMIT,
    MIB,
    PR_SET_CHILD_SUBREAPER,
    TREE_TRACKING,
    _prctl,
    _table,
    alive,
    descendants,
    kill_descendants,
    supervisor_argv,
)

# --- what the runner keeps alive -----------------------------------------------------------


class Killable(Protocol):
    def kill(self) -> None: ...


_LIVE: set[Any] = set()  # held until killed: an adapter dropped without close() is still found


def register(obj: Killable) -> None:
    """`obj.kill()` is called by `kill_all` (at an interrupt, at exit)."""
    _LIVE.add(obj)


def unregister(obj: Killable) -> None:
    _LIVE.discard(obj)


def kill_all() -> None:
    """Kill every program still running (each with its tree)."""
    for obj in list(_LIVE):
        try:
            obj.kill()
        except Exception:  # noqa: BLE001 - the others must still be killed
            pass


_SWEEPING = [False]


@contextmanager
def adopting_orphans() -> Iterator[bool]:
    """While inside, this process is a child subreaper too (`conformance run` asks for it): a
    process whose supervisor died (a program that killed its own parent) is re-parented here,
    and `sweep_orphans` ends it. Only when this process has no child yet: the children of a
    host (pytest, an IDE) are not the runner's to kill. Yields whether it is in effect."""
    on = TREE_TRACKING and not _SWEEPING[0] and not descendants(os.getpid()) \
        and _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _SWEEPING[0] = _SWEEPING[0] or on
    try:
        yield on
    finally:
        if on:
            sweep_orphans()
            _SWEEPING[0] = False
            _prctl(PR_SET_CHILD_SUBREAPER, 0)


def sweep_orphans(patience: float = KILL_PATIENCE) -> None:
    """Inside `adopting_orphans`: kill and reap this process's children that no live adapter owns,
    with their trees. Does nothing otherwise (the children of a library's host are not ours)."""
    if not _SWEEPING[0]:
        return
    me = os.getpid()
    end = time.monotonic() + patience
    while time.monotonic() < end:
        owned = {getattr(obj, "pid", None) for obj in list(_LIVE)}
        strays = [p for p, (parent, _s) in _table().items() if parent == me and p not in owned]
        if not strays:
            return
        for p in strays:
            kill_descendants(p, patience=0.1)
            try:
                os.kill(p, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap_children_of(strays)
        time.sleep(0.002)


def _reap_children_of(pids: list[int]) -> None:
    for p in pids:
        try:
            os.waitpid(p, os.WNOHANG)
        except ChildProcessError:
            pass


atexit.register(kill_all)  # a safety net: a program never outlives the runner's interpreter


class Interrupted(BaseException):  # noqa: N818 - like KeyboardInterrupt
    """The runner received SIGINT or SIGTERM."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


@contextmanager
def interrupts() -> Iterator[None]:
    """While inside: SIGINT and SIGTERM raise `Interrupted` (once; a second signal during the
    clean-up is ignored). Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum: int, _frame: Any) -> None:
        if not fired:
            fired.append(signum)
            raise Interrupted(signum)

    old = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)
