"""Adapter for any program speaking `uno-conformance/1` as JSON lines over stdin/stdout.

The program is started lazily and restarted after anything goes wrong: it crashed, it did not
answer within the request timeout, it answered garbage, a wrong `id`, or a line longer than
`max_line` bytes. Each of these raises `AdapterError` (the runner reports the scenario as
`errored` and carries on); the process is killed first so that no stale output can leak into
the next scenario. Its stderr goes to a temporary file whose tail is quoted in the error.
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

from conformance.protocol import (
    MAX_LINE,
    PROTOCOL,
    AdapterError,
    ProtocolError,
    check_hello,
    check_rejection,
    decode_response,
    encode,
    raise_for_error,
    request,
)

_EOF = object()
_TOO_LONG = object()


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
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: IO[bytes] | None = None
        self._next_id = 0
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
                env=self.env, cwd=self.cwd, start_new_session=True)
        except OSError as exc:
            raise AdapterError("spawn-failed", f"cannot start {shlex.join(self.argv)}: {exc}") \
                from None
        self._proc = proc
        self._lines = queue.Queue()
        self.restarts += 1
        threading.Thread(target=self._reader, args=(proc, self._lines), daemon=True).start()
        return proc

    def _reader(self, proc: subprocess.Popen[bytes], out: queue.Queue[object]) -> None:
        stream = proc.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(self.max_line + 1)
                if not line:
                    out.put(_EOF)
                    return
                if len(line) > self.max_line and not line.endswith(b"\n"):
                    out.put(_TOO_LONG)
                    return
                out.put(line)
        except (OSError, ValueError):
            out.put(_EOF)

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

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and return the decoded response message."""
        proc = self._proc if self._proc is not None and self._proc.poll() is None else None
        if proc is None:
            if self._proc is not None:
                code = self._proc.returncode
                raise self._fail(AdapterError("crashed", f"adapter exited with status {code}"))
            proc = self._start()
        self._next_id += 1
        msg_id = self._next_id
        assert proc.stdin is not None
        try:
            proc.stdin.write(encode(request(msg_id, method, params)))
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = proc.poll()
            raise self._fail(AdapterError("crashed", f"{method}: adapter closed its input "
                                          f"(exit status {code})")) from None
        budget = self._wait_budget()
        try:
            item = self._lines.get(timeout=budget)
        except queue.Empty:
            raise self._fail(AdapterError(
                "timeout", f"{method}: no answer within {budget:.2f}s")) from None
        if item is _EOF:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
            raise self._fail(AdapterError("crashed", f"{method}: adapter exited with status "
                                          f"{code} before answering"))
        if item is _TOO_LONG:
            raise self._fail(ProtocolError(f"{method}: response line longer than "
                                           f"{self.max_line} bytes"))
        assert isinstance(item, bytes)
        try:
            return decode_response(item, msg_id)
        except ProtocolError as exc:
            exc.message = f"{method}: {exc.message}"
            raise self._fail(exc) from None

    def _result(self, method: str, params: dict[str, Any] | None = None) -> Any:
        msg = self.call(method, params)
        if "error" in msg:
            raise_for_error(method, msg["error"])
        return msg["result"]

    # --- the adapter interface -------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        return check_hello(self._result("hello", {"protocol": PROTOCOL}))

    def setup(self, params: dict[str, Any]) -> None:
        self._result("setup", params)

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
        msg = self.call("act", {"action": action})
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
