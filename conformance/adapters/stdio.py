"""Adapter for any program speaking `uno-conformance/1` as JSON lines over stdin/stdout.

The program is started lazily and restarted after anything goes wrong: it crashed, it did not
answer within the request timeout, it answered garbage, a wrong `id`, or a line longer than
`max_line` bytes. Each of these raises `AdapterError` (the runner reports the scenario as
`errored` and carries on); the process is killed first so that no stale output can leak into
the next scenario. Its stderr goes to a temporary file whose tail is quoted in the error.

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
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from conformance.protocol import (
    MAX_LINE,
    PROTOCOL,
    RESERVED_CODES,
    AdapterError,
    ProtocolError,
    check_hello,
    check_rejection,
    decode_response,
    encode,
    raise_for_error,
    request,
)

_CHUNK = 1 << 16


class StdioAdapter:
    """Runs `command` and talks to it over pipes (one request, one response line)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0,
                 max_line: int = MAX_LINE, env: dict[str, str] | None = None,
                 cwd: str | None = None) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty command line for the stdio adapter")
        self.timeout = timeout
        self.max_line = max_line
        self.env = env
        self.cwd = cwd
        self.deadline: float | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
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

    def _start(self) -> subprocess.Popen[bytes]:
        self._stderr = tempfile.TemporaryFile()
        try:
            proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                env=self.env, cwd=self.cwd, start_new_session=True, bufsize=0)
        except OSError as exc:
            raise AdapterError("spawn-failed", f"cannot start {shlex.join(self.argv)}: {exc}") \
                from None
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._buf = bytearray()
        self._eof = False
        self._pending.clear()
        self.restarts += 1
        return proc

    def _stderr_tail(self, limit: int = 2000) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.flush()
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - limit))
            return self._stderr.read().decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _fail(self, exc: AdapterError) -> AdapterError:
        tail = self._stderr_tail()
        if tail and not exc.detail:
            exc.detail = "stderr: " + tail
        elif tail:
            exc.detail += "\nstderr: " + tail
        self._kill()
        self._pending.clear()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        return exc

    # --- requests --------------------------------------------------------------------------

    def _wait_budget(self) -> float:
        budget = self.timeout
        if self.deadline is not None:
            budget = min(budget, self.deadline - time.monotonic())
        return max(budget, 0.01)

    def _running(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is None:
            return self._start()
        if proc.poll() is not None and not self._pending:
            raise self._fail(AdapterError("crashed",
                                          f"adapter exited with status {proc.returncode}"))
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
        proc = self._running()
        parts = []
        for method, params in calls:
            self._next_id += 1
            parts.append(encode(request(self._next_id, method, params)))
            self._pending.append((self._next_id, method, params))
        msg_id = self._next_id
        method = calls[-1][0] if calls else ""
        data = memoryview(b"".join(parts))
        assert proc.stdin is not None and proc.stdout is not None
        fd_in, fd_out = proc.stdin.fileno(), proc.stdout.fileno()
        end = time.monotonic() + self._wait_budget()
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
                    f"{self._wait_budget():.2f}s"))
            # The input pipe is full: read answers meanwhile (the program may be blocked
            # writing them), but never buffer more than one line can hold.
            reading = [fd_out] if not self._eof and len(self._buf) <= self.max_line else []
            readable, _, _ = select.select(reading, [fd_in], [], left)
            if readable:
                self._fill(proc)
        return msg_id

    def _line(self, proc: subprocess.Popen[bytes], method: str) -> bytes:
        """The next line the program writes, within the wait budget."""
        assert proc.stdout is not None
        fd_out = proc.stdout.fileno()
        budget = self._wait_budget()
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
                    code = proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    code = None
                raise self._fail(AdapterError("crashed", f"{method}: adapter exited with "
                                              f"status {code} before answering"))
            left = end - time.monotonic()
            if left <= 0:
                raise self._fail(AdapterError(
                    "timeout", f"{method}: no answer within {budget:.2f}s"))
            readable, _, _ = select.select([fd_out], [], [], left)
            if readable:
                self._fill(proc)
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
            return decode_response(line, msg_id)
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

    def close(self) -> None:
        self._pending.clear()
        proc = self._proc
        if proc is not None and proc.poll() is None and proc.stdin is not None:
            try:
                self._next_id += 1
                proc.stdin.write(encode(request(self._next_id, "bye")))
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._kill()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
