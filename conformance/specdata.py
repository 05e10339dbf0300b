"""The only door from `conformance` into the specification data (through `uno_spec`).

Reports quote clauses and rule statements; lint checks that scenarios cite things that exist.
Everything here is read lazily and cached; a missing spec file yields an empty registry rather
than an exception, so a report can always be written.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from uno_spec.paths import spec_root

BASE_RULESETS = ("classic-official", "classic-2022", "flip")


@dataclass(frozen=True)
class ClauseText:
    id: str
    text: str
    en: str


@dataclass(frozen=True)
class RuleText:
    id: str
    statement: str
    rulesets: tuple[str, ...]


def _load_yaml(path: Path) -> Any:
    from uno_spec.loader import load_yaml

    return load_yaml(path)


@functools.lru_cache(maxsize=1)
def clauses() -> dict[str, ClauseText]:
    """Every clause of spec/sources, by id."""
    from uno_spec.loader import load_sources

    out: dict[str, ClauseText] = {}
    for source in load_sources():
        for c in source.clauses:
            out[c.id] = ClauseText(c.id, c.text, c.en)
    return out


@functools.lru_cache(maxsize=1)
def rules() -> dict[str, RuleText]:
    """Every rule of spec/rules, by id."""
    from uno_spec.loader import load_rules

    return {r.id: RuleText(r.id, r.statement, tuple(r.rulesets)) for r in load_rules()}


@functools.lru_cache(maxsize=1)
def rule_cites() -> dict[str, tuple[str, ...]]:
    """Rule ID -> the clause IDs it cites (spec/rules)."""
    from uno_spec.loader import load_rules

    return {r.id: tuple(r.cites) for r in load_rules()}


def _registry(name: str, list_key: str, id_key: str) -> dict[str, str]:
    path = spec_root() / name
    if not path.is_file():
        return {}
    doc = _load_yaml(path)
    out: dict[str, str] = {}
    for item in (doc or {}).get(list_key) or []:
        if isinstance(item, dict) and id_key in item:
            out[str(item[id_key])] = str(item.get("description", ""))
    return out


@functools.lru_cache(maxsize=1)
def features() -> dict[str, str]:
    """Feature registry (spec/features.yaml): id -> description."""
    return _registry("features.yaml", "features", "id")


@functools.lru_cache(maxsize=1)
def error_codes() -> dict[str, str]:
    """Error-code registry (spec/errors.yaml): code -> description."""
    return _registry("errors.yaml", "errors", "code")


@functools.lru_cache(maxsize=1)
def rulesets() -> set[str]:
    """Ids of the rulesets (bases and variants) in spec/rulesets/."""
    folder = spec_root() / "rulesets"
    if not folder.is_dir():
        return set()
    return {p.stem for p in folder.iterdir() if p.suffix in (".yaml", ".yml")}


@functools.lru_cache(maxsize=1)
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files (spec/schema/scenario.schema.json)."""
    with open(spec_root() / "schema" / "scenario.schema.json", encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


def quote_clauses(ids: list[str]) -> list[dict[str, str]]:
    """Clause quotes for a report: id, original text, English (missing ones say so)."""
    try:
        known = clauses()
    except Exception:  # a broken spec must not stop a report
        known = {}
    out = []
    for cid in ids:
        c = known.get(cid)
        out.append({"id": cid, "text": c.text if c else "(clause not found in spec/sources)",
                    "en": c.en if c else ""})
    return out


def quote_rules(ids: list[str]) -> list[dict[str, str]]:
    """Rule statements for a report (missing ones say so)."""
    try:
        known = rules()
    except Exception:
        known = {}
    out = []
    for rid in ids:
        r = known.get(rid)
        out.append({"id": rid,
                    "statement": r.statement if r else "(rule not found in spec/rules)"})
    return out


def clear_caches() -> None:
    for fn in (clauses, rules, rule_cites, features, error_codes, rulesets, scenario_schema):
        fn.cache_clear()
    try:
        from uno_spec.loader import clear_caches as spec_clear

        spec_clear()
    except ImportError:  # pragma: no cover
        pass
