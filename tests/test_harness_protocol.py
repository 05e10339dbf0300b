"""Protocol clarity and bounded output (issue 11, items 4 adapter side and 9): every broken
answer is named for what it is, the runner's own failures are not blamed on the adapter, and
what an adapter sends is bounded (line size, nesting depth, observation size, stderr tail).

Each case runs the three harness scenarios (or one request) against a hostile program or
adapter and asserts the exact verdicts; the autouse fixture checks no process is left.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import HARNESS, hostile, no_process_left, run, verdicts  # noqa: F401

from conformance import compare
from conformance.protocol import (
    PROTOCOL,
    AdapterError,
    ProtocolError,
    RunnerError,
    decode_response,
)
from conformance.runner import Runner
from conformance.serve import serve

_BEFORE_FF = '{"id":5,"result":{"x":"'  # what hostile_stdio.py writes before the 0xff byte
# hello is request 1; harness.1 sends setup (2), act (3), observe (4); harness.2's setup is 5.
BROKEN = [
    ("id-true", "response id true does not match request id 5"),
    ("id-float", "response id 5.0 does not match request id 5"),
    ("id-string", 'response id "5" does not match request id 5'),
    ("id-missing", "response id missing does not match request id 5"),
    ("nan", "response contains NaN, which is not JSON (RFC 8259)"),
    ("infinity", "response contains -Infinity, which is not JSON (RFC 8259)"),
    ("deep", "response nests arrays/objects deeper than 64 levels"),
    ("bad-utf8", f"response is not UTF-8 (byte 0xff at offset {len(_BEFORE_FF)})"),
]


@pytest.mark.parametrize(("mode", "message"), BROKEN, ids=[m for m, _ in BROKEN])
def test_a_broken_answer_is_named_and_the_neighbours_pass(mode: str, message: str) -> None:
    report, made = run(["--mode", mode, "--seed", "2"])
    assert verdicts(report) == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", f"protocol-error: setup: {message}"),
        ("harness.3", "passed", "")]
    assert len(made) == 2 and report.summary()["total"] == 3


@pytest.mark.parametrize("mode", ["bom", "crlf", "bom,crlf"])
def test_a_byte_order_mark_and_crlf_line_ends_are_accepted(mode: str) -> None:
    report, made = run(["--mode", mode, "--when", "hello"])
    assert [r.status for r in report.results] == ["passed"] * 3
    assert len(made) == 1


def test_an_answer_cut_short_by_the_exit_is_named() -> None:
    report, _ = run(["--mode", "unterminated", "--seed", "1"])
    assert verdicts(report)[0] == (
        "harness.1", "errored", "crashed: setup: adapter exited with status 0 after "
        f"{len(json.dumps({'id': 2, 'result': {}}))} bytes "
        "of an answer without its newline")


def test_an_observation_over_the_cap_is_a_protocol_error() -> None:
    report, _ = run(["--mode", "big-observe", "--seed", "1"])
    size = len(json.dumps({"current": 1, "top": "R7", "padding": "p" * 300_000},
                          separators=(",", ":")))
    assert verdicts(report)[0] == (
        "harness.1", "errored",
        f"protocol-error: observe returned {size} bytes of JSON, over the 262144-byte cap")
    assert [r.status for r in report.results] == ["errored", "passed", "passed"]


def test_the_line_cap_is_a_parameter() -> None:
    report, _ = run(["--mode", "big-observe", "--seed", "1"], max_line=10_000)
    assert verdicts(report)[0] == (
        "harness.1", "errored", "protocol-error: observe: response line longer than 10000 bytes")


def test_the_depth_cap_is_a_parameter() -> None:
    """hello's result nests 3 deep (object, lists): over a cap of 2 at the very first answer."""
    a = hostile(max_depth=2)
    with pytest.raises(ProtocolError) as info:
        a.hello()
    assert info.value.message == "hello: response nests arrays/objects deeper than 2 levels"
    assert a.pid is None  # killed at once


def test_a_request_the_runner_cannot_encode_is_the_runners_error() -> None:
    a = hostile()
    with pytest.raises(RunnerError) as info:
        a.send("setup", {"seed": {1, 2}})
    assert str(info.value) == ("setup: cannot encode the request as JSON: Object of type set is "
                               "not JSON serializable")
    assert a.pending == 0 and a.pid is None  # nothing sent, nothing started


def test_the_runner_never_sends_nan_and_says_it_is_its_own_fault() -> None:
    scenarios = [dataclasses.replace(HARNESS[0], seed=math.nan), HARNESS[1]]
    report, made = run([], scenarios)
    assert verdicts(report) == [
        ("harness.1", "errored", "runner error: setup: cannot encode the request as JSON: Out "
         "of range float values are not JSON compliant"),
        ("harness.2", "passed", "")]
    assert len(made) == 1  # the adapter did nothing wrong: it is not restarted


def test_a_failure_of_the_runners_own_code_is_not_blamed_on_the_adapter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_a: Any) -> Any:
        raise ZeroDivisionError("a bug in the comparison")

    monkeypatch.setattr(compare, "compare", broken)
    report, _ = run([], HARNESS[:1])
    assert verdicts(report) == [
        ("harness.1", "errored",
         "internal error in the runner: ZeroDivisionError: a bug in the comparison")]


class _Raising:
    """In-process adapters misbehaving in the ways only Python objects can."""

    def __init__(self, how: str) -> None:
        self.how = how

    def hello(self) -> dict[str, Any]:
        return {"protocol": PROTOCOL, "rulesets": ["classic-official"],
                "features": ["basic-play"], "observations": ["current", "top"]}

    def setup(self, params: dict[str, Any]) -> None:
        if self.how == "raise":
            raise KeyError("hands")

    def act(self, action: dict[str, Any]) -> None:
        return None

    def observe(self, keys: list[str]) -> Any:
        if self.how == "nan":
            return {"current": math.nan, "top": "R7"}
        if self.how == "list":
            return [1, "R7"]
        return {"current": 1, "top": object()}

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("how", "message"), [
    ("raise", "adapter raised KeyError: 'hands'"),
    ("nan", "protocol-error: observe returned something that is not JSON data (Out of range "
     "float values are not JSON compliant)"),
    ("list", "protocol-error: observe returned list, expected an object"),
    ("object", "protocol-error: observe returned something that is not JSON data (Object of "
     "type object is not JSON serializable)"),
])
def test_in_process_answers_are_checked_like_wire_ones(how: str, message: str) -> None:
    report = Runner(lambda: _Raising(how), timeout=1).run(HARNESS[:1])
    assert verdicts(report) == [("harness.1", "errored", message)]


def test_decode_accepts_a_plain_answer_with_a_bom_and_crlf() -> None:
    assert decode_response(b'\xef\xbb\xbf{"id":7,"result":{}}\r\n', 7) == {"id": 7, "result": {}}


def test_decode_refuses_a_second_bom_and_the_constants_json_lacks() -> None:
    from conformance.protocol import ProtocolError

    with pytest.raises(ProtocolError) as info:
        decode_response(b'\xef\xbb\xbf\xef\xbb\xbf{"id":7,"result":{}}\n', 7)
    assert info.value.message == ("response is not JSON (Unexpected UTF-8 BOM (decode using "
                                  "utf-8-sig): line 1 column 1 (char 0))")
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(ProtocolError) as info:
            decode_response(b'{"id":7,"result":{"x":%s}}\n' % constant.encode(), 7)
        assert info.value.message == f"response contains {constant}, which is not JSON (RFC 8259)"


def _serve(lines: list[bytes], adapter: Any = None) -> list[dict[str, Any]]:
    from tiny_engine import FakeAdapter

    out = io.BytesIO()
    serve(adapter or FakeAdapter(), io.BytesIO(b"\n".join(lines) + b"\n"), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


@pytest.mark.parametrize(("line", "message"), [
    (b'{"id":true,"method":"hello"}', "a request is an object with an integer id and a method"),
    (b'{"id":1.0,"method":"hello"}', "a request is an object with an integer id and a method"),
    (b'{"id":1,"method":"setup","params":{"seed":NaN}}', "not JSON"),
    (b'{"id":1,"method":"observe","params":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "not JSON"),
])
def test_serve_answers_a_bad_request_and_keeps_serving(line: bytes, message: str) -> None:
    answers = _serve([line, b'{"id":2,"method":"bye"}'])
    assert answers[0]["error"] == {"code": "bad-request", "message": message}
    assert answers[1] == {"id": 2, "result": {}}


TOO_LONG = {"id": None, "error": {"code": "bad-request",
                                  "message": "request line longer than 1048576 bytes"}}


@pytest.mark.parametrize("fd", [False, True], ids=["stream", "pipe"])
def test_serve_answers_a_request_line_at_the_limit_and_refuses_one_past_it(
        fd: bool, tmp_path: Path) -> None:
    """`serve` had no limit on a request line (it buffered one without end): a line of
    `MAX_LINE` bytes is read (and answered: not JSON), one byte more is answered
    `bad-request` with a null id and serving stops; what follows is not read."""
    from tiny_engine import FakeAdapter

    from conformance.serve import RequestTooLong

    data = (b'{"id":1,"method":"hello"}\n' + b" " * ((1 << 20) - 1) + b"x\n"
            + b"y" * ((1 << 20) + 1) + b'\n{"id":2,"method":"bye"}\n')
    out = io.BytesIO()
    if fd:
        source = tmp_path / "requests"
        source.write_bytes(data)
        stream: Any = source.open("rb")
    else:
        stream = io.BytesIO(data)
    with stream, pytest.raises(RequestTooLong) as info:
        serve(FakeAdapter(), stream, out)
    assert str(info.value) == "a request line longer than 1048576 bytes: stopped serving"
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a.get("error") for a in answers] == [
        None, {"code": "bad-request", "message": "not JSON"}, TOO_LONG["error"]]
    assert answers[2] == TOO_LONG


def test_serve_cli_ends_at_once_on_endless_input_without_a_newline() -> None:
    """`conformance serve < /dev/zero` read without end (113 MB to 290 MB in 45 s, no answer,
    every read searching the whole buffer again): now one answer, one line, exit 2, after
    reading about `MAX_LINE` bytes of a 64 MiB pipe."""
    proc = subprocess.Popen([sys.executable, "-m", "uno_cli", "conformance", "serve"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None
    written = [0]

    def feed() -> None:
        assert proc.stdin is not None
        block = b"\0" * (1 << 16)
        try:
            proc.stdin.write(b'{"id":1,"method":"hello"}\n')
            for _ in range(1024):  # 64 MiB, no newline
                written[0] += proc.stdin.write(block) or 0
            proc.stdin.close()
        except BrokenPipeError:
            pass

    start = time.monotonic()
    writer = threading.Thread(target=feed)
    writer.start()
    stop = threading.Timer(30, proc.kill)  # not `communicate`: it would close stdin now
    stop.start()
    try:
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait()
    finally:
        stop.cancel()
        proc.kill()
        proc.wait()
        writer.join()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert time.monotonic() - start < 15
    lines = out.splitlines()
    assert json.loads(lines[0])["id"] == 1
    assert [json.loads(x) for x in lines[1:]] == [TOO_LONG]
    assert err.decode().splitlines() == [
        "uno-fsm conformance serve: a request line longer than 1048576 bytes: stopped serving"]
    assert proc.returncode == 2
    assert written[0] < 4 << 20  # it stopped reading (64 MiB were offered)


def test_serve_cli_on_dev_zero() -> None:
    """`/dev/zero` itself as the input: the same answer and line, at once."""
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-m", "uno_cli", "conformance", "serve"],
                              stdin=zero, capture_output=True, timeout=20)
    assert [json.loads(x) for x in done.stdout.splitlines()] == [TOO_LONG]
    assert done.stderr.decode().splitlines() == [
        "uno-fsm conformance serve: a request line longer than 1048576 bytes: stopped serving"]
    assert done.returncode == 2


def test_serve_never_writes_nan() -> None:
    class NanObserver(_Raising):
        pass

    answers = _serve([b'{"id":1,"method":"observe","params":{"keys":["current"]}}'],
                     NanObserver("nan"))
    assert answers == [{"id": 1, "error": {
        "code": "internal-error",
        "message": "result is not JSON data: Out of range float values are not JSON "
                   "compliant"}}]


class _Failing(_Raising):
    """An in-process adapter whose `setup` refuses the request and whose `act` fails with
    a code of its own, as the third-party adapters do (`rlcard-crashed`...)."""

    def setup(self, params: dict[str, Any]) -> None:
        raise AdapterError("bad-request", "setup: unknown start 'nowhere'")

    def act(self, action: dict[str, Any]) -> None:
        raise AdapterError("rlcard-crashed", "RLCard raised IndexError on 'draw': pop from "
                                             "empty list")

    def observe(self, keys: list[str]) -> Any:
        raise AdapterError("internal-error", "observe: the game is gone")


def test_serve_passes_an_adapters_own_error_on_without_its_class_name() -> None:
    """`serve` sent every `AdapterError` as `internal-error` with "AdapterError: " before its
    text, so verdicts over stdio read "internal-error: act: AdapterError: rlcard-crashed:
    ..." where the in-process run said "rlcard-crashed: ..."; and a set-up the adapter did not
    understand was an internal error, not a bad request."""
    answers = _serve([b'{"id":1,"method":"setup","params":{"start":"nowhere"}}',
                      b'{"id":2,"method":"act","params":{"action":{"kind":"draw"}}}',
                      b'{"id":3,"method":"observe","params":{"keys":["top"]}}',
                      b'{"id":4,"method":"bye"}'], _Failing("raise"))
    assert answers == [
        {"id": 1, "error": {"code": "bad-request", "message": "setup: unknown start 'nowhere'"}},
        {"id": 2, "error": {"code": "internal-error", "message": "rlcard-crashed: RLCard raised "
                            "IndexError on 'draw': pop from empty list"}},
        {"id": 3, "error": {"code": "internal-error", "message": "observe: the game is gone"}},
        {"id": 4, "result": {}}]
