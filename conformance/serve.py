"""Expose an in-process adapter over stdin/stdout as `uno-conformance/2` JSON lines.

`uno-fsm conformance serve --adapter reference` turns the reference engine into a program that
any runner (this one through `--adapter stdio:'...'`, or another project's) can drive. It is
also the reference server for the wire protocol: see docs/adapter-protocol.md.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from conformance.protocol import (
    BAD_REQUEST,
    INTERNAL_ERROR,
    MAX_LINE,
    PROTOCOL,
    UNSUPPORTED,
    AdapterError,
    Unsupported,
    check_rejection,
    encode,
)


def handle(adapter: Any, msg: Any) -> tuple[dict[str, Any], bool]:
    """Answer one request; returns (response, stop)."""
    if not isinstance(msg, dict) or type(msg.get("id")) is not int \
            or not isinstance(msg.get("method"), str):
        mid = msg.get("id") if isinstance(msg, dict) else None
        return {"id": mid, "error": {"code": BAD_REQUEST, "message": "a request is an object "
                                     "with an integer id and a method"}}, False
    mid, method = msg["id"], msg["method"]
    params = msg.get("params") or {}
    if not isinstance(params, dict):
        return {"id": mid, "error": {"code": BAD_REQUEST, "message": "params must be an object"}}, \
            False
    try:
        if method == "hello":
            caps = dict(adapter.hello())
            caps.setdefault("protocol", PROTOCOL)
            caps.setdefault("pipelining", True)  # `serve` answers in order whatever it gets
            return {"id": mid, "result": caps}, False
        if method == "setup":  # a set-up refused by a rule is answered like a refused act
            refusal = check_rejection(adapter.setup(params), "setup")
            if refusal is None:
                return {"id": mid, "result": {}}, False
            return {"id": mid, "error": refusal}, False
        if method == "act":
            rejection = check_rejection(adapter.act(params.get("action") or {}))
            if rejection is None:
                return {"id": mid, "result": {}}, False
            return {"id": mid, "error": rejection}, False
        if method == "observe":
            keys = params.get("keys") or []
            return {"id": mid, "result": adapter.observe(list(keys))}, False
        if method == "match":  # optional (feature partners-match): unsupported without it
            ask = getattr(adapter, "match", None)
            if not callable(ask):
                raise Unsupported("this adapter has no `match` operation")
            return {"id": mid, "result": ask(params)}, False
        if method == "bye":
            return {"id": mid, "result": {}}, True
        return {"id": mid, "error": {"code": BAD_REQUEST,
                                     "message": f"unknown method {method!r}"}}, False
    except Unsupported as exc:
        return {"id": mid, "error": {"code": UNSUPPORTED, "message": str(exc)}}, False
    except AdapterError as exc:  # the adapter's own verdict on the request, or its failure
        # a request it did not understand stays `bad-request`; anything else it failed at is
        # `internal-error` with the adapter's code first ("rlcard-crashed: ..."), as the
        # in-process adapter says it, not its class's name
        if exc.code in (BAD_REQUEST, INTERNAL_ERROR):
            return {"id": mid, "error": {"code": exc.code, "message": exc.message or exc.code}}, \
                False
        return {"id": mid, "error": {"code": INTERNAL_ERROR, "message": str(exc)}}, False
    except Exception as exc:  # noqa: BLE001 - report, keep serving
        # (a MemoryError at the worker's memory cap has no text: its name alone)
        text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return {"id": mid, "error": {"code": INTERNAL_ERROR, "message": text}}, False


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _answer(adapter: Any, raw: bytes) -> tuple[bytes, bool]:
    """The response line to one request line; returns (line, stop)."""
    try:
        msg: Any = json.loads(raw, parse_constant=_not_json)
    except (ValueError, RecursionError):
        response: dict[str, Any] = {
            "id": None, "error": {"code": BAD_REQUEST, "message": "not JSON"}}
        stop = False
    else:
        response, stop = handle(adapter, msg)
    try:
        line = encode(response)
    except (TypeError, ValueError, RecursionError) as exc:
        line = encode({"id": response.get("id"), "error": {
            "code": INTERNAL_ERROR, "message": f"result is not JSON data: {exc}"}})
    return line, stop


def _fileno(stream: IO[bytes]) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


class RequestTooLong(Exception):
    """A request line longer than the limit: answered `bad-request`, then serving stops (the
    rest of the line, possibly endless, is never read)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"a request line longer than {limit} bytes: stopped serving")


def too_long_answer(limit: int) -> bytes:
    """The answer to a request line longer than `limit` bytes (its id is unknown: null)."""
    return encode({"id": None, "error": {
        "code": BAD_REQUEST, "message": f"request line longer than {limit} bytes"}})


def serve(adapter: Any, instream: IO[bytes], outstream: IO[bytes], *,
          max_line: int = MAX_LINE) -> int:
    """Serve requests until `bye` or end of input.

    Requests are answered one by one, in order, and each answer is written and flushed as soon
    as its request is handled: a request that hangs never holds back the answers to those
    before it, even when they arrived in the same read (a runner that pipelines,
    docs/adapter-protocol.md, then judges them and times out only the one that hangs).

    A request line longer than `max_line` bytes (its newline not counted) is answered
    `bad-request` with a null id as soon as that many bytes are read without a newline, and
    `RequestTooLong` is raised (the adapter closed first): the rest of such a line is never
    read, so endless input without a newline (`< /dev/zero`) ends at once.
    """
    fd = _fileno(instream)
    try:
        lines = _lines_fd(fd, max_line) if fd is not None else _lines(instream, max_line)
        for raw in lines:
            if raw is None:
                outstream.write(too_long_answer(max_line))
                outstream.flush()
                raise RequestTooLong(max_line)
            if not raw.strip():
                continue
            line, stop = _answer(adapter, raw)
            outstream.write(line)
            outstream.flush()
            if stop:
                break
    finally:
        try:
            adapter.close()
        except Exception:  # noqa: BLE001
            pass
    return 0


def _lines(stream: IO[bytes], max_line: int) -> Iterator[bytes | None]:
    """The lines of a stream without a file descriptor (`io.BytesIO`), as `_lines_fd`."""
    while True:
        line = stream.readline(max_line + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) > max_line:
            yield None
            return
        else:
            yield line


def _lines_fd(fd: int, max_line: int = MAX_LINE) -> Iterator[bytes | None]:
    """The lines read from `fd` (read in big chunks: several requests may come at once),
    without their newline; a last line without its newline too. None, and nothing after it,
    for a line longer than `max_line` bytes, as soon as that many bytes have come without a
    newline. Only the bytes just read are searched for a newline: a long line costs time in
    proportion to its length, never to its square."""
    pending = bytearray()
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if pending:
                yield bytes(pending)
            return
        start = 0
        while (nl := chunk.find(b"\n", start)) >= 0:
            if len(pending) + nl - start > max_line:
                yield None
                return
            pending += chunk[start:nl]
            yield bytes(pending)
            pending.clear()
            start = nl + 1
        if len(pending) + len(chunk) - start > max_line:
            yield None
            return
        pending += chunk[start:]


def protocol_stdout() -> IO[bytes]:
    """The process's real stdout, kept for the protocol alone: from now on anything else written
    to stdout (file descriptor 1, `sys.stdout`: an adapter's module printing as it is imported,
    an adapter printing while it plays) goes to stderr, where the runner quotes it, and never
    between two answers. Called before the adapter is imported."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def serve_stdio(adapter: Any, out: IO[bytes] | None = None) -> int:
    """Serve on the process's real stdout (`out`: what `protocol_stdout` returned, else it is
    called now); anything else printing to stdout goes to stderr."""
    out = out if out is not None else protocol_stdout()
    try:
        return serve(adapter, sys.stdin.buffer, out)
    finally:
        out.close()
