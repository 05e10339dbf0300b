"""The supervisor of each program the runner starts (a script: stdlib only, fast to start).

Run as `python -I -S conformance/supervisor.py [--memory-limit BYTES] -- PROGRAM [ARGS...]`: on
Linux it makes itself a child subreaper, forks, caps the data memory of the child
(`RLIMIT_DATA`, inherited by whatever the program starts) and execs the program, and waits;
whatever the program starts stays its descendant. When the program exits, the supervisor kills
what it left running, then exits with the program's status. The tree walk and kill used by the
runner live here too. Why and how: conformance/processes.py and docs/robustness.md.
"""

from __future__ import annotations

import os
import signal
import sys
import time

try:
    import resource
except ImportError:  # not a POSIX system: no cap (limit_memory says so)
    resource = None  # type: ignore[assignment]

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
TREE_TRACKING = sys.platform.startswith("linux") and os.path.isdir("/proc/self")
KILL_PATIENCE = 2.0  # seconds kill_tree keeps re-scanning before it gives up
START_FAILED = 127  # the supervisor's exit status when the program cannot be executed
# The supervisor's exit status when it found the runner stopped (SIGSTOP) while the program ran:
# it resumed the runner and ended the program (`_watch`).
RUNNER_STOPPED = 125
WATCH_INTERVAL = 0.05  # seconds between two looks at the runner's state
MIB = 1 << 20
# The default cap on the data memory of each program an adapter starts, and of each process it
# starts (bytes; 0: no cap). The one definition: StdioAdapter, resolve() and the commands'
# --memory-limit take it from here. The adapters measured stay under 110 MiB
# (docs/robustness.md, "Processes").
MEMORY_LIMIT = 4096 * MIB


def _prctl(option: int, arg: int) -> bool:
    import ctypes

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


def supervisor_argv(argv: list[str], memory_limit: int = 0) -> list[str]:
    """The command line that runs `argv` under the supervisor (Linux), its data memory capped at
    `memory_limit` bytes (0: no cap), or `argv` itself (elsewhere: no supervisor, no cap)."""
    if not TREE_TRACKING:
        return list(argv)
    cap = ["--memory-limit", str(memory_limit)] if memory_limit > 0 else []
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), *cap, "--", *argv]


def limit_memory(limit: int) -> bool:
    """Cap this process's data memory (`RLIMIT_DATA`: heap, private writable mappings; not
    the reserved PROT_NONE address space that Node/V8 holds, which `RLIMIT_AS` would count) at
    `limit` bytes, soft and hard limits alike, so that the program cannot raise it again; a
    lower limit already in force is kept. Inherited across fork and exec. False where it
    cannot be set (no `resource` module, or setrlimit refused): the program then runs without
    the cap."""
    if resource is None:
        return False
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        inf = resource.RLIM_INFINITY
        new_soft = limit if soft == inf else min(limit, soft)
        new_hard = limit if hard == inf else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (min(new_soft, new_hard), new_hard))
    except (OSError, ValueError):
        return False
    return True


def _exit_like(status: int) -> None:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):  # those two have no handler to reset
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # pragma: no cover - the signal above ends the process
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _state(pid: int) -> str:
    """The state letter of `pid` in /proc (`T`: stopped by a signal), "" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return ""
    return data[data.rfind(b")") + 2:][:1].decode("ascii", "replace")


def _watch(parent: int) -> None:
    """Resume a runner that something stopped (SIGSTOP: a program can send it to any process of
    its user) and end the program, which is the likeliest culprit. A stop by job control
    (Ctrl-Z) is told apart: the runner stops its supervisors first (processes.suspending), so a
    supervisor that runs while its runner is stopped knows the stop is not the user's."""
    if _state(parent) != "T":
        return
    kill_descendants(os.getpid(), reap=True)  # first: the runner resumed sees the program gone
    os.kill(parent, signal.SIGCONT)
    os._exit(RUNNER_STOPPED)


def supervise(argv: list[str], memory_limit: int = 0) -> None:
    """Run `argv` as a child of this subreaper, its data memory capped at `memory_limit` bytes
    (0: no cap); end its whole tree when it exits."""
    parent = os.getppid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    # Linux sends this when the *thread* that started us ends: the runner starts a program from
    # the thread that uses it (Runner.run calls the factory itself).
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    def end(_signum: int = 0, _frame: object = None) -> None:
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
        if memory_limit > 0 and not limit_memory(memory_limit):
            os.write(2, b"supervisor: cannot cap the program's memory (RLIMIT_DATA): it runs "
                     b"without the cap\n")
        try:
            os.execvp(argv[0], list(argv))
        except OSError as exc:
            os.write(2, f"cannot start {argv[0]}: {exc.strerror}\n".encode())
        os._exit(START_FAILED)
    # Only the program holds the pipes now: its end of output is seen by the runner.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if TREE_TRACKING:  # look at the runner's state every WATCH_INTERVAL (os.wait is resumed)
        signal.signal(signal.SIGALRM, lambda _s, _f: _watch(parent))
        signal.setitimer(signal.ITIMER_REAL, WATCH_INTERVAL, WATCH_INTERVAL)
    status = 0
    while True:
        try:
            done, st = os.wait()
        except ChildProcessError:
            break
        if done == pid:
            status = st
            break
    if TREE_TRACKING:  # the program is gone: nothing left to watch for
        signal.setitimer(signal.ITIMER_REAL, 0)
    kill_descendants(os.getpid(), reap=True)
    _exit_like(status)


if __name__ == "__main__":
    args = sys.argv[1:]
    cap = 0
    if args[:1] == ["--memory-limit"] and len(args) > 1 and args[1].isdigit():
        cap, args = int(args[1]), args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        os.write(2, b"usage: supervisor.py [--memory-limit BYTES] -- PROGRAM [ARGS...]\n")
        os._exit(2)
    supervise(args, cap)
