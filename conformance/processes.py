"""The process trees of the programs the runner starts, and the runner's own signals.

Every program an adapter starts runs under a small **supervisor** (this file, run as a script
with `python -I -S`): on Linux it makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`),
forks and execs the program, and waits. Whatever the program starts, in its process group or in
a new session (`setsid`, double fork), stays a descendant of the supervisor: an orphan is
re-parented to the nearest subreaper, the supervisor, not to init. So the tree can be found by a
walk of `/proc` from the supervisor's pid, and no other process of the machine is ever touched.

- `kill_tree(pid)` sends SIGKILL to every descendant of `pid` until none is left (re-scanning,
  so a process forked meanwhile is found too), then to `pid` itself, and reaps what it can.
- The supervisor ends the tree itself when the program exits (whatever the program left running
  dies with it), and then exits with the program's status (a signal is re-raised), so the runner
  sees the program's own exit status. If the runner dies, the supervisor is told
  (`PR_SET_PDEATHSIG`) and ends the tree.
- The supervisor is per program (not the runner itself as a subreaper) so that orphans are
  attributed to the program that made them, even when several adapters run at once (the
  differential fuzzer) or when the runner lives in a process that has children of its own.

Elsewhere than Linux (no `/proc`, no subreaper) the program runs directly in a new session and
its process group is killed (`TREE_TRACKING` is False); a child that moved to another session
may survive there.

`interrupts()` turns SIGINT and SIGTERM into `Interrupted` (a BaseException, like
KeyboardInterrupt) while a run is on, so that the runner can kill its adapters and still write
the report (docs/robustness.md).

This module only imports the standard library: it runs as the supervisor script.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, Protocol

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
TREE_TRACKING = sys.platform.startswith("linux") and os.path.isdir("/proc/self")
KILL_PATIENCE = 2.0  # seconds kill_tree keeps re-scanning before it gives up
START_FAILED = 127  # the supervisor's exit status when the program cannot be executed


def _prctl(option: int, arg: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, ctypes.c_ulong(arg), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process visible in /proc."""
    out: dict[int, tuple[int, str]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2:].split()
        if len(fields) >= 2:
            out[int(name)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
    return out


def descendants(pid: int) -> dict[int, str]:
    """Every descendant of `pid` (children, their children, ...) -> its state letter
    (`Z`: a zombie not yet reaped by its parent)."""
    if not TREE_TRACKING:
        return {}
    children: dict[int, list[int]] = {}
    table = _table()
    for child, (parent, _state) in table.items():
        children.setdefault(parent, []).append(child)
    found: dict[int, str] = {}
    todo = list(children.get(pid, ()))
    while todo:
        p = todo.pop()
        if p not in found:
            found[p] = table[p][1]
            todo.extend(children.get(p, ()))
    return found


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return False
    return data[data.rfind(b")") + 2:][:1] != b"Z"


def _reap_children() -> None:
    """Reap every exited child of this process (the supervisor adopts orphans)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_descendants(pid: int, *, patience: float = KILL_PATIENCE, reap: bool = False) -> bool:
    """SIGKILL every descendant of `pid` until none is left, zombies included (their parent,
    the supervisor, reaps them; `reap=True` when this process is that parent). True when the
    tree is empty."""
    if not TREE_TRACKING:
        return True
    end = time.monotonic() + patience
    while True:
        tree = descendants(pid)
        for p, state in tree.items():
            if state != "Z":
                try:
                    os.kill(p, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        if reap:
            _reap_children()
        if not tree:
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.002)


# --- the supervisor ------------------------------------------------------------------------


def supervisor_argv(argv: Sequence[str]) -> list[str]:
    """The command line that runs `argv` under the supervisor (Linux), or `argv` itself."""
    if not TREE_TRACKING:
        return list(argv)
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), "--", *argv]


def _exit_like(status: int) -> NoReturn:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # pragma: no cover - the signal above ends the process
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def supervise(argv: Sequence[str]) -> NoReturn:
    """Run `argv` as a child of this subreaper; end its whole tree when it exits."""
    parent = os.getppid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    def end(_signum: int = 0, _frame: Any = None) -> NoReturn:
        kill_descendants(os.getpid(), reap=True)
        os._exit(128 + signal.SIGTERM)

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, end)
    if os.getppid() != parent:  # the runner died before PDEATHSIG was armed
        end()
    pid = os.fork()
    if pid == 0:  # the program
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE,
                    signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
        try:
            os.execvp(argv[0], list(argv))
        except OSError as exc:
            os.write(2, f"cannot start {argv[0]}: {exc.strerror}\n".encode())
        os._exit(START_FAILED)
    # Only the program holds the pipes now: its end of output is seen by the runner.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    status = 0
    while True:
        try:
            done, st = os.wait()
        except ChildProcessError:
            break
        if done == pid:
            status = st
            break
    kill_descendants(os.getpid(), reap=True)
    _exit_like(status)


# --- what the runner keeps alive -----------------------------------------------------------


class Killable(Protocol):
    def kill(self) -> None: ...


_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()


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


def adopt_orphans() -> bool:
    """Make this process a child subreaper too (`conformance run` does: it has no children but
    its adapters'). Then a process whose supervisor died (a program that killed its own parent)
    is re-parented here, and `sweep_orphans` ends it. True when in effect."""
    _SWEEPING[0] = TREE_TRACKING and _prctl(PR_SET_CHILD_SUBREAPER, 1)
    return _SWEEPING[0]


def sweep_orphans(patience: float = KILL_PATIENCE) -> None:
    """After `adopt_orphans`: kill and reap this process's children that no live adapter owns,
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


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        os.write(2, b"usage: processes.py -- PROGRAM [ARGS...]\n")
        os._exit(2)
    supervise(args)
