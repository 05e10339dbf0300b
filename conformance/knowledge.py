"""What the project knows about each third-party implementation, as data.

`conformance/implementations/<name>.yaml` (schema: conformance/schema/implementation.schema.json)
holds one implementation's package, adapter, commands, how it is driven, the adapter's bridging
decisions, what it lacks, the failing scenarios checked by hand, and its deviation catalogue.
Each deviation records the signature of its failures (conformance.blame): what differs at the
failing step (the first differing observation, or the error codes) and, implicitly, the rule
broken, which must be one of the deviation's `rules`; a failure is attached to the deviation only
when its signature is that one:

    signature: {what: [pending.player, current], kind: [observation]}

An optional declarative matcher adds conditions on the result:

    match:
      drawn_before: true              # every key given must hold
      any:                            # any / all / not combine matchers
        - {expected_decision: [play-drawn]}
        - {message_contains: [not-your-turn]}
        - {mismatch_keys: [hands, current]}

Leaves holding a list hold when any item does: `message_contains`, `message_starts`, `rules`
(globs against the scenario's rules), `mismatch_keys` (observation keys, before any `.`),
`expected_decision` (the failing step's expected pending decision), `error_code` (the failing
step's expected error), `outcome` (failed / errored), `scenario` (globs against its id);
`drawn_before` (a step before the failing one drew a card) is a boolean. The generic generator
(conformance/compliance.py) reads these files; nothing about one implementation is code.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_spec import globs

ROOT = Path(__file__).resolve().parent.parent
IMPLEMENTATIONS_DIR = Path(__file__).resolve().parent / "implementations"
SCHEMA = Path(__file__).resolve().parent / "schema" / "implementation.schema.json"

Result = dict[str, Any]
# (result, scenario or None) -> bool
Predicate = Callable[[Result, Any], bool]


class ImplementationError(ValueError):
    """An implementation file that cannot be used (message names file and line)."""


@dataclass(frozen=True)
class Code:
    file: str
    function: str


@dataclass(frozen=True)
class Deviation:
    key: str
    title: str
    short: str  # the reason in the expectation file, after the code location
    code: Code
    behaviour: str
    rules: tuple[str, ...]
    match: dict[str, Any]
    artefact: bool = False  # an adapter artefact: `code` is in this repository's adapter
    predicate: Predicate = field(default=lambda r, sc: True, compare=False, repr=False)
    signature: dict[str, Any] = field(default_factory=dict)  # what, kind, decision (globs)

    @property
    def location(self) -> str:
        """`file function`, as the expectation file's reason starts."""
        return f"{self.code.file} {self.code.function}"

    @property
    def reason(self) -> str:
        prefix = "adapter artefact, " if self.artefact else ""
        return f"{prefix}{self.location}: {self.short}"

    def blames(self, rule: str) -> bool:
        return any(globs.matches(rule, g) for g in self.rules)

    def matches(self, result: Result, scenario: Any, sig: Any = None) -> bool:
        """The failure is this deviation's: its signature (conformance.blame.Signature) is the
        one recorded (what differs, and a rule broken among `rules`), and the optional
        `match` holds."""
        if sig is None:
            return False
        # a crash or hang observes nothing: its rule is the deviation's own (documented) ones
        if sig.kind not in ("crash", "hang") and (not sig.rule or not self.blames(sig.rule)):
            return False
        want = self.signature
        if not _globs([sig.what], list(want.get("what") or [])):
            return False
        if want.get("kind") and sig.kind not in want["kind"]:
            return False
        if want.get("decision") and not _globs([sig.decision], list(want["decision"])):
            return False
        return self.predicate(result, scenario)


@dataclass(frozen=True)
class Decision:
    key: str
    title: str
    text: str


@dataclass(frozen=True)
class Implementation:
    name: str
    title: str
    label: str
    package: dict[str, str]
    file: Path
    no_engine: str | None = None
    extends: str | None = None
    adapter: dict[str, Any] = field(default_factory=dict)
    expectations: str = ""
    report: str = ""
    page: str = ""
    commands: dict[str, Any] = field(default_factory=dict)
    driven: tuple[str, ...] = ()
    decisions: tuple[Decision, ...] = ()
    lacks: str = ""
    verified: frozenset[str] = frozenset()
    deviations: tuple[Deviation, ...] = ()

    @property
    def source_root(self) -> str:
        return self.package.get("source_root", "")

    def path(self, relative: str) -> Path:
        """A path of this file (expectations, report, page) in the repository."""
        return ROOT / relative

    def code_path(self, dev: Deviation) -> str:
        """The full path of a deviation's file (in the implementation, or the adapter's)."""
        return dev.code.file if dev.artefact else self.source_root + dev.code.file


# --- matchers ----------------------------------------------------------------------------------


def _msg(r: Result) -> str:
    return str(r.get("message", ""))


def _mismatch_keys(r: Result) -> set[str]:
    return {str(m.get("key", "")).split(".")[0] for m in r.get("mismatches") or []}


def _expected(r: Result, key: str) -> Any:
    exp = r.get("expected")
    if not isinstance(exp, dict):
        return None
    if key == "decision":
        pending = exp.get("pending")
        return pending.get("decision") if isinstance(pending, dict) else None
    return exp.get(key)


def _globs(values: list[str], patterns: list[str]) -> bool:
    return any(globs.matches(str(x), g) for x in values for g in patterns)


def _drawn_before(r: Result, sc: Any) -> bool:
    """The scenario drew a card before the failing step."""
    if sc is None or not r.get("step"):
        return False
    return any(s.act is not None and s.act.get("draw") is True
               for s in sc.steps if s.index < r["step"])


def _leaf(key: str, value: Any) -> Predicate:
    if key == "message_contains":
        return lambda r, sc: any(v in _msg(r) for v in value)
    if key == "message_starts":
        return lambda r, sc: any(_msg(r).startswith(v) for v in value)
    if key == "rules":
        return lambda r, sc: _globs(list(r.get("rules") or []), value)
    if key == "scenario":
        return lambda r, sc: _globs([r.get("id", "")], value)
    if key == "mismatch_keys":
        return lambda r, sc: bool(_mismatch_keys(r) & set(value))
    if key == "expected_decision":
        return lambda r, sc: _expected(r, "decision") in value
    if key == "error_code":
        return lambda r, sc: _expected(r, "error") in value
    if key == "outcome":
        return lambda r, sc: str(r.get("outcome") or r.get("status")) in value
    if key == "drawn_before":
        return lambda r, sc: _drawn_before(r, sc) is bool(value)
    raise ImplementationError(f"unknown matcher key {key!r}")


def _combine(how: str, subs: list[Predicate]) -> Predicate:
    if how == "any":
        return lambda r, sc: any(p(r, sc) for p in subs)
    return lambda r, sc: all(p(r, sc) for p in subs)


def _negate(sub: Predicate) -> Predicate:
    return lambda r, sc: not sub(r, sc)


def compile_matcher(spec: dict[str, Any]) -> Predicate:
    """A predicate from a matcher mapping (every key must hold)."""
    parts: list[Predicate] = []
    for key, value in spec.items():
        if key in ("any", "all"):
            parts.append(_combine(key, [compile_matcher(m) for m in value]))
        elif key == "not":
            parts.append(_negate(compile_matcher(value)))
        else:
            parts.append(_leaf(key, value))
    return lambda r, sc: all(p(r, sc) for p in parts)


# --- loading -----------------------------------------------------------------------------------


@functools.cache
def _validator() -> Any:
    """conformance/schema/implementation.schema.json, compiled (jsonschema explains only a
    file it rejects)."""
    from uno_spec.schema import compile_schema

    return compile_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _line_of(doc: Any, path: list[Any], key: Any = None) -> int:
    """The line of the value at `path` (of its `key` when given) in a parsed YAML document."""
    from uno_spec.loader import line_of

    node, line = doc, line_of(doc)
    for part in [*path, *([] if key is None else [key])]:
        if isinstance(node, dict) and part in node:
            line = line_of(node, part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            line = line_of(node) if isinstance(node, dict) else line
        else:
            break
    return line


def _error_line(doc: Any, error: Any) -> int:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        extra = [k for k in error.instance if k not in known]
        if extra:
            return _line_of(doc, path, extra[0])
    return _line_of(doc, path)


_LOADING: set[str] = set()  # names whose `extends` chain is being followed


def load(path: Path) -> Implementation:
    """Read and validate one implementation file."""
    from uno_spec.loader import SpecError, load_yaml

    try:
        doc = load_yaml(path)
    except SpecError as exc:
        raise ImplementationError(str(exc)) from None
    errors = sorted(_validator().iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        from uno_spec.schema import error_text

        message = error_text(e)
        if e.validator == "not" and not e.absolute_path:  # the schema's `then` for no_engine
            message = "an implementation with no_engine has no adapter, commands or deviations"
        raise ImplementationError(
            f"{path}:{_error_line(doc, e)}: {where}: {message}")
    if doc["name"] != path.stem:
        raise ImplementationError(f"{path}:1: name {doc['name']!r} is not the file's stem "
                                  f"{path.stem!r}")
    devs = []
    for d in doc.get("deviations") or []:
        devs.append(Deviation(
            key=d["key"], title=d["title"], short=d["short"],
            code=Code(d["code"]["file"], d["code"]["function"]), behaviour=d["behaviour"],
            rules=tuple(d["rules"]), match=dict(d.get("match") or {}),
            artefact=bool(d.get("artefact")),
            predicate=compile_matcher(d["match"]) if d.get("match") else (lambda r, sc: True),
            signature=dict(d["signature"])))
    decisions = [Decision(x["key"], x["title"], x["text"]) for x in doc.get("decisions") or []]
    if doc.get("extends"):
        if doc["extends"] in _LOADING:
            raise ImplementationError(f"{path}:{_line_of(doc, ['extends'])}: extends "
                                      f"{doc['extends']!r}, which extends it back")
        _LOADING.add(doc["name"])
        try:
            parent = load(path.parent / f"{doc['extends']}.yaml")
        finally:
            _LOADING.discard(doc["name"])
        devs = [*parent.deviations, *devs]
        decisions = [*parent.decisions, *decisions]
    keys = [d.key for d in devs]
    if len(set(keys)) != len(keys):
        raise ImplementationError(f"{path}:1: deviation keys repeat (with those it extends)")
    return Implementation(
        name=doc["name"], title=doc["title"], label=doc["label"], package=dict(doc["package"]),
        file=path, no_engine=doc.get("no_engine"), adapter=dict(doc.get("adapter") or {}),
        expectations=doc.get("expectations", ""), report=doc.get("report", ""),
        page=doc.get("page", ""), commands=dict(doc.get("commands") or {}),
        driven=tuple(doc.get("driven") or ()),
        decisions=tuple(decisions), extends=doc.get("extends"),
        lacks=doc.get("lacks", ""), verified=frozenset(doc.get("verified") or ()),
        deviations=tuple(devs))


def names() -> list[str]:
    return sorted(p.stem for p in IMPLEMENTATIONS_DIR.glob("*.yaml"))


@functools.cache
def get(name: str) -> Implementation:
    """The implementation named `name` (ImplementationError if there is none)."""
    path = IMPLEMENTATIONS_DIR / f"{name}.yaml"
    if not path.is_file():
        raise ImplementationError(f"unknown implementation {name!r}: known are "
                                  + ", ".join(names()))
    return load(path)


def _adapter_key(spec: str) -> tuple[str, ...]:
    spec = spec.strip()
    if spec.startswith("stdio:"):
        import shlex

        try:
            return ("stdio", *shlex.split(spec[len("stdio:"):]))
        except ValueError:
            return (spec,)
    return (spec,)


def by_adapter(spec: str | None) -> Implementation | None:
    """The implementation whose knowledge file names this `--adapter` value (quoting aside)."""
    if not spec:
        return None
    key = _adapter_key(spec)
    for impl in load_all():
        if impl.adapter.get("spec") and _adapter_key(impl.adapter["spec"]) == key:
            return impl
    return None


def load_all() -> list[Implementation]:
    """Every implementation file, verifiable or not, sorted by name."""
    return [get(n) for n in names()]
