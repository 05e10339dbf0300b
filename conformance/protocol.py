"""The adapter protocol `uno-conformance/2`: the in-process interface and its JSON-lines wire form.

In process, an adapter is any object with these methods (dict payloads, JSON data only):

    hello() -> dict                      capabilities: protocol, name, version, rulesets,
                                         features, observations, players ({min, max}),
                                         params (the ruleset parameters it can set)
    setup(params) -> None | dict         params: {"ruleset", "setup", "seed", "params"?}; raise
                                         Unsupported;
                                         {"code", "rule"?, "message"?}: the set-up refused by
                                         a rule (wrong-player-count, unresolvable-setup)
    act(action) -> None | dict           None: accepted; {"code", "rule"?, "message"?}: rejected
                                         by a rule (the state must be unchanged); raise
                                         Unsupported for an action the implementation lacks
    observe(keys) -> dict                the requested observation keys (see docs)
    match(params) -> dict                optional (feature partners-match): params {"format",
                                         "rounds"?, "results"?}; the schedule and the tally
                                         (conformance.matches); raise Unsupported
    close() -> None

Anything else going wrong is an `AdapterError` (the runner reports the scenario `errored` and
restarts the adapter). On the wire every request is one JSON object on one line with an `id`;
every response echoes the `id` and carries `result` or `error` (docs/adapter-protocol.md).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Protocol, runtime_checkable

PROTOCOL = "uno-conformance/2"
# the versions a runner accepts in a `hello`: /2 may declare its player counts (`players`); a
# hello without them (and every /1 hello) plays every count from 2 to 10 (docs/adapter-protocol.md
# "Versions")
PROTOCOLS = (PROTOCOL, "uno-conformance/1")
PLAYERS = (2, 10)  # what a hello without `players` is read as declaring
MAX_PLAYERS = 99  # the largest count a scenario names (a set-up refusal's)
MAX_NAME = 200  # characters of hello's `name` and `version` (shown in every report's title)
METHODS = ("hello", "setup", "act", "observe", "match", "bye")  # match: partners-match only
# Error codes reserved by the protocol itself (rule error codes live in spec/errors.yaml).
UNSUPPORTED = "unsupported"
BAD_REQUEST = "bad-request"
INTERNAL_ERROR = "internal-error"
RESERVED_CODES = (UNSUPPORTED, BAD_REQUEST, INTERNAL_ERROR)
OBSERVATIONS = ("hands", "hand_sizes", "top", "active_color", "current", "pending", "direction",
                "side", "draw_size", "discard_size", "scores", "round_over", "game_over",
                "winner")
MAX_LINE = 1 << 20  # 1 MiB: longer response lines are a protocol error
MAX_DEPTH = 64  # arrays/objects nested deeper in a response are a protocol error
MAX_OBSERVATION = 256 << 10  # 256 KiB: a bigger observe result (as JSON) is a protocol error
START_TIMEOUT = 10.0  # seconds a program may take to start and answer `hello` (at least)
BOM = "\ufeff"


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


class RunnerError(Exception):
    """The runner's own failure (a request it cannot encode, a bug): never the adapter's."""


class Unsupported(Exception):  # noqa: N818 - the protocol's name for it
    """The implementation does not support what was asked (ruleset, setup, action)."""


@runtime_checkable
class Adapter(Protocol):
    def hello(self) -> dict[str, Any]: ...

    def setup(self, params: dict[str, Any]) -> Any: ...

    def act(self, action: dict[str, Any]) -> dict[str, Any] | None: ...

    def observe(self, keys: list[str]) -> dict[str, Any]: ...

    def close(self) -> None: ...


def setup_request(params: dict[str, Any], rulesets: Any = None,
                  why: str = "") -> tuple[str, dict[str, Any]]:
    """An adapter's `setup` request read (docs/adapter-protocol.md): its ruleset name and its
    setup object, else `bad-request`; with `rulesets`, a ruleset outside them is `unsupported`
    (`why`: what the implementation plays instead)."""
    ruleset, setup = params.get("ruleset"), params.get("setup")
    if not isinstance(ruleset, str) or not isinstance(setup, dict):
        raise AdapterError("bad-request", "setup needs a ruleset name and a setup object")
    if rulesets is not None and ruleset not in rulesets:
        raise Unsupported(f"ruleset {ruleset!r}: {why}")
    return ruleset, setup


CLASSIC_COLOURS = ("red", "yellow", "green", "blue")  # the colours a classic Wild names


def listed_plays(seat: int, cards: list[str], held: int,
                 colours: tuple[str, ...] = CLASSIC_COLOURS) -> list[dict[str, Any]]:
    """`legal_actions` for the plays of `cards` (our notation) by `seat`, holding `held`
    cards, each once: a coloured card as itself, a Wild once per colour it may name
    (CL.WILD.COLOUR) and, as the last card, also without one (the hand ends: the colour
    does not matter). For an adapter whose `act` takes plays so."""
    out: list[dict[str, Any]] = []
    for text in sorted(set(cards)):
        if not text.startswith("W") or held == 1:
            out.append({"player": seat, "play": text})
        if text.startswith("W"):
            out += [{"player": seat, "play": text, "color": c} for c in colours]
    return out


def check_hello(caps: Any) -> dict[str, Any]:
    """Validate a hello result; returns it with list fields defaulted."""
    if not isinstance(caps, dict):
        raise ProtocolError(f"hello must return an object, got {type(caps).__name__}")
    proto = caps.get("protocol")
    if proto not in PROTOCOLS:
        raise ProtocolError(f"adapter speaks {proto!r}, the runner speaks {PROTOCOL!r} (and "
                            f"reads {', '.join(repr(p) for p in PROTOCOLS[1:])})")
    out = dict(caps)
    if "players" in out:
        players = out.get("players")
        if not isinstance(players, dict) or set(players) != {"min", "max"} or \
                not all(type(players[k]) is int for k in ("min", "max")) or \
                not 1 <= players["min"] <= players["max"] <= MAX_PLAYERS:
            raise ProtocolError(f"hello: 'players' must be {{\"min\": N, \"max\": M}} with "
                                f"1 <= N <= M <= {MAX_PLAYERS}, not {players!r}")
    else:
        out["players"] = {"min": PLAYERS[0], "max": PLAYERS[1]}
    # params (optional): the ruleset parameters a scenario may set (`scoring.target`)
    for key in ("rulesets", "features", "observations", "params"):
        val = out.get(key, [])
        if not isinstance(val, list) or not all(isinstance(v, str) for v in val):
            raise ProtocolError(f"hello: {key!r} must be a list of strings")
        out[key] = val
    if type(out.get("pipelining", False)) is not bool:  # "yes", 1: refused, never taken as true
        raise ProtocolError(f"hello: 'pipelining' must be true or false, not "
                            f"{_clip(repr(out['pipelining']), 60)}")
    for key in ("name", "version"):  # a number, null or a 100,000-character name: refused
        if key in out and (not isinstance(out[key], str) or len(out[key]) > MAX_NAME):
            raise ProtocolError(f"hello: {key!r} must be a string of at most {MAX_NAME} "
                                f"characters, not {_clip(repr(out[key]), 60)}")
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
    """One message as one JSON line (UTF-8, no embedded newlines; NaN/Infinity raise
    ValueError: they are not JSON)."""
    text = _WIRE.encode(message)
    try:
        return (text + "\n").encode()
    except UnicodeEncodeError:  # a lone surrogate: sent as its \udXXX escape, which JSON has
        return (_WIRE_ASCII.encode(message) + "\n").encode()


# `json.dumps` with these options, made once (`dumps` makes an encoder per call for them)
_WIRE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_WIRE_ASCII = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"id": msg_id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def _reject_constant(name: str) -> Any:
    raise ProtocolError(f"response contains {name}, which is not JSON (RFC 8259)")


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in a JSON text (brackets inside strings ignored)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def decode_response(line: bytes, expected_id: int, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """Parse one response line; it must be an object echoing `expected_id` with result|error.

    Accepted: a CRLF line end and a UTF-8 byte order mark at the start of the line. Named as
    protocol errors: bytes that are not UTF-8, NaN/Infinity (not JSON), nesting deeper than
    `max_depth`, an `id` that is not the integer of the request (`true` is not `1`, nor is
    `1.0`)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"response is not UTF-8 (byte 0x{line[exc.start]:02x} at offset "
                            f"{exc.start})", detail=_clip(line.decode("utf-8", "replace"))) \
            from None
    text = text.strip().removeprefix(BOM)
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text) > max_depth:
        raise ProtocolError(f"response nests arrays/objects deeper than {max_depth} levels",
                            detail=_clip(text))
    try:
        # `json.loads` with `parse_constant`, its decoder made once; a text still beginning
        # with a byte order mark goes through `loads`, which refuses it
        msg = _DECODER.decode(text) if text[:1] != "\ufeff" else \
            json.loads(text, parse_constant=_reject_constant)
    except ProtocolError as exc:
        exc.detail = _clip(text)
        raise
    except RecursionError:
        raise ProtocolError(f"response nests arrays/objects deeper than {max_depth} levels",
                            detail=_clip(text)) from None
    except ValueError as exc:
        raise ProtocolError(f"response is not JSON ({exc})", detail=_clip(text)) from None
    if not isinstance(msg, dict):
        raise ProtocolError("response is not a JSON object", detail=_clip(text))
    mid = msg.get("id")
    if type(mid) is not int or mid != expected_id:
        shown = json.dumps(mid) if "id" in msg else "missing"
        raise ProtocolError(f"response id {shown} does not match request id {expected_id}",
                            detail=_clip(text))
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


def check_observation(obs: Any, *, limit: int = MAX_OBSERVATION) -> dict[str, Any]:
    """An observe result: a JSON object (no NaN) of at most `limit` bytes as JSON."""
    return check_json_object(obs, "observe", limit)


def check_json_object(value: Any, method: str, limit: int) -> dict[str, Any]:
    """The result of `method`: a JSON object (no NaN) of at most `limit` bytes as JSON, or a
    ProtocolError saying what it is instead."""
    if not isinstance(value, dict):
        raise ProtocolError(f"{method} returned {type(value).__name__}, expected an object")
    try:
        size = len(json.dumps(value, allow_nan=False, separators=(",", ":")))
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"{method} returned something that is not JSON data ({exc})") \
            from None
    except RecursionError:
        raise ProtocolError(f"{method} returned data nested too deeply to encode") from None
    if size > limit:
        raise ProtocolError(f"{method} returned {size} bytes of JSON, over the {limit}-byte cap")
    return value


def raise_for_error(method: str, err: dict[str, Any]) -> None:
    """Turn a wire error of a non-act method into the in-process exception."""
    code = err["code"]
    message = str(err.get("message", ""))
    if code == UNSUPPORTED:
        raise Unsupported(message or f"{method}: unsupported")
    raise AdapterError(code, f"{method}: {message}" if message else method)


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
