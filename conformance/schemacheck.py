"""A fast yes/no JSON-Schema check, compiled from the schema itself, in front of jsonschema.

Loading the corpus validates 600 scenarios; `jsonschema` spends about 1.5 ms on each (a new
validator object per keyword and sub-instance), more than parsing the YAML. `compile_schema`
turns a schema into nested closures that answer only *valid or not* for the keywords that the
scenario schema uses (Draft 2020-12 semantics). It is not a second copy of the format: it reads
the same schema file, and an invalid answer is never reported as is; the caller then runs
`jsonschema`, whose error (path, message, line) is what the user sees. A schema with a keyword
this module does not know (or a `$ref`) raises `UnsupportedSchema`, and the caller uses
`jsonschema` alone. tests/test_conformance_scenario.py checks that both agree on the corpus and
on many mutations of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_IGNORED = frozenset(("$schema", "$id", "$comment", "title", "description", "default",
                      "examples", "deprecated", "readOnly", "writeOnly", "format"))


class UnsupportedSchema(ValueError):
    """The schema uses something `compile_schema` does not implement."""


def _is_int(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or \
        (isinstance(x, float) and x.is_integer())


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_int,
    "number": _is_num,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values (`true` is not `1`, `1` is `1.0`)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if _is_num(a) and _is_num(b):
        return bool(a == b)
    if type(a) is not type(b):
        return False
    return bool(a == b)


def compile_schema(schema: Any) -> Check:
    """A function telling whether an instance is valid against `schema` (no $ref allowed)."""
    if schema is True:
        return _always
    if schema is False:
        return _never
    if not isinstance(schema, dict):
        raise UnsupportedSchema(f"not a schema: {schema!r}")
    checks: list[Check] = []
    for key, value in schema.items():
        if key in _IGNORED or key in ("then", "else", "$defs"):
            continue
        build = _KEYWORDS.get(key)
        if build is None:
            raise UnsupportedSchema(f"keyword {key!r}")
        check = build(value, schema)
        if check is not None:
            checks.append(check)
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(c(x) for c in checks)


def _always(_x: Any) -> bool:
    return True


def _never(_x: Any) -> bool:
    return False


def _type(value: Any, _s: dict[str, Any]) -> Check:
    names = [value] if isinstance(value, str) else list(value)
    if any(n not in _TYPES for n in names):
        raise UnsupportedSchema(f"type {value!r}")
    fns = [_TYPES[n] for n in names]
    return fns[0] if len(fns) == 1 else (lambda x: any(f(x) for f in fns))


def _enum(value: Any, _s: dict[str, Any]) -> Check:
    options = list(value)
    return lambda x: any(json_equal(x, o) for o in options)


def _const(value: Any, _s: dict[str, Any]) -> Check:
    return lambda x: json_equal(x, value)


def _pattern(value: Any, _s: dict[str, Any]) -> Check:
    rx = re.compile(value)
    return lambda x: not isinstance(x, str) or rx.search(x) is not None


def _bound(kind: type | tuple[type, ...], size: Callable[[Any], Any], low: bool) -> Any:
    def build(value: Any, _s: dict[str, Any]) -> Check:
        def check(x: Any) -> bool:
            if not isinstance(x, kind) or isinstance(x, bool):
                return True
            n = size(x)
            return bool(n >= value if low else n <= value)
        return check
    return build


def _identity(x: Any) -> Any:
    return x


def _unique(value: Any, _s: dict[str, Any]) -> Check | None:
    if not value:
        return None
    return lambda x: not isinstance(x, list) or all(
        not json_equal(x[i], x[j]) for i in range(len(x)) for j in range(i + 1, len(x)))


def _items(value: Any, schema: dict[str, Any]) -> Check:
    if "prefixItems" in schema:
        raise UnsupportedSchema("prefixItems")
    item = compile_schema(value)
    return lambda x: not isinstance(x, list) or all(item(v) for v in x)


def _properties(value: Any, _s: dict[str, Any]) -> Check:
    props = {k: compile_schema(v) for k, v in value.items()}
    return lambda x: not isinstance(x, dict) or all(
        props[k](v) for k, v in x.items() if k in props)


def _additional(value: Any, schema: dict[str, Any]) -> Check:
    if "patternProperties" in schema:
        raise UnsupportedSchema("patternProperties")
    known = frozenset(schema.get("properties", {}))
    extra = compile_schema(value)
    return lambda x: not isinstance(x, dict) or all(
        extra(v) for k, v in x.items() if k not in known)


def _required(value: Any, _s: dict[str, Any]) -> Check:
    need = list(value)
    return lambda x: not isinstance(x, dict) or all(k in x for k in need)


def _dependent_required(value: Any, _s: dict[str, Any]) -> Check:
    deps = {k: list(v) for k, v in value.items()}
    return lambda x: not isinstance(x, dict) or all(
        d in x for k, ds in deps.items() if k in x for d in ds)


def _property_names(value: Any, _s: dict[str, Any]) -> Check:
    name = compile_schema(value)
    return lambda x: not isinstance(x, dict) or all(name(k) for k in x)


def _all_of(value: Any, _s: dict[str, Any]) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: all(s(x) for s in subs)


def _any_of(value: Any, _s: dict[str, Any]) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: any(s(x) for s in subs)


def _one_of(value: Any, _s: dict[str, Any]) -> Check:
    subs = [compile_schema(v) for v in value]
    return lambda x: sum(1 for s in subs if s(x)) == 1


def _not(value: Any, _s: dict[str, Any]) -> Check:
    sub = compile_schema(value)
    return lambda x: not sub(x)


def _if(value: Any, schema: dict[str, Any]) -> Check:
    cond = compile_schema(value)
    then = compile_schema(schema.get("then", True))
    other = compile_schema(schema.get("else", True))
    return lambda x: then(x) if cond(x) else other(x)


_KEYWORDS: dict[str, Callable[[Any, dict[str, Any]], Check | None]] = {
    "type": _type, "enum": _enum, "const": _const, "pattern": _pattern,
    "minLength": _bound(str, len, True), "maxLength": _bound(str, len, False),
    "minimum": _bound((int, float), _identity, True),
    "maximum": _bound((int, float), _identity, False),
    "minItems": _bound(list, len, True), "maxItems": _bound(list, len, False),
    "minProperties": _bound(dict, len, True), "maxProperties": _bound(dict, len, False),
    "uniqueItems": _unique, "items": _items, "properties": _properties,
    "additionalProperties": _additional, "required": _required,
    "dependentRequired": _dependent_required, "propertyNames": _property_names,
    "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "not": _not, "if": _if,
}
