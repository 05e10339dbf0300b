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

`interrupts()` turns SIGINT, SIGTERM and SIGHUP into `Interrupted` (a BaseException, like
KeyboardInterrupt; uno_spec.signals) while a run is on, so that the runner can kill its adapters
and still write the report (docs/robustness.md).
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
from uno_spec import signals

# --- what the runner keeps alive -----------------------------------------------------------


class Killable(Protocol):
    def kill(self) -> None: ...


_LIVE: set[Any] = set()  # held until killed: an adapter dropped without close() is still found


def register(obj: Killable) -> None:
    """`obj.kill()` is called by `kill_all` (at an interrupt, at exit). From the main thread,
    job control is taken care of from now on (`_job_stop`)."""
    _LIVE.add(obj)
    _handle_job_stops()


def unregister(obj: Killable) -> None:
    _LIVE.discard(obj)


def kill_all() -> None:
    """Kill every program still running (each with its tree)."""
    for obj in list(_LIVE):
        try:
            obj.kill()
        except Exception:  # noqa: BLE001 - the others must still be killed
            pass


# --- job control --------------------------------------------------------------------------
# Each supervisor resumes its runner when it finds it stopped (conformance/supervisor.py: a
# program may send SIGSTOP to the runner). A stop by job control (Ctrl-Z: SIGTSTP; SIGTTIN,
# SIGTTOU) is the user's: the runner stops its supervisors first, then itself, and resumes them
# when it is resumed, so that no supervisor sees it stopped.
_JOB_STOPS = tuple(getattr(signal, n) for n in ("SIGTSTP", "SIGTTIN", "SIGTTOU")
                   if hasattr(signal, n))
_PREVIOUS: dict[int, Any] = {}


def _job_stop(signum: int, frame: Any) -> None:
    pids = [pid for obj in list(_LIVE) if (pid := getattr(obj, "pid", None))]
    for pid in pids:
        _signal(pid, signal.SIGSTOP)
    previous = _PREVIOUS.get(signum)
    if callable(previous):
        previous(signum, frame)
    else:  # the default action: stop this process until SIGCONT
        signal.signal(signum, signal.SIG_DFL)
        try:
            os.kill(os.getpid(), signum)
        finally:
            signal.signal(signum, _job_stop)
    for pid in pids:
        _signal(pid, signal.SIGCONT)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _handle_job_stops() -> None:
    """Install `_job_stop` for the job-control stops (once, from the main thread only; the
    handler in place before it is called in its turn)."""
    if _PREVIOUS or not TREE_TRACKING or threading.current_thread() is not threading.main_thread():
        return
    for sig in _JOB_STOPS:
        previous = _PREVIOUS[sig] = signal.getsignal(sig)
        if previous is not signal.SIG_IGN:  # a host that ignores Ctrl-Z keeps ignoring it
            signal.signal(sig, _job_stop)


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


# SIGINT, SIGTERM and SIGHUP during a run raise `Interrupted` (uno_spec.signals): the runner
# kills its adapters and returns the report of what was judged.
Interrupted = signals.Interrupted
interrupts = signals.interrupts
