"""Compare expected observations with what an adapter observed.

Rules (docs/scenario-format.md):
- `hands`: each listed seat's hand compared as a multiset (order does not matter);
- `hand_sizes`, `scores`: only the seats listed are checked;
- `pending`: only the sub-keys given (`player`, `decision`) are checked;
- `winner`: a seat, `null`, or a list of seats (a shared win) compared as a set;
- `eliminated` (the seats out of the game, DESAFIO.ELIMINATE): a list of seats compared as a set;
- `dealer`: a seat, or a list of seats of which the dealer must be one (a random dealer);
- `card_counts`: only the cards listed (classic `{card: n}`, Flip `{light|dark: {face: n}}`);
- `views`: only the seats listed, and for each only the sub-keys given; `hand` and the hands of
  `backs` and `shown` as multisets, `hand_sizes`, `backs` and `shown` only the seats listed
  (`shown: {}` asserts that nothing was shown);
- looser expectations (docs/scenario-format.md "Looser expectations"): a count may be
  `{min, max}` (inclusive, either bound) or `{one_of: [...]}`; a card `{one_of: [...]}` or a
  predicate `{kind, color, face, side}`; a colour or a seat `{one_of: [...]}`;
- `events`: the observed events of the kinds the expectation lists must be exactly the listed
  ones, in order, each compared on the sub-keys it gives (other kinds are ignored);
- `legal_actions`: the actions of the pending decision and jump-ins, compared as a set
  (`legal_actions`: UNO calls, catches, `next_round` and table penalties left out, a play's
  `uno` flag dropped);
- cards compared in upper case, colours and words in lower case; seat keys as strings.
"""

from __future__ import annotations

import contextlib
import json
import marshal
from collections import Counter
from collections.abc import Iterable, Iterator
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


PATTERN_KEYS = frozenset(("one_of", "min", "max", "kind", "color", "face", "side"))


def is_pattern(value: Any) -> bool:
    """A looser expectation (a range, `one_of`, a card predicate) rather than a value."""
    return isinstance(value, dict) and bool(value) and set(value) <= PATTERN_KEYS


def _face_of(card: str, side: str) -> str:
    """One face of a card in notation (`R5/PD5`: light `R5`, dark `PD5`)."""
    faces = card.split("/", 1)
    return faces[1] if side == "dark" and len(faces) == 2 else faces[0]


def card_holds(pred: dict[str, Any], card: Any) -> bool:
    """A card predicate on a card in notation (uno_spec.notation): `kind` number / action /
    wild, `color` (the face's colour; a Wild has none), `face` (its symbol: `5`, `D2`, `W4`),
    on the face of `side` (light unless said)."""
    from uno_spec.notation import COLOR_NAMES, kinds

    if not isinstance(card, str) or not card.strip():
        return False
    face = _face_of(card.strip().upper(), str(pred.get("side", "light")).lower())
    wild = face in {k.rank for k in kinds() if k.wild}
    symbol = face if wild else face[1:]
    kind = "wild" if wild else "number" if symbol.isdigit() else "action"
    color = None if wild else COLOR_NAMES.get(face[:1])
    return ("kind" not in pred or pred["kind"] == kind) \
        and ("color" not in pred or _word(pred["color"]) == color) \
        and ("face" not in pred or str(pred["face"]).upper() == symbol)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: Python's `==` with `true` not `1` and `1.0` not `1`
    (docs/adapter-protocol.md), at every depth; a list and a tuple holding the same are alike
    (normal forms build either)."""
    if a is b:
        return True
    if not a == b:
        return False
    ta = type(a)
    if ta is type(b) and ta in _SCALARS:
        return True
    return _alike(a, b)


def _alike(a: Any, b: Any) -> bool:
    """Of `a == b`: whether every pair of values at the same place has the same JSON type.
    A container's values are told at once where each pair has one type and none holds
    others (a hand, a seat map, card counts): their types compared in two lists, not pair by
    pair (equal data may differ in its order, its marshal bytes with it: card counts)."""
    ta, tb = type(a), type(b)
    if ta is dict:
        if tb is not dict:
            return False
        theirs = list(map(b.__getitem__, a))
        kinds = list(map(type, a.values()))
        if kinds == list(map(type, theirs)) and _NESTED.isdisjoint(kinds):
            return True
        return _all_alike(a.values(), theirs)
    if ta in _SEQUENCES:
        if tb not in _SEQUENCES:
            return False
        kinds = list(map(type, a))
        if kinds == list(map(type, b)) and _NESTED.isdisjoint(kinds):
            return True
        return _all_alike(a, b)
    return ta is tb


def _all_alike(xs: Iterable[Any], ys: Iterable[Any]) -> bool:
    """`_alike` of each pair (a pair of one type holding no other value told without a call)."""
    for x, y in zip(xs, ys, strict=False):  # (of equal data: as long)
        t = type(x)
        if (t is not type(y) or t in _NESTED) and not _alike(x, y):
            return False
    return True


_SEQUENCES = (list, tuple)
_NESTED = frozenset((dict, list, tuple))
_SCALARS = frozenset((str, int, bool, type(None)))


def holds(key: str, want: Any, got: Any) -> bool:
    """Whether an observed value `got` of `key` satisfies the expected `want` (a value, or a
    looser expectation), both in normal form (`normalize`)."""
    if not is_pattern(want):
        return same(got, want)
    if "one_of" in want:
        return any(holds(key, normalize(key, w), got) for w in want["one_of"])
    if "min" in want or "max" in want:
        return isinstance(got, int) and not isinstance(got, bool) \
            and want.get("min", got) <= got <= want.get("max", got)
    return card_holds(want, got)


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
        return sorted(map(_card, value), key=str)
    return value


def hand_sizes(hands: Any) -> dict[str, int]:
    """Seat (as a string) -> its hand's size in a `hands` observation: the sizes of
    `normalize("hands", hands)`, without sorting and casing every card."""
    return {k: len(h) for k, h in _seat_map(hands).items()}


def normalize(key: str, value: Any) -> Any:
    """A canonical form of one observation, for comparison and for `state_unchanged` (a
    looser expectation is left as written: `holds` reads it)."""
    if is_pattern(value):
        return value
    if key == "hands":
        v = _seat_map(value)
        return {k: _hand(h) for k, h in v.items()} if isinstance(v, dict) else v
    if key in ("hand_sizes", "scores"):
        return _seat_map(value)
    if key == "top":
        return _card(value)
    if key in ("active_color", "direction", "side"):
        return _word(value)
    if key == "winner" and isinstance(value, list):
        return sorted(value, key=str) if len(value) != 1 else value[0]
    if key == "eliminated" and isinstance(value, list):
        return sorted(value, key=str)
    if key == "card_counts" and isinstance(value, dict):
        return _counts(value)
    if key == "views":
        v = _seat_map(value)
        return {k: _view(x) for k, x in v.items()} if isinstance(v, dict) else v
    if key == "events" and isinstance(value, list):
        return [_event(e) for e in value]
    if key == "legal_actions" and isinstance(value, list):
        return legal_actions(value)
    if key == "pending":
        if isinstance(value, dict):
            out = dict(value)
            if "decision" in out:
                out["decision"] = _word(out["decision"])
            return out
        return value
    return value


# actions an engine may list or not whatever the rules (an UNO call, late or not, a catch, the
# next hand's deal, a table penalty): not compared in `legal_actions`
UNLISTED = ("catch", "next_round", "referee")
_UNLISTED = frozenset(UNLISTED)
_UNO_ALONE = frozenset(("player", "uno"))
# `json.dumps(..., sort_keys=True)` without an encoder made for each call
_SORTED = json.JSONEncoder(sort_keys=True)
LISTING_MEMO = 4096  # normal forms remembered while `listings_remembered` (then cleared)
# the memo's keys: a format without references between objects, so that the bytes are the
# data's alone (not how it shares objects) and a list holding itself is refused
MARSHAL_VERSION = 2
_listings: dict[bytes, tuple[Any, dict[str, dict[str, Any]]]] | None = None
# ... and by the list object itself: the id of a list asked for -> (that list, a copy of the
# data it was, its normal form): a step normalises the same observation's list several times
# (to compare it, to name the rule of a difference, to check its features)
_seen: dict[int, tuple[list[Any], Any, dict[str, dict[str, Any]]]] = {}


@contextlib.contextmanager
def listings_remembered() -> Iterator[None]:
    """Within it, `listing` remembers the normal forms it made, keyed by the list's value: its
    `marshal` bytes (MARSHAL_VERSION), which only plain data has (dicts, lists, strings,
    numbers, booleans, None and the like, of exactly those types: a subclass, another object,
    a list holding itself or nested too deep is not remembered) and which tell `true` from
    `1`, `1` from `"1"`, a key `1` from a key `"1"`: equal bytes are equal data of equal types,
    whose normal form is the same. A fuzzing run normalises the same lists many times (each
    side's at a step, again to name the rule of a difference, again at a resync); marshal
    writes a list of actions several times faster than JSON. A list not seen yet is made of
    actions seen in others: each action's normal form is remembered the same way (`_forms`).
    Out of it, nothing is remembered (no run is faster for the runs before it)."""
    global _listings
    outer = _listings
    if outer is None:
        _listings = {}
    try:
        yield
    finally:
        _listings = outer
        if outer is None:
            _seen.clear()
            _forms.clear()


def listing(actions: list[Any]) -> dict[str, dict[str, Any]]:
    """`legal_actions`' normal form keyed by each action's JSON text (sorted keys), in the
    order of those texts; shared while `listings_remembered`: not to be changed."""
    memo = _listings
    if memo is None:
        return _listing(actions)
    seen = _seen.get(id(actions))
    if seen is not None and seen[0] is actions and seen[1] == actions:
        # the same list, still equal to what it was (an observation is not changed in place;
        # a value changed to an equal one of another type, `true` to `1`, is the one change
        # this would not see)
        return seen[2]
    try:
        key = marshal.dumps(actions, MARSHAL_VERSION)
    except ValueError:  # not plain data
        return _listing(actions)
    got = memo.get(key)
    if got is not None:
        data, normal = got
    else:
        normal = _listing(actions)
        data = marshal.loads(key)  # a copy (the caller may change its list)
        if len(memo) >= LISTING_MEMO:
            memo.clear()
        memo[key] = (data, normal)
    if len(_seen) >= LISTING_MEMO:
        _seen.clear()
    _seen[id(actions)] = (actions, data, normal)
    return normal


def _listing(actions: list[Any]) -> dict[str, dict[str, Any]]:
    forms = _forms if _listings is not None else None
    out: dict[str, dict[str, Any]] = {}
    for a in actions:
        if forms is None:
            form = _form(a)
        else:  # remembered by the action's marshal bytes, as `listing` remembers a list
            try:
                key = marshal.dumps(a, MARSHAL_VERSION)
            except ValueError:  # not plain data
                form = _form(a)
            else:
                form = forms.get(key, _UNKNOWN)
                if form is _UNKNOWN:
                    if len(forms) >= LISTING_MEMO:
                        forms.clear()
                    form = forms[key] = _form(a)
        if form is not None:
            out[form[0]] = form[1]
    return {k: out[k] for k in sorted(out)}


_UNKNOWN: Any = object()
# while `listings_remembered`: an action's marshal bytes -> its `_form`
_forms: dict[bytes, tuple[str, dict[str, Any]] | None] = {}


def _form(a: Any) -> tuple[str, dict[str, Any]] | None:
    """One listed action's normal form and its JSON text (sorted keys); None for what the
    normal form leaves out (UNLISTED, an UNO call alone, anything but an object)."""
    if not isinstance(a, dict) or not _UNLISTED.isdisjoint(a) or \
            (a.get("uno") and a.keys() <= _UNO_ALONE):
        return None
    act = {k: _card(v) if k == "play" else _word(v) if k == "color" else v
           for k, v in a.items() if k != "uno"}
    return _SORTED.encode(act), act


def legal_actions(actions: list[Any]) -> list[Any]:
    """`legal_actions` in normal form: the set (sorted, each once) of the listed plays, draws,
    passes, challenges, colours and swaps, a play's `uno` flag dropped; UNO calls alone,
    catches, `next_round` and table penalties left out (what the reference lists and others
    need not: docs/adapter-protocol.md). Cards in upper case, colours in lower case."""
    return list(listing(actions).values())


def _event(value: Any) -> Any:
    """One event: kind and colour in lower case, its card in upper case."""
    if not isinstance(value, dict):
        return value
    out = dict(value)
    for k in ("kind", "color"):
        if k in out:
            out[k] = _word(out[k])
    if "card" in out and not is_pattern(out["card"]):
        out["card"] = _card(out["card"])
    return out


def compare_events(want: list[Any], got: Any) -> list[Mismatch]:
    """`events`: the observed events of the kinds `want` lists, in order, are exactly `want`,
    each on the sub-keys it gives (an implementation's events of other kinds are ignored)."""
    kinds = {e.get("kind") for e in want if isinstance(e, dict)}
    if not isinstance(got, list):
        return [Mismatch("events", want, got)]
    mine = [e for e in got if isinstance(e, dict) and e.get("kind") in kinds]
    want_kinds = [e.get("kind") for e in want]
    if [e.get("kind") for e in mine] != want_kinds:  # dropped, extra or out of order
        return [Mismatch("events.kinds", want_kinds, [e.get("kind") for e in mine])]
    out: list[Mismatch] = []
    for i, (w, g) in enumerate(zip(want, mine, strict=True)):
        for sub, val in w.items():
            obs = g.get(sub, MISSING)
            if not holds(f"event.{sub}", val, obs):
                out.append(Mismatch(f"events[{i}].{sub}", val, obs))
    return out


def _counts(value: dict[Any, Any]) -> dict[str, Any]:
    """card_counts: card keys upper case, Flip side keys lower case."""
    out: dict[str, Any] = {}
    for k, v in value.items():
        if isinstance(v, dict):
            out[_word(k)] = {_card(c): n for c, n in v.items()}
        else:
            out[_card(k)] = v
    return out


def _view(value: Any) -> Any:
    """One player's view: hands as sorted lists, seat keys as strings, cards upper case."""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k == "hand":
            out[k] = _hand(v)
        elif k in ("backs", "shown"):
            m = _seat_map(v)
            out[k] = {s: _hand(h) for s, h in m.items()} if isinstance(m, dict) else m
        elif k == "hand_sizes":
            out[k] = _seat_map(v)
        elif k in ("top", "draw_back"):
            out[k] = _card(v)
        else:
            out[k] = v
    return out


def _compare_view(seat: str, want: Any, got: Any) -> list[Mismatch]:
    where = f"views.{seat}"
    if not isinstance(want, dict):
        return [] if same(want, got) else [Mismatch(where, want, got)]
    if not isinstance(got, dict):
        return [Mismatch(where, want, got)]
    out: list[Mismatch] = []
    for sub, val in want.items():
        obs = got.get(sub, MISSING)
        if sub in ("backs", "shown", "hand_sizes") and isinstance(val, dict):
            if not isinstance(obs, dict):
                out.append(Mismatch(f"{where}.{sub}", val, obs))
            elif sub == "shown" and not val and obs:
                out.append(Mismatch(f"{where}.{sub}", val, obs))
            else:
                for s, v in val.items():
                    o = obs.get(s, MISSING)
                    if not same(o, v):
                        out.append(Mismatch(f"{where}.{sub}.{s}", v, o))
        elif not same(obs, val):
            out.append(Mismatch(f"{where}.{sub}", val, obs))
    return out


def compare(expected: dict[str, Any], observed: dict[str, Any]) -> list[Mismatch]:
    """Mismatches between an `expect` step and the observations; empty when all match."""
    out: list[Mismatch] = []
    for key, exp in expected.items():
        if key not in observed:
            out.append(Mismatch(key, exp, MISSING))
            continue
        got = observed[key]
        if same(got, exp) if key != "hands" else got == exp and type(got) is type(exp):
            # the same data normalises the same: nothing to compare (hands hold card names
            # only, by the scenario schema and the oracle's: equal, they are of one type)
            continue
        if key == "hands" and not is_pattern(exp) and not is_pattern(observed[key]) and \
                isinstance(_seat_map(exp), dict):
            out.extend(_compare_hands(exp, observed[key]))
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
                if not holds(key, val, got):
                    out.append(Mismatch(f"{key}.{seat}", val, got))
        elif key == "events" and isinstance(want, list):
            out.extend(compare_events(want, obs))
        elif key == "dealer" and isinstance(want, list):
            if not any(same(obs, w) for w in want):
                out.append(Mismatch(key, exp, observed[key]))
        elif key == "card_counts" and isinstance(want, dict):
            got_counts = obs if isinstance(obs, dict) else {}
            for k, val in want.items():
                if isinstance(val, dict):
                    side = got_counts.get(k)
                    side = side if isinstance(side, dict) else {}
                    for c, n in val.items():
                        if not same(side.get(c, 0), n):  # a card the game lacks counts 0
                            out.append(Mismatch(f"card_counts.{k}.{c}", n, side.get(c, 0)))
                elif not same(got_counts.get(k, 0), val):
                    out.append(Mismatch(f"card_counts.{k}", val, got_counts.get(k, 0)))
        elif key == "views" and isinstance(want, dict):
            for seat, val in want.items():
                got = obs.get(seat, MISSING) if isinstance(obs, dict) else MISSING
                out.extend(_compare_view(seat, val, got))
        elif key == "pending" and isinstance(want, dict):
            for sub, val in want.items():
                got = obs.get(sub, MISSING) if isinstance(obs, dict) else MISSING
                if not same(got, val):
                    out.append(Mismatch(f"pending.{sub}", val, got))
        elif key == "legal_actions" and isinstance(want, list):
            if not same(obs, want):  # in normal form: what each side lists and not the other
                missing = [a for a in want
                           if not isinstance(obs, list) or not any(same(a, o) for o in obs)]
                extra = [a for a in obs if not any(same(a, w) for w in want)] \
                    if isinstance(obs, list) else obs
                out.append(Mismatch(key, {"not listed": missing}, {"listed": extra}))
        elif not holds(key, want, obs):
            out.append(Mismatch(key, exp, observed[key]))
    return out


def _multiset(hand: Any) -> Counter[Any]:
    """A hand's cards as a multiset, cased as `normalize` cases them (not sorted: the order
    does not count)."""
    return Counter(map(_card, hand) if isinstance(hand, list) else hand)


def _compare_hands(exp: Any, observed: Any) -> list[Mismatch]:
    """`hands` (neither a looser expectation): each listed seat's hand as a multiset, what
    `compare` finds comparing their normal forms."""
    want, obs = _seat_map(exp), _seat_map(observed)
    out: list[Mismatch] = []
    for seat, hand in want.items():
        got = obs.get(seat, MISSING) if isinstance(obs, dict) else MISSING
        # (equal lists hold the same cards: their multisets are equal, unsorted or not)
        if not isinstance(got, list) or (got != hand and _multiset(got) != _multiset(hand)):
            out.append(Mismatch(f"hands.{seat}", exp[_orig_key(exp, seat)],
                                observed_value(observed, seat)))
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
        b, a = before.get(key, MISSING), after.get(key, MISSING)
        if same(b, a):
            continue  # the same data normalises the same (as in `compare`)
        if not same(normalize(key, b), normalize(key, a)):
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
        if (key in SEAT_MAPS or key == "views") and isinstance(exp, dict):
            seats = {str(k) for k in exp}
            mapped = _seat_map(value)
            if isinstance(mapped, dict):
                value = {k: v for k, v in mapped.items() if k in seats}
        elif key == "card_counts" and isinstance(exp, dict) and isinstance(value, dict):
            value = {k: ({c: n for c, n in v.items() if c in exp[k]}
                         if isinstance(v, dict) and isinstance(exp.get(k), dict) else v)
                     for k, v in value.items() if k in exp}
        out[key] = value
    return out
