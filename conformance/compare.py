"""Compare expected observations with what an adapter observed.

Rules (docs/scenario-format.md):
- `hands`: each listed seat's hand compared as a multiset (order does not matter);
- `hand_sizes`, `scores`: only the seats listed are checked;
- `pending`: only the sub-keys given (`player`, `decision`) are checked;
- cards compared in upper case, colours and words in lower case; seat keys as strings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

SEAT_MAPS = ("hands", "hand_sizes", "scores")
MISSING = "<not observed>"


@dataclass(frozen=True)
class Mismatch:
    key: str
    expected: Any
    observed: Any

    def describe(self) -> str:
        return f"{self.key}: expected {self.expected!r}, observed {self.observed!r}"


def _seat_map(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, list):  # some adapters answer a list indexed by seat
        return {str(i): v for i, v in enumerate(value)}
    return value


def _card(value: Any) -> Any:
    return value.strip().upper() if isinstance(value, str) else value


def _word(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _hand(value: Any) -> Any:
    if isinstance(value, list):
        return sorted((_card(c) for c in value), key=str)
    return value


def normalize(key: str, value: Any) -> Any:
    """A canonical form of one observation, for comparison and for `state_unchanged`."""
    if key == "hands":
        v = _seat_map(value)
        return {k: _hand(h) for k, h in v.items()} if isinstance(v, dict) else v
    if key in ("hand_sizes", "scores"):
        return _seat_map(value)
    if key == "top":
        return _card(value)
    if key in ("active_color", "direction", "side"):
        return _word(value)
    if key == "pending":
        if isinstance(value, dict):
            out = dict(value)
            if "decision" in out:
                out["decision"] = _word(out["decision"])
            return out
        return value
    return value


def compare(expected: dict[str, Any], observed: dict[str, Any]) -> list[Mismatch]:
    """Mismatches between an `expect` step and the observations; empty when all match."""
    out: list[Mismatch] = []
    for key, exp in expected.items():
        if key not in observed:
            out.append(Mismatch(key, exp, MISSING))
            continue
        obs = normalize(key, observed[key])
        want = normalize(key, exp)
        if key == "hands" and isinstance(want, dict):
            for seat, hand in want.items():
                got = obs.get(seat, MISSING) if isinstance(obs, dict) else MISSING
                if not isinstance(got, list) or Counter(got) != Counter(hand):
                    out.append(Mismatch(f"hands.{seat}", exp[_orig_key(exp, seat)],
                                        observed_value(observed[key], seat)))
        elif key in SEAT_MAPS and isinstance(want, dict):
            for seat, val in want.items():
                got = obs.get(seat, MISSING) if isinstance(obs, dict) else MISSING
                if got != val:
                    out.append(Mismatch(f"{key}.{seat}", val, got))
        elif key == "pending" and isinstance(want, dict):
            for sub, val in want.items():
                got = obs.get(sub, MISSING) if isinstance(obs, dict) else MISSING
                if got != val:
                    out.append(Mismatch(f"pending.{sub}", val, got))
        elif obs != want:
            out.append(Mismatch(key, exp, observed[key]))
    return out


def _orig_key(mapping: dict[Any, Any], seat: str) -> Any:
    return next((k for k in mapping if str(k) == seat), seat)


def observed_value(value: Any, seat: str) -> Any:
    v = _seat_map(value)
    return v.get(seat, MISSING) if isinstance(v, dict) else value


def diff_states(before: dict[str, Any], after: dict[str, Any]) -> list[Mismatch]:
    """Keys whose (normalised) observation changed; `expected` holds the value before."""
    out = []
    for key in sorted(set(before) | set(after)):
        b = normalize(key, before.get(key, MISSING))
        a = normalize(key, after.get(key, MISSING))
        if b != a:
            out.append(Mismatch(key, before.get(key, MISSING), after.get(key, MISSING)))
    return out


def restrict(expected: dict[str, Any], observed: dict[str, Any]) -> dict[str, Any]:
    """The observations an expectation looked at (seat maps cut to the seats it lists)."""
    out: dict[str, Any] = {}
    for key, exp in expected.items():
        if key not in observed:
            out[key] = MISSING
            continue
        value = observed[key]
        if key in SEAT_MAPS and isinstance(exp, dict):
            seats = {str(k) for k in exp}
            mapped = _seat_map(value)
            if isinstance(mapped, dict):
                value = {k: v for k, v in mapped.items() if k in seats}
        out[key] = value
    return out
