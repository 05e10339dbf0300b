"""The adapter protocol `uno-conformance/1`: the in-process interface and its JSON-lines wire form.

In process, an adapter is any object with these methods (dict payloads, JSON data only):

    hello() -> dict                      capabilities: protocol, name, version, rulesets,
                                         features, observations
    setup(params) -> None | dict         params: {"ruleset", "setup", "seed"}; raise Unsupported;
                                         {"code", "rule"?, "message"?}: the set-up refused by
                                         a rule (wrong-player-count, unresolvable-setup)
    act(action) -> None | dict           None: accepted; {"code", "rule"?, "message"?}: rejected
                                         by a rule (the state must be unchanged); raise
                                         Unsupported for an action the implementation lacks
    observe(keys) -> dict                the requested observation keys (see docs)
    close() -> None

Anything else going wrong is an `AdapterError` (the runner reports the scenario `errored` and
restarts the adapter). On the wire every request is one JSON object on one line with an `id`;
every response echoes the `id` and carries `result` or `error` (docs/adapter-protocol.md).
"""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

PROTOCOL = "uno-conformance/1"
METHODS = ("hello", "setup", "act", "observe", "bye")
# Error codes reserved by the protocol itself (rule error codes live in spec/errors.yaml).
UNSUPPORTED = "unsupported"
BAD_REQUEST = "bad-request"
INTERNAL_ERROR = "internal-error"
RESERVED_CODES = (UNSUPPORTED, BAD_REQUEST, INTERNAL_ERROR)
OBSERVATIONS = ("hands", "hand_sizes", "top", "active_color", "current", "pending", "direction",
                "side", "draw_size", "discard_size", "scores", "round_over", "game_over",
                "winner")
MAX_LINE = 1 << 20  # 1 MiB: longer response lines are a protocol error


class AdapterError(Exception):
    """The adapter failed (crash, timeout, garbage, protocol violation, internal error)."""

    def __init__(self, code: str, message: str = "", *, detail: str = "") -> None:
        self.code = code
        self.message = message
        self.detail = detail
        super().__init__(f"{code}: {message}" if message else code)


class ProtocolError(AdapterError):
    """A response that breaks the wire protocol (not JSON, wrong id, bad shape, too long)."""

    def __init__(self, message: str, *, detail: str = "") -> None:
        super().__init__("protocol-error", message, detail=detail)


class Unsupported(Exception):  # noqa: N818 - the protocol's name for it
    """The implementation does not support what was asked (ruleset, setup, action)."""


@runtime_checkable
class Adapter(Protocol):
    def hello(self) -> dict[str, Any]: ...

    def setup(self, params: dict[str, Any]) -> Any: ...

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None: ...

    def observe(self, keys: list[str]) -> dict[str, Any]: ...

    def close(self) -> None: ...


def check_hello(caps: Any) -> dict[str, Any]:
    """Validate a hello result; returns it with list fields defaulted."""
    if not isinstance(caps, dict):
        raise ProtocolError(f"hello must return an object, got {type(caps).__name__}")
    proto = caps.get("protocol")
    if proto != PROTOCOL:
        raise ProtocolError(f"adapter speaks {proto!r}, the runner speaks {PROTOCOL!r}")
    out = dict(caps)
    for key in ("rulesets", "features", "observations"):
        val = out.get(key, [])
        if not isinstance(val, list) or not all(isinstance(v, str) for v in val):
            raise ProtocolError(f"hello: {key!r} must be a list of strings")
        out[key] = val
    out.setdefault("name", "unknown")
    out.setdefault("version", "")
    return out


def check_rejection(result: Any, method: str = "act") -> dict[str, Any] | None:
    """Validate what `act` (or `setup`) returned: None (accepted) or {"code": str, "rule"?}."""
    if result is None or result == {}:
        return None
    if not isinstance(result, dict) or not isinstance(result.get("code"), str):
        raise ProtocolError(f"{method} must return null or an error object with a code, "
                            f"got {result!r}")
    return result


# --- wire format ---------------------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes:
    """One message as one JSON line (UTF-8, no embedded newlines)."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"id": msg_id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def decode_response(line: bytes, expected_id: int) -> dict[str, Any]:
    """Parse one response line; it must be an object echoing `expected_id` with result|error."""
    text = line.decode("utf-8", errors="replace").strip()
    try:
        msg = json.loads(text)
    except ValueError:
        raise ProtocolError("response is not JSON", detail=_clip(text)) from None
    if not isinstance(msg, dict):
        raise ProtocolError("response is not a JSON object", detail=_clip(text))
    if msg.get("id") != expected_id:
        raise ProtocolError(f"response id {msg.get('id')!r} does not match request id "
                            f"{expected_id}", detail=_clip(text))
    has_result, has_error = "result" in msg, "error" in msg
    if has_result == has_error:
        raise ProtocolError("response must carry exactly one of `result` and `error`",
                            detail=_clip(text))
    if has_error:
        err = msg["error"]
        if not isinstance(err, dict) or not isinstance(err.get("code"), str):
            raise ProtocolError("`error` must be an object with a string `code`",
                                detail=_clip(text))
    return msg


def raise_for_error(method: str, err: dict[str, Any]) -> None:
    """Turn a wire error of a non-act method into the in-process exception."""
    code = err["code"]
    message = str(err.get("message", ""))
    if code == UNSUPPORTED:
        raise Unsupported(message or f"{method}: unsupported")
    raise AdapterError(code, f"{method}: {message}" if message else method)


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
