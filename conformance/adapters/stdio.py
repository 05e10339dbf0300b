"""Adapter for any program speaking `uno-conformance/2` as JSON lines over stdin/stdout.

The program is started lazily and restarted after anything goes wrong: it crashed, it closed
its stdout, it did not answer within the request timeout, it answered garbage, a wrong `id`, a
line longer than `max_line` bytes or nested deeper than `max_depth`. Each of these raises
`AdapterError` (the runner reports the scenario as `errored` and carries on); the program and
every process it started are killed first (conformance.processes: it runs under a subreaper
supervisor), so that no stale output can leak into the next scenario and nothing is left
running. Its stderr is read as it comes and only its last `stderr_tail` bytes are kept in
memory; they are quoted in the error. Its data memory, and that of every process it starts, is
capped at `memory_limit` bytes (`RLIMIT_DATA`, set by the supervisor; 0: no cap): a program that
allocates without bound fails to allocate and crashes, reported as `crashed` with the cap in
the error's detail.

Everything happens on the calling thread: requests are written to a non-blocking pipe and
answers read with `select` and `os.read` into a buffer, so a wait honours the timeout without a
reader thread (one thread hand-over per round trip cost more than the round trip itself).

Pipelining (docs/adapter-protocol.md): `send` writes a request and returns its id, `receive`
reads the answer to the oldest request still unanswered. A program that declares
`"pipelining": true` in its `hello` gets the requests of several scenarios in one write (the
runner then reads the answers in order); `call` is `send` + `receive`. While writing, answers
already arriving are read into the buffer, so neither side can block the other on a full pipe.
"""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from conformance import processes
from conformance.protocol import (
    MAX_DEPTH,
    MAX_LINE,
    PROTOCOL,
    RESERVED_CODES,
    START_TIMEOUT,
    AdapterError,
    ProtocolError,
    RunnerError,
    check_hello,
    check_rejection,
    decode_response,
    encode,
    raise_for_error,
    request,
)
from conformance.supervisor import RUNNER_STOPPED

_CHUNK = 1 << 16


STDERR_TAIL = 4096  # bytes of the program's stderr kept (its last ones) and quoted in errors
EXIT_GRACE = 0.5  # seconds to wait for the exit status after the program closed its stdout
BYE_GRACE = 2.0  # seconds a program has to exit after `bye` before it is killed


def _mib(n: int) -> str:
    return f"{n // processes.MIB} MiB" if n % processes.MIB == 0 else f"{n} bytes"


def _status(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "?"
        return f"was killed by signal {-code} ({name})"
    if code == RUNNER_STOPPED and processes.TREE_TRACKING:
        return (f"was ended by its supervisor (status {code}: the runner was found stopped, "
                "SIGSTOP, and resumed)")
    return f"exited with status {code}"


class StdioAdapter:
    """Runs `command` and talks to it over pipes (one request, one response line)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0,
                 max_line: int = MAX_LINE, max_depth: int = MAX_DEPTH,
                 stderr_tail: int = STDERR_TAIL, exit_grace: float = EXIT_GRACE,
                 bye_grace: float = BYE_GRACE, start_timeout: float = START_TIMEOUT,
                 memory_limit: int = processes.MEMORY_LIMIT,
                 env: dict[str, str] | None = None,
                 cwd: str | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty command line for the stdio adapter")
        if isinstance(memory_limit, bool) or not isinstance(memory_limit, int) \
                or memory_limit < 0:
            raise ValueError(f"memory_limit must be a whole number of bytes, 0 for no cap, not "
                             f"{memory_limit!r}")
        self.timeout = timeout
        self.max_line = max_line
        self.max_depth = max_depth
        self.stderr_tail = stderr_tail
        self.exit_grace = exit_grace
        self.bye_grace = bye_grace
        self.start_timeout = start_timeout  # for `hello`: starting may take longer
        self.memory_limit = memory_limit  # bytes of data memory per process (0: no cap)
        self.env = env
        self.cwd = cwd
        self.deadline: float | None = None
        self._span = 0.0  # the length of the deadline's time when it was set
        self._proc: subprocess.Popen[bytes] | None = None
        self._err = bytearray()  # the last `stderr_tail` bytes the program wrote to stderr
        self._err_fd: int | None = None
        self._next_id = 0
        self._buf = bytearray()  # bytes read from the program, not yet returned as lines
        self._eof = False
        # (id, method, params) of the requests sent and not yet answered, oldest first
        self._pending: deque[tuple[int, str, dict[str, Any] | None]] = deque()
        self.restarts = -1  # number of (re)starts after the first

    # --- process management --------------------------------------------------------------

    def set_deadline(self, deadline: float | None) -> None:
        """Absolute `time.monotonic()` deadline for the current scenario (None: none)."""
        self.deadline = deadline
        self._span = 0.0 if deadline is None else deadline - time.monotonic()

    @property
    def pid(self) -> int | None:
        """The pid of the process started (the supervisor, on Linux), while it runs."""
        return self._proc.pid if self._proc is not None else None

    def _spawnable(self) -> None:
        prog = self.argv[0]
        found = shutil.which(prog, path=(self.env or os.environ).get("PATH")) \
            if os.sep not in prog else (prog if os.access(
                os.path.join(self.cwd or "", prog), os.X_OK) else None)
        if found is None or os.path.isdir(found):
            raise AdapterError("spawn-failed", f"cannot start {shlex.join(self.argv)}: "
                               f"{prog}: no such executable")

    def _start(self) -> subprocess.Popen[bytes]:
        self._spawnable()
        try:
            proc = subprocess.Popen(
                processes.supervisor_argv(self.argv, self.memory_limit), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, cwd=self.cwd,
                start_new_session=True, bufsize=0)
        except OSError as exc:
            raise AdapterError("spawn-failed", f"cannot start {shlex.join(self.argv)}: {exc}") \
                from None
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stderr.fileno(), False)
        self._proc = proc
        self._err = bytearray()
        self._err_fd = proc.stderr.fileno()
        self._buf = bytearray()
        self._eof = False
        self._pending.clear()
        self.restarts += 1
        processes.register(self)
        return proc

    def _read_stderr(self) -> None:
        """Read what the program wrote to stderr (never blocks); keep only the tail."""
        fd = self._err_fd
        if fd is None:
            return
        for _ in range(16):  # at most 1 MiB per call: a flood must not starve the answers
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._err_fd = None
                return
            self._err += chunk
            if len(self._err) > self.stderr_tail:
                del self._err[:len(self._err) - self.stderr_tail]

    def _stderr_text(self) -> str:
        self._read_stderr()
        return bytes(self._err).decode("utf-8", errors="replace").strip()

    def kill(self) -> None:
        """Kill the program and everything it started, now; reap them."""
        proc, self._proc = self._proc, None
        self._pending.clear()
        processes.unregister(self)
        if proc is None:
            return
        if processes.TREE_TRACKING:
            processes.kill_descendants(proc.pid)
        if proc.poll() is None:
            try:
                if processes.TREE_TRACKING:
                    proc.kill()
                else:
                    os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        processes.sweep_orphans()  # what a program that killed its supervisor left
        self._read_stderr()
        self._err_fd = None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _crashed(self, message: str) -> AdapterError:
        """A `crashed` error whose message ends with the last line the program wrote to
        stderr (often the reason: a traceback's last line, a usage error)."""
        lines = self._stderr_text().splitlines()
        if lines:
            last = lines[-1].strip()
            message += f" (stderr: {last[:200]}{'...' if len(last) > 200 else ''})"
        return AdapterError("crashed", message, detail=self.limits())

    def limits(self) -> str:
        """The memory cap the program ran under, for the detail of a crash (a program that hits
        it fails to allocate: that is often why it crashed)."""
        if not self.memory_limit or not processes.TREE_TRACKING:
            return ""
        return (f"the program ran with its data memory capped at "
                f"{_mib(self.memory_limit)} per process (RLIMIT_DATA; --memory-limit)")

    def _fail(self, exc: AdapterError) -> AdapterError:
        tail = self._stderr_text()
        if tail and not exc.detail:
            exc.detail = "stderr: " + tail
        elif tail:
            exc.detail += "\nstderr: " + tail
        self.kill()
        return exc

    # --- requests --------------------------------------------------------------------------

    def _wait_budget(self, method: str = "") -> tuple[float, float]:
        """(seconds left to wait, the limit that sets them: the request's timeout or the
        length of the scenario's time, for the message)."""
        limit = max(self.timeout, self.start_timeout) if method == "hello" else self.timeout
        budget = limit
        if self.deadline is not None and self.deadline - time.monotonic() < budget:
            budget, limit = self.deadline - time.monotonic(), self._span
        return max(budget, 0.01), limit

    def _running(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is None:
            return self._start()
        if proc.poll() is not None and not self._pending:
            raise self._fail(self._crashed(f"adapter {_status(proc.returncode)}"))
        # Exited with answers due: `receive` reports it, at the first answer it never gave.
        return proc

    def _fill(self, proc: subprocess.Popen[bytes]) -> None:
        """Read what the program has written so far (at most one chunk; sets `_eof`)."""
        assert proc.stdout is not None
        try:
            chunk = os.read(proc.stdout.fileno(), _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self._buf += chunk
        else:
            self._eof = True

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        """Write one request (without waiting for its answer); returns its id."""
        return self.send_many([(method, params)])

    def send_many(self, calls: Sequence[tuple[str, dict[str, Any] | None]]) -> int:
        """Write several requests at once (one write); returns the id of the last one."""
        parts = []
        for i, (method, params) in enumerate(calls, self._next_id + 1):
            try:
                parts.append(encode(request(i, method, params)))
            except (TypeError, ValueError) as exc:  # the runner's fault, not the program's
                raise RunnerError(f"{method}: cannot encode the request as JSON: {exc}") \
                    from None
        proc = self._running()
        for method, params in calls:
            self._next_id += 1
            self._pending.append((self._next_id, method, params))
        msg_id = self._next_id
        method = calls[-1][0] if calls else ""
        data = memoryview(b"".join(parts))
        assert proc.stdin is not None and proc.stdout is not None
        fd_in, fd_out = proc.stdin.fileno(), proc.stdout.fileno()
        budget, limit = self._wait_budget(method)
        end = time.monotonic() + budget
        while data:
            try:
                data = data[os.write(fd_in, data):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError, ValueError):
                # The program is gone: the answers it never gave are reported by `receive`
                # (with its exit status), in the order the requests were sent.
                return msg_id
            left = end - time.monotonic()
            if left <= 0:
                raise self._fail(AdapterError(
                    "timeout", f"{method}: the adapter did not read its input for "
                    f"{limit:.2f}s"))
            # The input pipe is full: read answers meanwhile (the program may be blocked
            # writing them), but never buffer more than one line can hold.
            reading = [fd_out] if not self._eof and len(self._buf) <= self.max_line else []
            self._wait(proc, reading, [fd_in], left)
        return msg_id

    def _wait(self, proc: subprocess.Popen[bytes], reading: list[int], writing: list[int],
              left: float) -> None:
        """Wait for one of the fds (and stderr, always read) at most `left` seconds."""
        err = self._err_fd
        readable, _, _ = select.select(reading + ([err] if err is not None else []), writing,
                                       [], left)
        if err is not None and err in readable:
            self._read_stderr()
        if reading and reading[0] in readable:
            self._fill(proc)

    def _line(self, proc: subprocess.Popen[bytes], method: str) -> bytes:
        """The next line the program writes, within the wait budget."""
        assert proc.stdout is not None
        fd_out = proc.stdout.fileno()
        budget, limit = self._wait_budget(method)
        end = time.monotonic() + budget
        scanned = 0
        while True:
            nl = self._buf.find(b"\n", scanned)
            if nl >= 0:
                if nl > self.max_line:
                    break
                line = bytes(self._buf[:nl + 1])
                del self._buf[:nl + 1]
                return line
            if len(self._buf) > self.max_line:
                break
            scanned = len(self._buf)
            if self._eof:
                try:
                    code = proc.wait(timeout=self.exit_grace)
                except subprocess.TimeoutExpired:
                    raise self._fail(ProtocolError(
                        f"{method}: the adapter closed its stdout but is still running")) \
                        from None
                what = f"after {len(self._buf)} bytes of an answer without its newline" \
                    if self._buf else "before answering"
                raise self._fail(self._crashed(f"{method}: adapter {_status(code)} {what}"))
            left = end - time.monotonic()
            if left <= 0:
                raise self._fail(AdapterError(
                    "timeout", f"{method}: no answer within {limit:.2f}s"))
            self._wait(proc, [fd_out], [], left)
        raise self._fail(ProtocolError(f"{method}: response line longer than "
                                       f"{self.max_line} bytes"))

    def receive(self) -> dict[str, Any]:
        """The decoded answer to the oldest request sent and not yet answered."""
        if not self._pending:
            raise AdapterError("protocol-error", "receive: no request is waiting for an answer")
        msg_id, method, _params = self._pending.popleft()
        proc = self._proc
        if proc is None:
            raise AdapterError("crashed", f"{method}: adapter was stopped")
        line = self._line(proc, method)
        try:
            return decode_response(line, msg_id, max_depth=self.max_depth)
        except ProtocolError as exc:
            exc.message = f"{method}: {exc.message}"
            raise self._fail(exc) from None

    @property
    def pending(self) -> int:
        """How many requests sent are still waiting for their answer."""
        return len(self._pending)

    def drain(self, upto: int | None = None) -> None:
        """Read and drop the answers still due (the rest of an abandoned pipeline), all of
        them or those to the requests up to id `upto`."""
        while self._pending and (upto is None or self._pending[0][0] <= upto):
            self.receive()

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and return the decoded response message."""
        self.drain()
        self.send(method, params)
        return self.receive()

    def pipeline(self, calls: Sequence[tuple[str, dict[str, Any] | None]]) -> int:
        """Send these requests now, behind any already sent; returns the id of the last one.
        The adapter methods called next with the same method and params, in the same order,
        take their answers instead of sending again. Only for a program that declared
        `"pipelining": true` (the runner checks)."""
        return self.send_many(calls) if calls else self._next_id

    def _exchange(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """The answer to this request: already sent by `pipeline`, or sent now."""
        if self._pending:
            _mid, due, due_params = self._pending[0]
            if due == method and due_params == params:
                return self.receive()
        return self.call(method, params)

    def _result(self, method: str, params: dict[str, Any] | None = None) -> Any:
        msg = self._exchange(method, params)
        if "error" in msg:
            raise_for_error(method, msg["error"])
        return msg["result"]

    # --- the adapter interface -------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        return check_hello(self._result("hello", {"protocol": PROTOCOL}))

    def setup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        """None: accepted; a rule error (`unresolvable-setup`...): the set-up refused."""
        msg = self._exchange("setup", params)
        if "error" in msg:
            err = msg["error"]
            if err["code"] in RESERVED_CODES:
                raise_for_error("setup", err)
            return check_rejection(err, "setup")
        return None

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        msg = self._exchange("act", {"action": action})
        if "error" in msg:
            err = msg["error"]
            if err["code"] in ("unsupported", "bad-request", "internal-error"):
                raise_for_error("act", err)
            return check_rejection(err)
        return None

    def observe(self, keys: list[str]) -> dict[str, Any]:
        result = self._result("observe", {"keys": keys})
        if not isinstance(result, dict):
            raise self._fail(ProtocolError("observe must return an object"))
        return result

    def match(self, params: dict[str, Any]) -> Any:
        """The schedule and tally of a match format (feature partners-match); the runner
        checks the answer's shape (conformance.matches.check_answer)."""
        return self._result("match", params)

    def close(self) -> None:
        self._pending.clear()
        proc = self._proc
        if proc is not None and proc.poll() is None and proc.stdin is not None:
            try:
                self._next_id += 1
                proc.stdin.write(encode(request(self._next_id, "bye")))
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=self.bye_grace)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()
