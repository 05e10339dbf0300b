"""Scenario files: loading, validation against the JSON Schema, and clear `file:line` errors.

A scenario file holds one scenario (a mapping with `id`, `title`, ...) or several under
`scenarios:`. The format is documented in docs/scenario-format.md; its schema is
spec/schema/scenario.schema.json.

Payloads sent to adapters are the scenario's data in JSON form: maps keyed by seat use decimal
string keys (`{"0": [...]}`) in-process exactly as on the wire, so both paths see the same thing.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from conformance import specdata
from conformance.schemacheck import UnsupportedSchema, compile_schema

CORPUS_ROOT = Path(__file__).resolve().parent / "corpus"


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

    def observation_keys(self) -> set[str]:
        """Observation keys the scenario's expectations use."""
        keys: set[str] = set()
        for step in self.steps:
            if step.expect is not None:
                keys.update(step.expect)
        return keys

    def setup_params(self) -> dict[str, Any]:
        """The `setup` request's params."""
        return {"ruleset": self.ruleset, "setup": self.setup, "seed": self.seed}


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


_ANNOTATIONS = frozenset(("description", "title", "default", "examples", "$comment", "$schema"))


def _inline_refs(node: Any, defs: dict[str, Any], stack: tuple[str, ...] = ()) -> Any:
    """`node` with every local `{"$ref": "#/$defs/NAME"}` replaced by a copy of that definition.

    Validation then never resolves a reference (with `referencing`, that lookup was a third of
    the time of loading the corpus). Keywords beside a `$ref` may only be annotations
    (description, title, ...), which do not validate; a recursive definition, a remote `$ref`,
    or a validating keyword beside one raise ValueError, and the caller keeps the `$ref`s.
    """
    if isinstance(node, list):
        return [_inline_refs(v, defs, stack) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if ref is None:
        return {k: _inline_refs(v, defs, stack) for k, v in node.items()}
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        raise ValueError(f"cannot inline $ref {ref!r}")
    name = ref[len("#/$defs/"):]
    if name not in defs or name in stack:
        raise ValueError(f"cannot inline $ref {ref!r}")
    siblings = {k: v for k, v in node.items() if k != "$ref"}
    if set(siblings) - _ANNOTATIONS:
        raise ValueError(f"validating keywords beside $ref {ref!r}")
    target = _inline_refs(defs[name], defs, (*stack, name))
    return {**target, **siblings} if isinstance(target, dict) else target


@dataclass(frozen=True)
class _Validators:
    source: dict[str, Any]  # the schema as read (identity: rebuilt after clear_caches)
    full: jsonschema.Draft202012Validator  # the errors users see
    fast: Callable[[Any], bool] | None  # yes/no in front of it (conformance.schemacheck)


_VALIDATORS: _Validators | None = None


def _validators() -> _Validators:
    """The scenario validators, built once per schema (`specdata.clear_caches` rereads it)."""
    global _VALIDATORS
    source = specdata.scenario_schema()
    if _VALIDATORS is None or _VALIDATORS.source is not source:
        _VALIDATORS = _build_validators(source)
    return _VALIDATORS


def _validator() -> jsonschema.Draft202012Validator:
    """The jsonschema validator of one scenario: the `scenario` definition, $refs inlined."""
    return _validators().full


def _build_validators(source: dict[str, Any]) -> _Validators:
    schema = dict(source)
    schema.pop("oneOf", None)
    schema["$ref"] = "#/$defs/scenario"
    defs = schema.get("$defs", {})
    try:
        flat = _inline_refs({k: v for k, v in schema.items() if k not in ("$defs", "$id")}, defs)
    except ValueError:
        return _Validators(source, jsonschema.Draft202012Validator(schema), None)
    try:
        fast: Callable[[Any], bool] | None = compile_schema(flat)
    except UnsupportedSchema:
        fast = None
    return _Validators(source, jsonschema.Draft202012Validator(flat), fast)


def _describe(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Descend into oneOf/anyOf to the error that best explains the problem.

    A branch whose top-level `required` keys are missing is not what the author meant (an `act`
    step is not an `expect` step); when one branch is left, its deepest error is the story.
    """
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values()
                 if not any(e.validator == "required" and not e.relative_path for e in errs)]
        if len(meant) == 1:
            best = jsonschema.exceptions.best_match(meant[0])
            if best is not None:
                return _describe(best)
    best = jsonschema.exceptions.best_match([error])
    return best if best is not None else error


def _path(parts: Iterable[Any]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(scenario)"


def _validate(doc: Any, data: Any, file: str) -> None:
    validators = _validators()
    if validators.fast is not None and validators.fast(data):
        return
    errors = sorted(validators.full.iter_errors(data), key=lambda e: list(map(str, e.path)))
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
    prefix = f"scenario {sid}: " if isinstance(sid, str) else ""
    raise ScenarioError(file, _line_at(doc, line_path), f"{prefix}{_path(where)}: {err.message}")


def _check_seats(doc: Any, data: dict[str, Any], file: str) -> None:
    """Seat numbers must exist at the table; every seat needs a hand."""
    setup = data["setup"]
    n = setup["players"]
    sid = data["id"]

    def bad(path: list[Any], message: str) -> ScenarioError:
        return ScenarioError(file, _line_at(doc, path), f"scenario {sid}: {_path(path)}: {message}")

    for key in ("dealer", "current"):
        if key in setup and setup[key] >= n:
            raise bad(["setup", key], f"seat {setup[key]} does not exist with {n} players")
    for key in ("hands", "scores"):
        for seat in setup.get(key, {}):
            if int(seat) >= n:
                raise bad(["setup", key, seat], f"seat {seat} does not exist with {n} players")
    missing = [s for s in range(n) if str(s) not in setup.get("hands", {})]
    if missing and setup.get("start") != "game":  # start: game deals the hands itself
        raise bad(["setup", "hands"], f"no hand given for seat(s) {missing} ([] for an empty hand)")
    for i, step in enumerate(data.get("steps", ())):
        act = step.get("act")
        if act is not None:
            for key in ("player", "catch", "swap"):
                if key in act and act[key] >= n:
                    raise bad(["steps", i, "act", key], f"seat {act[key]} does not exist")
        exp = step.get("expect") or {}
        for key in ("hands", "hand_sizes", "scores"):
            for seat in exp.get(key, {}):
                if int(seat) >= n:
                    raise bad(["steps", i, "expect", key, seat], f"seat {seat} does not exist")
        for key in ("current", "winner"):
            if isinstance(exp.get(key), int) and exp[key] >= n:
                raise bad(["steps", i, "expect", key], f"seat {exp[key]} does not exist")


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
        features=tuple(data["features"]), setup=data["setup"], steps=tuple(steps),
        file=file, line=int(getattr(doc, "line", 1) or 1), seed=int(data.get("seed", 0)),
        description=str(data.get("description", "")),
        raw_lines=dict(getattr(doc, "key_lines", {}) or {}),
        expect_setup_error=data.get("expect_setup_error"),
    )


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def parse_text(text: str, file: str) -> list[Scenario]:
    """Parse and validate the scenarios of one file's text."""
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
        data = to_json(raw)
        _validate(raw, data, file)
        _check_seats(raw, data, file)
        sc = _build(raw, data, file)
        if sc.id in seen:
            raise ScenarioError(file, sc.line,
                                f"duplicate scenario id {sc.id!r} (first at line {seen[sc.id]})")
        seen[sc.id] = sc.line
        out.append(sc)
    return out


def load_file(path: Path) -> list[Scenario]:
    """Load and validate every scenario of one file."""
    shown = _display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(shown, 0, f"cannot read: {exc}") from None
    return parse_text(text, shown)


def scenario_files(paths: Sequence[Path] | None = None) -> list[Path]:
    """The YAML files under the given files/directories (default: the bundled corpus)."""
    roots = list(paths) if paths else [CORPUS_ROOT]
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files.extend(sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")))
        else:
            files.append(root)
    return files


@dataclass
class Corpus:
    scenarios: list[Scenario]
    errors: list[ScenarioError]


def load_corpus(paths: Sequence[Path] | None = None) -> Corpus:
    """Load every scenario file; collect errors (one per bad file, plus duplicate ids)."""
    scenarios: list[Scenario] = []
    errors: list[ScenarioError] = []
    first: dict[str, Scenario] = {}
    for path in scenario_files(paths):
        try:
            loaded = load_file(path)
        except ScenarioError as exc:
            errors.append(exc)
            continue
        for sc in loaded:
            if sc.id in first:
                prev = first[sc.id]
                errors.append(ScenarioError(sc.file, sc.line, f"duplicate scenario id {sc.id!r} "
                                            f"(first in {prev.file}:{prev.line})"))
                continue
            first[sc.id] = sc
            scenarios.append(sc)
    return Corpus(scenarios, errors)


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
            return not patterns or any(fnmatch.fnmatchcase(v, p) for p in patterns for v in vals)

        return (any_of(self.ids, [sc.id]) and any_of(self.rulesets, [sc.ruleset])
                and any_of(self.features, sc.features) and any_of(self.rules, sc.rules)
                and any_of(self.clauses, sc.cites))

    def apply(self, scenarios: Iterable[Scenario]) -> list[Scenario]:
        return [s for s in scenarios if self.match(s)]
