"""JSON Schemas (draft 2020-12): a compiled check, and validation that reports lines.

Every JSON Schema the project checks documents against (spec files, scenarios, reports read
back, implementation knowledge files) goes through `compile_schema`: a validator compiled once by
jsonschema-rs (Rust) answers *valid or not*, and only for a document it rejects is `jsonschema`
imported (lazily, about 70 ms) to explain why: its error (path, message) is the one users see,
so the messages do not depend on the fast validator. Remote `$ref`s are never fetched.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from uno_spec.encoding import cut
from uno_spec.loader import YamlMap
from uno_spec.paths import spec_root

if TYPE_CHECKING:
    import jsonschema_rs
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


class Schema:
    """A compiled JSON Schema (draft 2020-12): `is_valid` is fast; `explainer` is jsonschema's
    validator of the same schema, built on first use (to name what is wrong)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        import jsonschema_rs  # here: a corpus read from the cache validates nothing

        self.schema = schema
        self._fast = jsonschema_rs.Draft202012Validator(schema, offline=True)

    def _verdict(self, instance: Any) -> bool | None:
        """jsonschema-rs's verdict; None when it cannot read `instance`: a value JSON does
        not have (a YAML date, bytes, a set, a key that is not a string, such as a deck's
        `numbers: {0: 1}`), which jsonschema then judges."""
        try:
            return bool(self._fast.is_valid(instance))
        except ValueError:
            return None

    def is_valid(self, instance: Any) -> bool:
        verdict = self._verdict(instance)
        return bool(self.explainer.is_valid(instance)) if verdict is None else verdict

    @functools.cached_property
    def explainer(self) -> Draft202012Validator:
        from jsonschema import Draft202012Validator

        return Draft202012Validator(self.schema)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        """jsonschema's errors for `instance`; none (and no jsonschema import) when it is
        valid. The compiled validator's verdict stands when it has one: for the rare document
        that it rejects and jsonschema accepts (a string ending in a line break where a
        `pattern` ends in `$`: Python's `$` matches before a final newline, JSON Schema's
        ECMA 262 `$` does not), its own errors come out, in jsonschema's type."""
        verdict = self._verdict(instance)
        if verdict:
            return
        explained = False
        for error in self.explainer.iter_errors(instance):
            explained = True
            yield error
        if not explained and verdict is False:
            for e in self._fast.iter_errors(instance):
                yield _converted(e, instance, [], self.schema)


def _converted(e: jsonschema_rs.ValidationError, instance: Any, at: list[str | int],
               root: dict[str, Any], branch: int | None = None) -> ValidationError:
    """A jsonschema-rs error as jsonschema's (path relative to `at`; the oneOf/anyOf branches
    as its `context`, numbered like jsonschema's; `schema` the sub-schema of `root` whose
    keyword failed), so that callers explain both alike."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

    path: list[str | int] = []
    node = instance
    for part in e.instance_path:  # jsonschema-rs gives the key "0" as 0: the data decides
        key: str | int = str(part) if isinstance(node, dict) else part
        path.append(key)
        node = node.get(key) if isinstance(node, dict) else \
            node[key] if isinstance(node, list) and isinstance(key, int) else None
    context = []
    for i, sub in enumerate(getattr(e.kind, "context", None) or ()):
        context += [_converted(x, instance, path, root, i) for x in sub]
    schema: Any = root
    for part in e.schema_path[:-1]:  # a JSON pointer into `root`, through the $refs
        schema = schema.get(str(part), {}) if isinstance(schema, dict) else \
            schema[part] if isinstance(schema, list) and isinstance(part, int) \
            and part < len(schema) else {}
    schema_path = list(e.schema_path) if branch is None else [branch]
    return ValidationError(e.message, validator=e.kind.name, path=path[len(at):],
                           instance=node, schema=schema, schema_path=schema_path,
                           context=context, type_checker=Draft202012Validator.TYPE_CHECKER)


def compile_schema(schema: dict[str, Any]) -> Schema:
    """A compiled schema; the schema itself must be a valid draft 2020-12 schema
    (`jsonschema.exceptions.SchemaError` naming what is wrong otherwise)."""
    import jsonschema_rs

    if not jsonschema_rs.meta.is_valid(schema):
        from jsonschema import Draft202012Validator

        Draft202012Validator.check_schema(schema)  # raises SchemaError, which explains it
    return Schema(schema)


#: file kind -> schema file name in spec/schema/
SCHEMAS = {
    "sources": "source.schema.json",
    "rules": "rules.schema.json",
    "rulings": "rulings.schema.json",
    "rulesets": "ruleset.schema.json",
    "errors": "errors.schema.json",
    "features": "features.schema.json",
    "matches": "match.schema.json",
}


def schema_path(root: Path, kind: str) -> Path:
    """The schema for a file kind: the tree's own spec/schema/, else the bundled one."""
    own = root / "schema" / SCHEMAS[kind]
    return own if own.is_file() else spec_root() / "schema" / SCHEMAS[kind]


@functools.lru_cache(maxsize=32)
def validator(schema_path: Path) -> Schema:
    """The compiled schema of one schema file (the schema itself is checked first)."""
    return compile_schema(json.loads(schema_path.read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=8)
def _compiled(text: str) -> Schema:
    return compile_schema(json.loads(text))


def ruleset_validator(root: Path) -> Schema:
    """The compiled ruleset schema of a spec tree: its schema file with the parameter groups
    its variants declare (`uno_spec.parameters.ruleset_schema`)."""
    from uno_spec.parameters import ruleset_schema

    return _compiled(json.dumps(ruleset_schema(root)))


def _line(doc: Any, path: list[str | int]) -> int:
    """The line of the deepest mapping key along `path` in a YamlMap tree."""
    node, line = doc, doc.line if isinstance(doc, YamlMap) else 1
    for step in path:
        if isinstance(node, YamlMap) and isinstance(step, str) and step in node:
            line = node.line_of(step)
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
            if isinstance(node, YamlMap):
                line = node.line
        else:
            break
    return line


def _where(path: list[str | int]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _unknown_parameters(err: ValidationError) -> list[str]:
    """The keys of a ruleset's `params` (at any depth) that its schema does not declare."""
    if err.validator != "additionalProperties" or list(err.absolute_path)[:1] != ["params"] \
            or not isinstance(err.instance, dict):
        return []
    known = _declared(err)
    return sorted((k for k in err.instance if k not in known), key=str)


def _declared(err: ValidationError) -> list[str]:
    """The properties the failing (sub)schema declares."""
    schema = err.schema
    return list(schema.get("properties") or {}) if isinstance(schema, Mapping) else []


# A schema error's message quotes what it refuses: every unexpected key (100,000 unknown keys
# made one error line of about 1 MB), or the whole value of a wrong type. Bounded here, for
# every document the project validates (spec files, scenarios, knowledge files).
MAX_NAMED = 10  # unexpected keys named in one message; the rest are counted
MAX_KEY = 60  # characters of each key named
MAX_VALUE = 200  # characters of the value a message quotes (`[1, 1, ...] is too long`)
MAX_MESSAGE = 500  # characters of a message


def error_text(err: ValidationError) -> str:
    """jsonschema's message for `err`, bounded: at most MAX_NAMED unexpected keys named (each
    cut at MAX_KEY characters), the value it quotes cut at MAX_VALUE (what is said of it
    kept: `is too long`), the whole cut at MAX_MESSAGE."""
    extra = _unexpected(err)
    if len(extra) > MAX_NAMED or any(len(repr(k)) > MAX_KEY for k in extra):
        verb = "was" if len(extra) == 1 else "were"
        return cut(f"Additional properties are not allowed ({named(extra)} {verb} "
                   "unexpected)", MAX_MESSAGE)
    text = str(err.message)
    if len(text) > MAX_MESSAGE:
        quoted = repr(err.instance)
        if len(quoted) > MAX_VALUE and quoted in text:
            text = text.replace(quoted, cut(quoted, MAX_VALUE), 1)
    return cut(text, MAX_MESSAGE)


def named(keys: list[Any]) -> str:
    """`'a', 'b', 'c'`: at most MAX_NAMED keys, each cut at MAX_KEY characters, the rest
    counted (`... and 99,990 more`)."""
    out = ", ".join(cut(repr(k), MAX_KEY) for k in keys[:MAX_NAMED])
    return out + (f" and {len(keys) - MAX_NAMED:,} more" if len(keys) > MAX_NAMED else "")


def _unexpected(err: ValidationError) -> list[Any]:
    """The keys an `additionalProperties: false` refuses, sorted as jsonschema names them."""
    schema = err.schema
    if err.validator != "additionalProperties" or not isinstance(err.instance, Mapping) \
            or not isinstance(schema, Mapping):
        return []
    known = schema.get("properties") or {}
    patterns = [re.compile(p) for p in schema.get("patternProperties") or {}]
    return sorted((k for k in err.instance if k not in known
                   and not any(isinstance(k, str) and p.search(k) for p in patterns)), key=str)


def _message(err: ValidationError) -> str:
    extra = _unknown_parameters(err)
    if extra:
        known = _declared(err)
        hints = [h for k in extra[:MAX_NAMED]
                 for h in difflib.get_close_matches(str(k), known, 1, 0.8)]
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        return (f"unknown parameter(s) {named(extra)}: the engine reads none "
                f"such (known here: {', '.join(known)}){hint}")
    if err.validator == "additionalProperties":
        return error_text(err).replace("Additional properties are not allowed",
                                       "unknown field(s)")
    if err.validator == "pattern":
        return cut(f"{err.instance!r} does not match the expected form {err.validator_value}",
                   MAX_MESSAGE)
    return error_text(err)


def validate(doc: Any, schema_path: Path | Schema) -> Iterator[tuple[int, str]]:
    """(line, message) for each schema violation of `doc`, in document order (`schema_path`:
    a schema file, or a compiled schema)."""
    def at(err: ValidationError) -> int:  # an unknown parameter: the line of its own key
        return _line(doc, [*err.absolute_path, *_unknown_parameters(err)[:1]])

    schema = schema_path if isinstance(schema_path, Schema) else validator(schema_path)
    errors = sorted(schema.iter_errors(doc),
                    key=lambda e: (at(e), list(map(str, e.path))))
    for err in errors:
        where = _where(list(err.absolute_path))
        prefix = f"{where}: " if where else ""
        yield at(err), f"schema: {prefix}{_message(err)}"
