"""Scenario files: loading, validation against the JSON Schema, and clear `file:line` errors.

A scenario file holds one scenario (a mapping with `id`, `title`, ...) or several under
`scenarios:`. The format is documented in docs/scenario-format.md; its schema is
spec/schema/scenario.schema.json.

Payloads sent to adapters are the scenario's data in JSON form: maps keyed by seat use decimal
string keys (`{"0": [...]}`) in-process exactly as on the wire, so both paths see the same thing.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance import specdata
from uno_spec import globs
from uno_spec.cache import str_list, typed
from uno_spec.loader import display_path

if TYPE_CHECKING:
    import jsonschema

    from uno_spec.cache import Cache
    from uno_spec.schema import Schema

CORPUS_ROOT = Path(__file__).resolve().parent / "corpus"

# The most scenario files one run or lint reads (a directory holding more is refused in one
# line, before any file is opened); a module constant, so that tests can lower it. The size,
# depth and alias limits of each file are uno_spec.files.MAX_FILE_BYTES and uno_spec.loader's.
MAX_FILES = 10_000


class ScenarioError(Exception):
    """A problem in a scenario file, located at `file:line`."""

    def __init__(self, file: str, line: int, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(f"{file}:{line}: {message}" if line > 0 else f"{file}: {message}")


@dataclass(frozen=True)
class Step:
    """One step: an action (`act`, with an optional expected `error`) or an expectation."""

    index: int  # 1-based position in `steps`
    line: int
    act: dict[str, Any] | None = None
    error: str | None = None
    state_unchanged: bool = False
    expect: dict[str, Any] | None = None
    note: str | None = None

    @property
    def kind(self) -> str:
        return "act" if self.act is not None else "expect"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.act is not None:
            out["act"] = self.act
            if self.error is not None:
                out["error"] = self.error
            if self.state_unchanged:
                out["state_unchanged"] = True
        else:
            out["expect"] = self.expect
        return out


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    ruleset: str
    cites: tuple[str, ...]
    rules: tuple[str, ...]
    features: tuple[str, ...]
    setup: dict[str, Any]  # JSON form (string seat keys)
    steps: tuple[Step, ...]
    file: str
    line: int
    seed: int = 0
    description: str = ""
    raw_lines: dict[str, int] = field(default_factory=dict, compare=False)
    expect_setup_error: str | None = None  # the set-up must be refused with this code
    # a match scenario (feature partners-match): the `match` block in JSON form (string player
    # keys); then `setup` is {} and there are no steps (docs/scenario-format.md "Matches")
    match: dict[str, Any] | None = None
    # `params`: parameter overrides on top of the ruleset's (JSON form, nested like a ruleset
    # file's `params`; docs/scenario-format.md "Table options")
    params: dict[str, Any] = field(default_factory=dict)

    def param_paths(self) -> list[str]:
        """The dotted paths of the parameters the scenario sets (`scoring.target`)."""
        return sorted(param_leaves(self.params))

    def observation_keys(self) -> set[str]:
        """Observation keys the scenario's expectations use."""
        keys: set[str] = set()
        for step in self.steps:
            if step.expect is not None:
                keys.update(step.expect)
        return keys

    def setup_params(self) -> dict[str, Any]:
        """The `setup` request's params (`params` only when the scenario sets some)."""
        out = {"ruleset": self.ruleset, "setup": self.setup, "seed": self.seed}
        if self.params:
            out["params"] = self.params
        return out

    def match_params(self) -> dict[str, Any]:
        """The `match` request's params: the `match` block without its `expect`."""
        return {k: v for k, v in (self.match or {}).items() if k != "expect"}


def param_leaves(params: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted path -> value of every parameter a (nested) override sets."""
    out: dict[str, Any] = {}
    for key, value in params.items() if isinstance(params, dict) else ():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            out.update(param_leaves(value, path))
        else:
            out[path] = value
    return out


def to_json(value: Any) -> Any:
    """Plain JSON data: dicts with string keys, lists, scalars."""
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def _line_at(doc: Any, path: Sequence[Any]) -> int:
    """The line of the deepest mapping (or mapping key) along a JSON path into YAML data."""
    line = int(getattr(doc, "line", None) or 1)
    node = doc
    for part in path:
        if isinstance(node, dict):
            key: Any = part
            if key not in node:
                key = next((k for k in node if str(k) == str(part)), part)
            key_lines = getattr(node, "key_lines", None)
            if key_lines and str(key) in key_lines:
                line = key_lines[str(key)]
            node = node.get(key)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            break
        node_line = getattr(node, "line", None)
        if isinstance(node_line, int) and node_line > 0:
            line = node_line
    return line


_SCHEMA: tuple[dict[str, Any], Schema] | None = None


def _schema() -> Schema:
    """The compiled schema of one scenario (the `scenario` definition of
    spec/schema/scenario.schema.json), built once per schema file read
    (`specdata.clear_caches` rereads it)."""
    from uno_spec.schema import compile_schema

    global _SCHEMA
    source = specdata.scenario_schema()
    if _SCHEMA is None or _SCHEMA[0] is not source:
        schema = {k: v for k, v in source.items() if k != "oneOf"}
        schema["$ref"] = "#/$defs/scenario"
        _SCHEMA = (source, compile_schema(schema))
    return _SCHEMA[1]


def _describe(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Descend into oneOf/anyOf to the error that best explains the problem.

    A branch whose top-level `required` keys are missing is not what the author meant (an `act`
    step is not an `expect` step); when one branch is left, its deepest error is the story.
    """
    from jsonschema.exceptions import best_match

    # a value not written in a titled notation (a card) is the story, wherever it is
    named = {(tuple(map(str, e.absolute_path)), repr(e.instance)): e
             for e in _all_errors([error]) if _titled_pattern(e)}
    if len(named) == 1:
        return next(iter(named.values()))
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values()
                 if not any(e.validator == "required" and not e.relative_path for e in errs)]
        if not isinstance(error.instance, dict):  # a number is not meant as a range {min, max}
            meant = [errs for errs in meant if not any(
                e.validator == "type" and e.validator_value == "object" and not e.relative_path
                for e in errs)] or meant
        if len(meant) == 1:
            best = best_match(meant[0])
            if best is not None:
                return _describe(best)
    best = best_match([error])
    return best if best is not None else error


def _path(parts: Iterable[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(scenario)"


def _validate(doc: Any, data: Any, file: str) -> None:
    errors = sorted(_schema().iter_errors(data), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    err = _describe(errors[0])
    where = list(err.absolute_path)
    line_path = where
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
        extra = [k for k in err.instance if k not in known]
        if extra:
            line_path = [*where, extra[0]]
    sid = data.get("id") if isinstance(data, dict) else None
    raise ScenarioError(file, _line_at(doc, line_path),
                        f"{_named(sid)}{_path(where)}: {_in_words(err)}")


def _named(sid: Any) -> str:
    """`scenario ID: `, the start of an error about one scenario (nothing when its id is not
    a printable string: the message stays one line)."""
    return f"scenario {sid}: " if isinstance(sid, str) and sid.isprintable() else ""


def _all_errors(errors: Iterable[jsonschema.ValidationError],
                ) -> Iterator[jsonschema.ValidationError]:
    """Every error with every error of its `context` (oneOf/anyOf branches), depth first."""
    for e in errors:
        yield e
        yield from _all_errors(e.context or ())


def _titled_pattern(err: jsonschema.ValidationError) -> bool:
    """A `pattern` of a schema with a `title` (a card, a card face) did not match."""
    return err.validator == "pattern" and isinstance(err.schema, dict) \
        and isinstance(err.schema.get("title"), str)


def _in_words(err: jsonschema.ValidationError) -> str:
    """The schema's message, but a value that does not match a `pattern` of a schema with a
    `title` (a card) is named as such with the schema's `description` (the notation explained),
    not the regular expression."""
    schema = err.schema if isinstance(err.schema, dict) else {}
    if _titled_pattern(err):
        explained = f": {schema['description']}" if isinstance(schema.get("description"), str) \
            else ""
        return f"{err.instance!r} is not a {schema['title']}{explained}"
    if err.validator == "not" and isinstance(err.instance, dict):
        # "{...the whole mapping...} should not be valid under {'required': ['seed']}": the
        # keys it forbids that are there, named (a set-up's keys depend on its `start`)
        barred = [k for k in _required_in(err.validator_value) if k in err.instance]
        if barred:
            names = ", ".join(f"`{k}`" for k in barred)
            if list(err.absolute_path)[-1:] == ["setup"]:
                start = err.instance.get("start", "turn")
                return f"{names} may not be given with `start: {start}` " \
                    "(docs/scenario-format.md, `setup`)"
            return f"{names} may not be given here"
    from uno_spec.schema import error_text  # only to explain a rejected scenario

    return error_text(err)


def _required_in(schema: Any) -> list[str]:
    """The keys a `not` schema's `required` lists name, directly or under `anyOf`."""
    if not isinstance(schema, dict):
        return []
    keys = [k for k in schema.get("required", []) if isinstance(k, str)]
    for sub in schema.get("anyOf", []):
        keys += _required_in(sub)
    return keys


def _error(doc: Any, file: str, sid: Any, path: list[Any], message: str) -> ScenarioError:
    return ScenarioError(file, _line_at(doc, path), f"{_named(sid)}{_path(path)}: {message}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(doc: Any, data: Any, file: str) -> None:
    """Before the schema: `setup.players` is a whole number from 2 to 10, said as such (the
    schema would report an 11-player table as hand keys that do not match a pattern)."""
    setup = data.get("setup") if isinstance(data, dict) else None
    if not isinstance(setup, dict) or "players" not in setup:
        return
    n = setup["players"]
    sid = data.get("id")
    if not _is_int(n):
        raise _error(doc, file, sid, ["setup", "players"],
                     f"{json.dumps(n)} is not a number of players (a whole number, 2 to 10)")
    if "expect_setup_error" in data:  # a table the rules refuse: the schema bounds it (1 to 99)
        return
    if not 2 <= n <= 10:
        raise _error(doc, file, sid, ["setup", "players"],
                     f"{n} players: UNO is played by 2 to 10 players (seats 0 to 9)")


def _first_float(value: Any) -> list[Any] | None:
    """The path of the first float in JSON data (document order), or None. The path is built
    only on the way back from a float: a scenario without one costs no list."""
    if type(value) is dict:
        for k, v in value.items():
            if type(v) in (dict, list, float) and (found := _first_float(v)) is not None:
                return [k, *found]
    elif type(value) is list:
        for i, v in enumerate(value):
            if type(v) in (dict, list, float) and (found := _first_float(v)) is not None:
                return [i, *found]
    elif isinstance(value, float):
        return []
    return None


def _check_numbers(doc: Any, data: dict[str, Any], file: str) -> None:
    """Every number of a scenario is a whole number: `3.0` is refused where JSON Schema's
    `integer` would take it (a seat, a count, a seed)."""
    path = _first_float(data)
    if path is not None:
        node: Any = data
        for part in path:
            node = node[part]
        raise _error(doc, file, data["id"], path,
                     f"{json.dumps(node) if node == node else 'NaN'} is not a whole "
                     "number (write seats, counts and seeds without a decimal point)")


def _deck(doc: Any, data: dict[str, Any], file: str) -> specdata.Deck:
    """The ruleset's deck (spec/rulesets): an unknown ruleset or variant, or one the rulesets
    do not let combine, is an error at the `ruleset` line; so is a player count it does not
    allow."""
    from uno_spec.loader import SpecError

    try:
        deck = specdata.deck(data["ruleset"])
    except SpecError as exc:
        raise _error(doc, file, data["id"], ["ruleset"], exc.message) from None
    if "match" in data:  # the match format seats the players (_check_match)
        return deck
    low, high, even = deck.players
    n = data["setup"]["players"]
    if "expect_setup_error" in data:  # the count may be the very thing the rules refuse
        return deck
    if not low <= n <= high or (even and n % 2):
        parity = " (an even number)" if even else ""
        raise _error(doc, file, data["id"], ["setup", "players"],
                     f"{n} players: ruleset {deck.ruleset} is played by {low} to {high} "
                     f"players{parity}")
    return deck


# parameter groups a scenario's `params` may not set: the cards and the table the loader checks
# the set-up against are the ruleset's (name a ruleset that has other ones)
FIXED_PARAMS = ("game", "deck", "players")


def _check_params(doc: Any, data: dict[str, Any], file: str) -> None:
    """`params`: overrides of the ruleset's parameters, each one the ruleset schema declares,
    of its type and range (checked on the ruleset's values with the overrides merged in); a
    variant's own group only in a ruleset with that variant; never the game, the deck or the
    player counts."""
    import difflib

    from uno_spec.rulesets import deep_merge

    override = data.get("params")
    if not override:
        return
    sid = data["id"]
    for key in override:
        if key in FIXED_PARAMS:
            raise _error(doc, file, sid, ["params", key], f"{key}: a scenario's params do not "
                         "change the game, its deck or its player counts (the set-up is "
                         "checked against the ruleset's): name a ruleset that has them")
    played = str(data["ruleset"]).split("+")[1:]
    for key in override:
        owner = specdata.variant_param_groups().get(key)
        if owner is not None and owner not in played:
            raise _error(doc, file, sid, ["params", key], f"{key} is the {owner} variant's "
                         f"parameter group: name the variant in the ruleset "
                         f"({data['ruleset']}+{owner}) rather than setting it")
    ruleset = specdata.ruleset_params(data["ruleset"])
    for path, value in param_leaves(override).items():
        if value == {} and isinstance(_at(ruleset, path), Mapping):
            # an empty group sets nothing: as a parameter path it would leave the scenario
            # unsupported by every implementation that does not declare the group itself
            raise _error(doc, file, sid, ["params", *path.split(".")], "an empty parameter "
                         "group sets nothing: remove it, or set one of its parameters "
                         "(docs/rules/parameters.md)")
    merged = deep_merge(ruleset, override)
    checked = {k: merged[k] for k in override}
    errors = sorted(specdata.params_validator().iter_errors(checked),
                    key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    err = errors[0]
    where = [str(p) for p in err.absolute_path]
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = list((err.schema.get("properties") or {}) if isinstance(err.schema, dict)
                     else ())
        extra = sorted(str(k) for k in err.instance if k not in known)
        name = ".".join([*where, extra[0]])
        close = difflib.get_close_matches(name, specdata.parameter_paths(), n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise _error(doc, file, sid, ["params", *where, extra[0]],
                     f"unknown parameter {name!r}{hint} (the parameters: "
                     "docs/rules/parameters.md)")
    name = ".".join(where) or "params"
    from uno_spec.schema import error_text

    raise _error(doc, file, sid, ["params", *where], f"parameter {name}: {error_text(err)}")


def _at(params: Any, path: str) -> Any:
    """The value at a dotted parameter path (None where there is none)."""
    for key in path.split("."):
        params = params.get(key) if isinstance(params, Mapping) else None
    return params


def _check_seats(doc: Any, data: dict[str, Any], file: str) -> None:
    """Seat numbers must exist at the table; every seat needs a hand."""
    setup = data["setup"]
    n = setup["players"]
    sid = data["id"]

    def bad(path: list[Any], message: str) -> ScenarioError:
        return _error(doc, file, sid, path, message)

    def seat(path: list[Any], value: Any, what: str = "") -> None:
        if _is_int(value) and value >= n:
            raise bad(path, f"seat {value} does not exist with {n} players{what}")

    def seats(path: list[Any], value: Any) -> None:  # a seat, or a list of seats
        for i, v in enumerate(value) if isinstance(value, list) else [(None, value)]:
            seat(path if i is None else [*path, i], v)

    def keys(path: list[Any], mapping: Any) -> None:  # a map keyed by seat
        for key in mapping if isinstance(mapping, dict) else ():
            if str(key).isdigit() and int(key) >= n:
                raise bad([*path, key], f"seat {key} does not exist with {n} players")

    for key in ("dealer", "current"):
        if key in setup:
            seat(["setup", key], setup[key])
    for key in ("hands", "scores"):
        keys(["setup", key], setup.get(key))
    played = str(data.get("ruleset")).split("+")[1:]
    for variant, feature in specdata.variant_features().items():
        for key in sorted(feature.setup & set(setup)):  # a field only that variant reads
            if variant not in played:
                raise bad(["setup", key], f"the set-up field {key!r} exists only in a ruleset "
                          f"with the {variant} variant")
    for i, value in enumerate(setup.get("eliminated") or ()):  # DESAFIO.ELIMINATE
        seat(["setup", "eliminated", i], value)
    missing = [s for s in range(n) if str(s) not in setup.get("hands", {})]
    if missing and setup.get("start") != "game":  # start: game deals the hands itself
        raise bad(["setup", "hands"], f"no hand given for seat(s) {missing} ([] for an empty hand)")
    for i, step in enumerate(data.get("steps", ())):
        act = step.get("act")
        if act is not None and "error" not in step:  # a refusal step may name any seat
            for key in ("player", "catch", "swap"):
                if key in act:
                    seat(["steps", i, "act", key], act[key])
            if _is_int(act.get("uno")):
                raise bad(["steps", i, "act", "uno"], f"uno: {act['uno']}: a player calls UNO "
                          "for themself (`uno: true`); a call on another player's behalf is "
                          "an action the rules refuse: write it with its `error:` code")
        exp = step.get("expect") or {}
        at = ["steps", i, "expect"]
        for key in ("hands", "hand_sizes", "scores", "views"):
            keys([*at, key], exp.get(key))
        for key in ("current", "winner", "dealer", "eliminated"):
            if key in exp:
                value = exp[key]
                if isinstance(value, dict):  # current: {one_of: [seats]}
                    seats([*at, key, "one_of"], value.get("one_of"))
                else:
                    seats([*at, key], value)
        for j, event in enumerate(exp.get("events") or ()):
            if "player" in event:
                seat([*at, "events", j, "player"], event["player"])
        if act is not None and act.get("deal"):
            keys(["steps", i, "act", "deal", "hands"], act["deal"].get("hands"))
            if "dealer" in act["deal"]:
                seat(["steps", i, "act", "deal", "dealer"], act["deal"]["dealer"])
        pending = exp.get("pending")
        if isinstance(pending, dict) and "player" in pending:
            seat([*at, "pending", "player"], pending["player"])
        for viewer, view in (exp.get("views") or {}).items():
            for key in ("hand_sizes", "backs", "shown"):
                keys([*at, "views", viewer, key], view.get(key))


def _check_kind(doc: Any, data: Any, file: str) -> None:
    """Before the schema: a match scenario has nothing of a game scenario (said as such; the
    schema would say `False schema does not allow ...`)."""
    if not isinstance(data, dict) or "match" not in data:
        return
    for key in ("setup", "steps", "expect_setup_error", "seed"):
        if key in data:
            raise _error(doc, file, data.get("id"), [key],
                         f"a match scenario has no `{key}`: its `match` block is the whole "
                         "scenario (docs/scenario-format.md, \"Matches\")")


def _check_match(doc: Any, data: dict[str, Any], file: str) -> None:
    """A match scenario names a match format of spec/matches, under that format's ruleset, and
    only its players: every player of a result, total, partnership or winner is one of
    0..players-1; a result seats four distinct players and the one who went out is one of
    them."""
    from uno_spec.loader import SpecError

    sid = data["id"]
    match = data["match"]
    try:
        fmt = specdata.match_format(match["format"])
    except SpecError as exc:
        raise _error(doc, file, sid, ["match", "format"], exc.message) from None
    if data["ruleset"] != fmt.ruleset:
        raise _error(doc, file, sid, ["ruleset"], f"match {fmt.id} deals every hand under "
                     f"{fmt.ruleset}, not {data['ruleset']}")
    n = fmt.players

    def player(path: list[Any], value: Any) -> None:
        if int(value) >= n:
            raise _error(doc, file, sid, path, f"player {value} does not exist in match "
                         f"{fmt.id} ({n} players, 0 to {n - 1})")

    for i, result in enumerate(match.get("results") or ()):
        for j, seat in enumerate(result["seats"]):
            player(["match", "results", i, "seats", j], seat)
        player(["match", "results", i, "went_out"], result["went_out"])
        if result["went_out"] not in result["seats"]:
            raise _error(doc, file, sid, ["match", "results", i, "went_out"],
                         f"player {result['went_out']} went out but does not sit at the "
                         f"table {result['seats']}")
    expect = match["expect"]
    if ("totals" in expect or "by_partner" in expect or "winners" in expect) \
            and "results" not in match:
        raise _error(doc, file, sid, ["match", "expect"], "a tally (totals, by_partner, "
                     "winners) needs the `results` of the hands it counts")
    for key in expect.get("totals") or {}:
        player(["match", "expect", "totals", key], key)
    for key, partnered in (expect.get("by_partner") or {}).items():
        player(["match", "expect", "by_partner", key], key)
        for other in partnered:
            player(["match", "expect", "by_partner", key, other], other)
            if other == key:
                raise _error(doc, file, sid, ["match", "expect", "by_partner", key, other],
                             f"player {key} is not their own partner")
    for i, value in enumerate(expect.get("winners") or ()):
        player(["match", "expect", "winners", i], value)


_FLIP_ONLY_RANKS = frozenset(("D1", "F", "W2", "D5", "SE", "WDC"))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _card_places(data: dict[str, Any]) -> Iterator[tuple[list[Any], str, str]]:
    """(path, text, what) of every card or face a scenario names. `what`: `card` (a whole
    card: light/dark in Flip), `face` (one printed face: a Flip player's view) or `refused`
    (a card an action expected to be refused names: written as the step's author wrote it).
    The keys of `card_counts` are not listed: a count of 0 may assert that a card is absent."""
    setup = data["setup"]
    for seat, hand in (setup.get("hands") or {}).items():
        for j, c in enumerate(hand):
            yield ["setup", "hands", seat, j], c, "card"
    for key in ("discard", "draw"):
        for j, c in enumerate(setup.get(key) or []):
            yield ["setup", key, j], c, "card"
    for i, step in enumerate(data.get("steps") or []):
        act = step.get("act") or {}
        for key in ("play", "card"):
            if key in act:  # a refusal step may name a card as the game does not (one face)
                yield ["steps", i, "act", key], act[key], "refused" if "error" in step \
                    else "card"
        deal = act.get("deal") or {}
        for seat, hand in (deal.get("hands") or {}).items():
            for j, c in enumerate(hand):
                yield ["steps", i, "act", "deal", "hands", seat, j], c, \
                    "refused" if "error" in step else "card"
        for j, c in enumerate(deal.get("draw") or []):
            yield ["steps", i, "act", "deal", "draw", j], c, \
                "refused" if "error" in step else "card"
        exp = step.get("expect") or {}
        at = ["steps", i, "expect"]
        for seat, hand in (exp.get("hands") or {}).items():
            for j, c in enumerate(hand):
                yield [*at, "hands", seat, j], c, "card"
        yield from _expected_cards([*at, "top"], exp.get("top"))
        for j, event in enumerate(exp.get("events") or ()):
            yield from _expected_cards([*at, "events", j, "card"], event.get("card"))
        for viewer, view in (exp.get("views") or {}).items():
            vat = [*at, "views", viewer]
            for j, c in enumerate(view.get("hand") or []):
                yield [*vat, "hand", j], c, "face"
            for key in ("top", "draw_back"):
                if key in view:
                    yield [*vat, key], view[key], "face"
            for key in ("backs", "shown"):
                for seat, faces in (view.get(key) or {}).items():
                    for j, c in enumerate(faces):
                        yield [*vat, key, seat, j], c, "face"


def _expected_cards(path: list[Any], value: Any) -> Iterator[tuple[list[Any], str, str]]:
    """The cards of an expected card: itself, or each of a `one_of` (a card predicate names
    none)."""
    if isinstance(value, str):
        yield path, value, "card"
    elif isinstance(value, dict) and isinstance(value.get("one_of"), list):
        for j, c in enumerate(value["one_of"]):
            yield [*path, "one_of", j], c, "card"


def _card_problem(text: str, what: str, deck: specdata.Deck) -> str | None:
    """Why `text` is not a card (or face) of the deck, or None."""
    of = f"ruleset {deck.ruleset} (deck {deck.name})"
    if deck.dark is None:  # classic
        if "/" in text:
            return f"{text} is a double-faced UNO Flip card, not a card of {of}"
        if text in deck.light:
            return None
        rank = text if text.startswith("W") else text[1:]
        if rank in _FLIP_ONLY_RANKS or text[:1] in "PTOV" and not text.startswith("W"):
            return f"{text} is a UNO Flip face, not a card of {of}"
        return f"{text} is not a card of {of}"
    light, dark = deck.light, deck.dark
    if what == "face":
        return None if text in light or text in dark else f"{text} is not a face of {of}"
    if "/" not in text:
        return (f"{text} is a single-faced card; in {of} every card is written light/dark "
                "(e.g. R5/PD5)")
    lf, df = text.split("/", 1)
    if lf not in light:
        return f"{text}: {lf} is not a light face of {of}"
    if df not in dark:
        return f"{text}: {df} is not a dark face of {of}"
    return None


def _check_cards(doc: Any, data: dict[str, Any], file: str, deck: specdata.Deck) -> None:
    """Every card is a card of the ruleset's game and deck (no Flip face in a classic game, no
    single-faced card in Flip, no Wild Shuffle Hands without the 2018 deck), and the set-up
    holds no more copies of a card (of a face, in Flip) than the deck does."""
    sid = data["id"]
    seen: Counter[tuple[int, str]] = Counter()  # (side: 0 light, 1 dark; face)
    for path, text, what in _card_places(data):
        if what == "refused":  # the implementation's refusal is what the step checks
            continue
        problem = _card_problem(text, what, deck)
        if problem is not None:
            raise _error(doc, file, sid, path, problem)
        if path[0] != "setup":
            continue
        faces = [(text, deck.light)] if deck.dark is None else \
            list(zip(text.split("/", 1), (deck.light, deck.dark), strict=True))
        for side, (face, held) in enumerate(faces):
            # counted per side: Flip's light and dark Wilds are both written W
            n = seen[side, face] = seen[side, face] + 1
            if n > held[face]:
                where = "" if deck.dark is None else (" (dark face)", " (light face)")[side == 0]
                raise _error(doc, file, sid, path,
                             f"a {_ordinal(n)} {face}{where} in the set-up, but the deck "
                             f"{deck.name} of ruleset {deck.ruleset} holds {held[face]}")
    for i, step in enumerate(data.get("steps") or []):
        deal = (step.get("act") or {}).get("deal")
        if deal is not None and "error" not in step:
            _check_deal(doc, data, file, i, deal, deck)


def _check_deal(doc: Any, data: dict[str, Any], file: str, i: int, deal: dict[str, Any],
                deck: specdata.Deck) -> None:
    """A fixed deal for the next hand (`next_round` with `deal`) is checked like a set-up:
    every seat has a hand, and it deals exactly the cards of the game: those the set-up lists
    (nothing comes into a game or leaves it), or, when the set-up deals the ruleset's own deck
    (`start: game` without `draw`), as many cards as that deck holds, none more often."""
    setup = data["setup"]
    at = ["steps", i, "act", "deal"]
    n = setup["players"]
    missing = [s for s in range(n) if str(s) not in deal["hands"]]
    if missing:
        raise _error(doc, file, data["id"], [*at, "hands"],
                     f"no hand given for seat(s) {missing} ([] for an empty hand)")
    dealt = Counter(c for h in deal["hands"].values() for c in h) + Counter(deal["draw"])
    if setup.get("start") == "game" and "draw" not in setup:
        total = sum(deck.light.values())
        for card, copies in dealt.items():
            faces = card.split("/", 1) if deck.dark is not None else [card]
            for face, held in zip(faces, (deck.light, deck.dark or deck.light), strict=False):
                if copies > held[face]:
                    raise _error(doc, file, data["id"], at, f"the deal holds {copies} x "
                                 f"{face}, the deck {deck.name} {held[face]}")
        if sum(dealt.values()) != total:
            raise _error(doc, file, data["id"], at, f"the deal holds {sum(dealt.values())} "
                         f"cards, the game's deck {deck.name} {total}: deal them all")
        return
    game = Counter(c for h in (setup.get("hands") or {}).values() for c in h) \
        + Counter(setup.get("discard") or []) + Counter(setup.get("draw") or [])
    if dealt != game:
        extra = sorted((dealt - game).elements())
        lacking = sorted((game - dealt).elements())
        said = "; ".join(part for part in (
            f"not in the game: {', '.join(extra)}" if extra else "",
            f"missing: {', '.join(lacking)}" if lacking else "") if part)
        raise _error(doc, file, data["id"], at, "the deal must hold exactly the cards of the "
                     f"game (its set-up's hands, discard and draw piles): {said}")


def _build(doc: Any, data: dict[str, Any], file: str) -> Scenario:
    steps = []
    raw_steps = doc.get("steps") if isinstance(doc, dict) else None
    for i, s in enumerate(data.get("steps", ())):
        raw = raw_steps[i] if isinstance(raw_steps, list) and i < len(raw_steps) else None
        line = int(getattr(raw, "line", 0) or _line_at(doc, ["steps", i]))
        steps.append(Step(index=i + 1, line=line, act=s.get("act"), error=s.get("error"),
                          state_unchanged=bool(s.get("state_unchanged", False)),
                          expect=s.get("expect"), note=s.get("note")))
    return Scenario(
        id=data["id"], title=data["title"], ruleset=data["ruleset"],
        cites=tuple(data["cites"]), rules=tuple(data["rules"]),
        features=tuple(data["features"]), setup=data.get("setup", {}), steps=tuple(steps),
        file=file, line=int(getattr(doc, "line", 1) or 1), seed=int(data.get("seed", 0)),
        description=str(data.get("description", "")),
        raw_lines=_match_lines(doc) if "match" in data
        else dict(getattr(doc, "key_lines", {}) or {}),
        expect_setup_error=data.get("expect_setup_error"), match=data.get("match"),
        params=data.get("params") or {},
    )


def _match_lines(doc: Any) -> dict[str, int]:
    """The scenario's key lines, and those of its match expectations as `expect.<key>` (a
    failure report points at the expectation that failed)."""
    lines = dict(getattr(doc, "key_lines", {}) or {})
    match = doc.get("match")
    expect = match.get("expect") if isinstance(match, dict) else None
    for key in expect if isinstance(expect, dict) else ():
        lines[f"expect.{key}"] = _line_at(doc, ["match", "expect", key])
    schedule = expect.get("schedule") if isinstance(expect, dict) else None
    for key in schedule if isinstance(schedule, dict) else ():
        lines[f"expect.schedule.{key}"] = _line_at(doc, ["match", "expect", "schedule", key])
    return lines


def parse_text(text: str, file: str) -> list[Scenario]:
    """Parse and validate the scenarios of one file's text."""
    return _parse(text, file, None)[0]


def _parse(text: str, file: str, select: Filters | None) -> tuple[list[Scenario], int]:
    """The scenarios of one file's text that `select` selects (all when None), validated, and
    how many scenarios the file holds. A scenario `select` does not select is skipped before
    it is validated; the file itself (YAML, its `scenarios` list) is always checked."""
    from uno_spec.loader import SpecError, parse_yaml

    try:
        doc = parse_yaml(text, file)
    except SpecError as exc:
        raise ScenarioError(exc.file, exc.line, exc.message) from None
    if not isinstance(doc, dict):
        raise ScenarioError(file, 1, "expected a mapping: one scenario, or `scenarios: [...]`")
    if "scenarios" in doc:
        extra = sorted(str(k) for k in doc if k != "scenarios")
        if extra:
            raise ScenarioError(file, _line_at(doc, [extra[0]]),
                                f"unexpected key(s) beside `scenarios`: {', '.join(extra)}")
        items = doc["scenarios"]
        if not isinstance(items, list) or not items:
            raise ScenarioError(file, _line_at(doc, ["scenarios"]),
                                "`scenarios` must be a non-empty list of scenarios")
    else:
        items = [doc]
    out: list[Scenario] = []
    seen: dict[str, int] = {}
    for raw in items:
        if not isinstance(raw, dict):
            raise ScenarioError(file, _line_at(doc, ["scenarios"]), "a scenario must be a mapping")
        if select is not None and not select.may_match(raw):
            continue
        sc = _checked(raw, file)
        if sc.id in seen:
            raise ScenarioError(file, sc.line,
                                f"duplicate scenario id {sc.id!r} (first at line {seen[sc.id]})")
        seen[sc.id] = sc.line
        out.append(sc)
    return out, len(items)


def _checked(raw: Any, file: str) -> Scenario:
    """One scenario mapping (parsed YAML with its lines, or plain data) validated and built."""
    data = to_json(raw)
    _check_kind(raw, data, file)
    _check_players(raw, data, file)
    _validate(raw, data, file)
    deck = _deck(raw, data, file)
    _check_numbers(raw, data, file)
    _check_params(raw, data, file)
    if "match" in data:
        _check_match(raw, data, file)
    else:
        _check_seats(raw, data, file)
        _check_cards(raw, data, file, deck)
    return _build(raw, data, file)


def parse_data(doc: dict[str, Any], file: str) -> Scenario:
    """One scenario from plain data (what `conformance diff` writes, before it is written),
    validated as `parse_text` validates the same document as YAML text; its lines are 1."""
    return _checked(doc, file)


def load_file(path: Path) -> list[Scenario]:
    """Load and validate every scenario of one file (uno_spec.files.read_text: a regular
    UTF-8 file within the size limit, never waited on)."""
    return _load_path(path, None, None)[0]


def _load_path(path: Path, select: Filters | None, cache: Cache | None,
               ) -> tuple[list[Scenario], int]:
    """As `_parse`, for a file: from the cache when it holds the file's bytes (a file that
    loads whole is stored there)."""
    from uno_spec.files import InputError, decode_utf8, read_bytes

    shown = display_path(path)
    try:
        data = read_bytes(path)
    except InputError as exc:
        raise ScenarioError(shown, exc.line, exc.message) from None
    source = hashlib.sha256(data).hexdigest() if cache is not None else ""
    if cache is not None:
        cached = _from_cache(cache.get(source), shown)
        if cached is not None:
            return [sc for sc in cached if select is None or select.match(sc)], len(cached)
    try:
        text = decode_utf8(data)
    except InputError as exc:
        raise ScenarioError(shown, exc.line, exc.message) from None
    scenarios, count = _parse(text, shown, select)
    if cache is not None and len(scenarios) == count:  # every scenario validated
        cache.put(source, [_to_cache(sc) for sc in scenarios])
    return scenarios, count


def _to_cache(sc: Scenario) -> dict[str, Any]:
    """A scenario as JSON data for the cache (its file is not stored: it is where the bytes
    were found)."""
    return {"id": sc.id, "title": sc.title, "ruleset": sc.ruleset, "cites": list(sc.cites),
            "rules": list(sc.rules), "features": list(sc.features), "setup": sc.setup,
            "steps": [[st.index, st.line, st.act, st.error, st.state_unchanged, st.expect,
                       st.note] for st in sc.steps],
            "line": sc.line, "seed": sc.seed, "description": sc.description,
            "raw_lines": sc.raw_lines, "expect_setup_error": sc.expect_setup_error,
            "match": sc.match, "params": sc.params}


def _from_cache(payload: Any, file: str) -> list[Scenario] | None:
    """The scenarios of a cache payload, or None when it is not one (every value's type is
    checked: an entry that is not what `_to_cache` writes is a miss, never a crash)."""
    if not isinstance(payload, list) or not payload:
        return None
    try:
        return [_scenario_from_cache(d, file) for d in payload]
    except (TypeError, ValueError, KeyError):
        return None


def _scenario_from_cache(d: Any, file: str) -> Scenario:
    # json.loads builds exactly dict, list, str, int, float, bool and None: `type(x) is`
    # (uno_spec.cache.typed)
    if type(d) is not dict or d.keys() != _CACHED_KEYS:
        raise ValueError("not a cached scenario")
    steps = []
    for entry in typed(d["steps"], list):
        index, line, act, error, unchanged, expect, note = typed(entry, list)
        if not (type(index) is int and type(line) is int and type(unchanged) is bool
                and (act is None and type(expect) is dict or expect is None and type(act) is dict)
                and (error is None or type(error) is str) and (note is None or type(note) is str)):
            raise ValueError("not a cached step")
        steps.append(Step(index=index, line=line, act=act, error=error,
                          state_unchanged=unchanged, expect=expect, note=note))
    raw_lines = typed(d["raw_lines"], dict)
    if not all(type(v) is int for v in raw_lines.values()):  # keys: JSON's are strings
        raise ValueError("not cached lines")
    setup_error = d["expect_setup_error"]
    if not (setup_error is None or type(setup_error) is str):
        raise ValueError("not a cached error code")
    match = d["match"]
    if not (match is None or type(match) is dict):
        raise ValueError("not a cached match")
    return Scenario(
        id=typed(d["id"], str), title=typed(d["title"], str),
        ruleset=typed(d["ruleset"], str), cites=str_list(d["cites"]),
        rules=str_list(d["rules"]), features=str_list(d["features"]),
        setup=typed(d["setup"], dict), steps=tuple(steps),
        file=file, line=typed(d["line"], int), seed=typed(d["seed"], int),
        description=typed(d["description"], str), raw_lines=raw_lines,
        expect_setup_error=setup_error, match=match, params=typed(d["params"], dict))


_CACHED_KEYS = frozenset(("id", "title", "ruleset", "cites", "rules", "features", "setup",
                          "steps", "line", "seed", "description", "raw_lines",
                          "expect_setup_error", "match", "params"))


def _walk(root: Path) -> Iterator[list[Path]]:
    """The `*.yaml`/`*.yml` entries of each directory under `root` (itself included), one list
    per directory, without recursion (uno_spec.files.walk: `os.walk` recursed, and met
    RecursionError 1 000 levels down). A directory that cannot be read (its path longer than
    PATH_MAX, no permission) is a ScenarioError: `os.walk` skipped it in silence, and its
    scenarios with it."""
    from uno_spec.files import UnreadableDirectory, walk

    try:
        for folder, _depth, names in walk(root):
            yield [Path(folder, n) for n in names if n.endswith((".yaml", ".yml"))]
    except UnreadableDirectory as exc:
        raise ScenarioError(_directory_shown(root, exc.folder, exc.depth), 0,
                            f"cannot read the directory: {exc.reason}") from None


def _directory_shown(root: Path, folder: str, depth: int) -> str:
    """A directory of the walk, for a message: its path, or, when that is too long to read
    in one line, the root given and how far below it the directory is."""
    shown = display_path(folder)
    if len(shown) <= 300:
        return shown
    return f"{display_path(root)} (a directory {depth} levels below it)"


def scenario_files(paths: Sequence[Path] | None = None) -> list[Path]:
    """The YAML files under the given files/directories (default: the bundled corpus).

    Directories are walked without recursion and without following symbolic links to
    directories (a link loop is never entered: `_walk`); every `*.yaml`/`*.yml` entry is
    listed, whatever it is (a FIFO or a dangling link then fails to load in one line). More
    than MAX_FILES files, a directory that cannot be read, or a directory given that holds no
    scenario file (`x.yaml/`, an empty folder): ScenarioError.
    """
    roots = list(paths) if paths else [CORPUS_ROOT]
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            found: list[Path] = []
            for names in _walk(root):
                found.extend(names)
                if len(files) + len(found) > MAX_FILES:
                    raise ScenarioError(display_path(root), 0, f"more than {MAX_FILES} scenario "
                                        "files (the limit); name fewer files or directories")
            if not found and paths:  # named on the command line: nothing to check is an error
                kind = "a directory (not a scenario file)" \
                    if root.name.endswith((".yaml", ".yml")) else "a directory"
                raise ScenarioError(display_path(root), 0,
                                    f"{kind} holding no scenario file (*.yaml, *.yml)")
            files.extend(sorted(found))
        else:
            files.append(root)
    if len(files) > MAX_FILES:
        raise ScenarioError(display_path(files[MAX_FILES]), 0,
                            f"more than {MAX_FILES} scenario files (the limit)")
    return files


@dataclass
class Corpus:
    scenarios: list[Scenario]  # the scenarios selected (every one without a selection)
    errors: list[ScenarioError]
    total: int = 0  # scenarios in the files that loaded, selected or not


def load_corpus(paths: Sequence[Path] | None = None, select: Filters | None = None,
                cache: bool = True) -> Corpus:
    """Load every scenario file; collect errors (one per bad file, plus duplicate ids).

    `select`: only the scenarios it selects are validated and returned (a file that is not
    YAML, or not a scenario file, is still an error). `cache`: read and fill the cache of
    parsed, validated files (conformance.corpus_cache; also off with UNO_FSM_NO_CACHE=1).
    """
    from conformance import corpus_cache

    scenarios: list[Scenario] = []
    errors: list[ScenarioError] = []
    first: dict[str, Scenario] = {}
    try:
        files = scenario_files(paths)
    except ScenarioError as exc:
        return Corpus([], [exc])
    store = corpus_cache.open_cache() if cache else None
    total = 0
    for path in files:
        try:
            loaded, count = _load_path(path, select, store)
        except ScenarioError as exc:
            errors.append(exc)
            continue
        total += count
        for sc in loaded:
            if sc.id in first:
                prev = first[sc.id]
                errors.append(ScenarioError(sc.file, sc.line, f"duplicate scenario id {sc.id!r} "
                                            f"(first in {prev.file}:{prev.line})"))
                continue
            first[sc.id] = sc
            scenarios.append(sc)
    return Corpus(scenarios, errors, total)


@dataclass(frozen=True)
class Filters:
    """Select scenarios: each list is OR'ed, different lists are AND'ed; glob patterns."""

    ids: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()

    def match(self, sc: Scenario) -> bool:
        def any_of(patterns: tuple[str, ...], values: Iterable[str]) -> bool:
            vals = list(values)
            return not patterns or any(globs.matches(v, p) for p in patterns for v in vals)

        return (any_of(self.ids, [sc.id]) and any_of(self.rulesets, [sc.ruleset])
                and any_of(self.features, sc.features) and any_of(self.rules, sc.rules)
                and any_of(self.clauses, sc.cites))

    def apply(self, scenarios: Iterable[Scenario]) -> list[Scenario]:
        return [s for s in scenarios if self.match(s)]

    def may_match(self, raw: Any) -> bool:
        """Whether a scenario not yet validated (a parsed mapping) may be selected: False when
        a field a filter looks at is well formed (a string; a list of strings) and matches
        none of its patterns (the filters are AND'ed, so that field alone decides). A malformed
        field never makes a scenario skipped: one that may be selected is validated, and a
        malformed one refused."""
        def values(key: str, many: bool) -> list[str] | None:
            value = raw.get(key)
            if not many:
                return [value] if isinstance(value, str) else None
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return value
            return None

        for patterns, key, many in ((self.ids, "id", False), (self.rulesets, "ruleset", False),
                                    (self.features, "features", True),
                                    (self.rules, "rules", True), (self.clauses, "cites", True)):
            if not patterns:
                continue
            vals = values(key, many)
            if vals is not None and \
                    not any(globs.matches(v, p) for p in patterns for v in vals):
                return False
        return True
