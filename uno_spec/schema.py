"""JSON Schemas (draft 2020-12) of the spec file kinds, and validation that reports lines."""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from uno_spec.loader import YamlMap
from uno_spec.paths import spec_root

#: file kind -> schema file name in spec/schema/
SCHEMAS = {
    "sources": "source.schema.json",
    "rules": "rules.schema.json",
    "rulings": "rulings.schema.json",
    "rulesets": "ruleset.schema.json",
    "errors": "errors.schema.json",
    "features": "features.schema.json",
}


def schema_path(root: Path, kind: str) -> Path:
    """The schema for a file kind: the tree's own spec/schema/, else the bundled one."""
    own = root / "schema" / SCHEMAS[kind]
    return own if own.is_file() else spec_root() / "schema" / SCHEMAS[kind]


@functools.lru_cache(maxsize=32)
def validator(schema_path: Path) -> Draft202012Validator:
    """A validator for one schema file (the schema itself is checked first)."""
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


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


def _message(err: ValidationError) -> str:
    extra = _unknown_parameters(err)
    if extra:
        known = _declared(err)
        hints = [h for k in extra for h in difflib.get_close_matches(str(k), known, 1, 0.8)]
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        return (f"unknown parameter(s) {', '.join(map(repr, extra))}: the engine reads none "
                f"such (known here: {', '.join(known)}){hint}")
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown field(s)")
    if err.validator == "pattern":
        return f"{err.instance!r} does not match the expected form {err.validator_value}"
    return err.message


def validate(doc: Any, schema_path: Path) -> Iterator[tuple[int, str]]:
    """(line, message) for each schema violation of `doc`, in document order."""
    def at(err: ValidationError) -> int:  # an unknown parameter: the line of its own key
        return _line(doc, [*err.absolute_path, *_unknown_parameters(err)[:1]])

    errors = sorted(validator(schema_path).iter_errors(doc),
                    key=lambda e: (at(e), list(map(str, e.path))))
    for err in errors:
        where = _where(list(err.absolute_path))
        prefix = f"{where}: " if where else ""
        yield at(err), f"schema: {prefix}{_message(err)}"
