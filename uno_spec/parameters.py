"""The ruleset parameters: every one the ruleset schema declares (`$defs.params` of
spec/schema/ruleset.schema.json, with the `parameters` each variant's own ruleset file
declares merged in: `ruleset_schema`), with its type, allowed values, default and rule IDs.

A variant's parameters live in its own file (spec/rulesets/<variant>.yaml, `parameters`: one
JSON Schema node per parameter group it adds), so that adding a variant does not edit the
shared schema; a group may be declared once (the base schema's, or one variant's).

The schema is the one list of the parameters the engine reads: `spec lint` rejects a ruleset
naming any other (`additionalProperties: false` at every level) and a ruling whose `params`
names one that is not declared; tests/test_params.py checks that the engine reads every
declared parameter and nothing else; `uno-fsm spec docs` writes docs/rules/parameters.md from it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_spec.paths import spec_root

SCHEMA = "ruleset.schema.json"


@dataclass(frozen=True)
class Parameter:
    """One declared parameter: a group (`uno`) or a leaf (`uno.penalty`)."""

    path: str
    node: Mapping[str, Any] = field(hash=False, compare=False)
    leaf: bool = True

    @property
    def description(self) -> str:
        return str(self.node.get("description", ""))

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(self.node.get("x-rules", ()))

    @property
    def label(self) -> bool:
        """A label for messages (`deck.name`), not a rule: nothing reads it to play."""
        return bool(self.node.get("x-label"))

    @property
    def has_default(self) -> bool:
        return "default" in self.node

    @property
    def default(self) -> Any:
        return self.node.get("default")

    @property
    def values(self) -> str:
        """The allowed values, in words (`2..`, `red | blue`, `true | false`)."""
        return _values(self.node)


def _lit(value: Any) -> str:
    return f"`{value if isinstance(value, str) else json.dumps(value)}`"


def _values(node: Mapping[str, Any]) -> str:
    if "enum" in node:
        return " \\| ".join(map(_lit, node["enum"]))
    if "const" in node:
        return _lit(node["const"])
    if "oneOf" in node:
        return " or ".join(_values(n) for n in node["oneOf"])
    kind = node.get("type")
    if kind == "boolean":
        return "`true` \\| `false`"
    if kind == "array":
        return f"list of {_values(node.get('items', {}))}"
    if kind == "object":  # a map with its own keys (copies per number)
        keys = node.get("propertyNames", {}).get("enum", [])
        return (f"map {{{', '.join(map(str, keys))}}} -> "
                f"{_values(node.get('additionalProperties') or {})}")
    kinds = kind if isinstance(kind, list) else [kind]
    words = []
    for k in kinds:
        if k == "integer":
            low = node.get("minimum")
            words.append(f"integer >= {low}" if low is not None else "integer")
        elif k == "null":
            words.append("`null`")
        elif k is not None:
            words.append(str(k))
    return " or ".join(words) or "any"


def _resolve(schema: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    target: Any = schema
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return _resolve(schema, target)


def _walk(schema: Mapping[str, Any], node: Mapping[str, Any], prefix: str) -> Iterator[Parameter]:
    for key, sub in (node.get("properties") or {}).items():
        sub = _resolve(schema, sub)
        path = f"{prefix}.{key}" if prefix else str(key)
        group = isinstance(sub.get("properties"), Mapping)
        yield Parameter(path, sub, leaf=not group)
        if group:
            yield from _walk(schema, sub, path)


def schema_file(root: Path | None = None) -> Path:
    """The ruleset schema of a spec tree (its own, else the bundled one)."""
    own = (root if root is not None else spec_root()) / "schema" / SCHEMA
    return own if own.is_file() else spec_root() / "schema" / SCHEMA


def variant_parameters(root: Path | None = None) -> dict[str, tuple[str, Any]]:
    """The parameter groups the variants of a spec tree declare: group -> (variant id, its
    JSON Schema node), from each file's `parameters` (files that do not parse, or that declare
    none, are skipped: `spec lint` reports them)."""
    from uno_spec.loader import SpecError, load_yaml, yaml_files

    out: dict[str, tuple[str, Any]] = {}
    for path in yaml_files(root if root is not None else spec_root(), "rulesets"):
        try:
            doc = load_yaml(path)
        except SpecError:
            continue
        if not isinstance(doc, Mapping) or not isinstance(doc.get("parameters"), Mapping):
            continue
        for group, node in doc["parameters"].items():
            out.setdefault(str(group), (str(doc.get("id") or path.stem), node))
    return out


def ruleset_schema(root: Path | None = None) -> dict[str, Any]:
    """The ruleset schema of a spec tree (`schema_file`), with the parameter groups its
    variants declare added to `$defs.params` (a group the schema already has is left as the
    schema says: `spec lint` reports the clash)."""
    schema = json.loads(schema_file(root).read_text(encoding="utf-8"))
    props = param_groups(schema)
    for group, (_, node) in variant_parameters(root).items():
        props.setdefault(group, _plain(node))
    return schema


def param_groups(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The `properties` of a ruleset schema's `params` (a tree's own schema may have none)."""
    node = _resolve(schema, (schema.get("properties") or {}).get("params") or {})
    props = node.get("properties")
    return props if isinstance(props, dict) else {}


def _plain(node: Any) -> Any:
    """A YAML node as plain JSON data (mappings with string keys, lists)."""
    if isinstance(node, Mapping):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_plain(v) for v in node]
    return node


@functools.lru_cache(maxsize=8)
def _parameters(text: str) -> Mapping[str, Parameter]:
    schema = json.loads(text)
    params = _resolve(schema, schema["properties"]["params"])
    return {p.path: p for p in _walk(schema, params, "")}


def parameters(root: Path | None = None) -> Mapping[str, Parameter]:
    """Every declared parameter by dotted path (groups and leaves), in schema order."""
    return _parameters(json.dumps(ruleset_schema(root)))


def leaves(params: Mapping[str, Any], declared: Mapping[str, Parameter] | None = None,
           prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every value a ruleset's `params` sets: a mapping under a
    declared group is walked, anything else (a map of copies per number too) is one value."""
    known = parameters() if declared is None else declared
    for key, value in params.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        group = known.get(path)
        if isinstance(value, Mapping) and group is not None and not group.leaf:
            yield from leaves(value, known, path)
        else:
            yield path, value
