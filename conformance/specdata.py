"""The only door from `conformance` into the specification data (through `uno_spec`).

Reports quote clauses and rule statements; lint checks that scenarios cite things that exist.
Everything here is read lazily and cached; a missing spec file yields an empty registry rather
than an exception, so a report can always be written.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from uno_spec import notation
from uno_spec.paths import spec_root


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
    area: str = ""


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

    return {r.id: RuleText(r.id, r.statement, tuple(r.rulesets), r.area) for r in load_rules()}


@functools.lru_cache(maxsize=1)
def spec_index() -> Any:
    """The whole specification by id (uno_spec.lookup.Index: sources, clauses, rules,
    rulings), for the rulebook pages of the site."""
    from uno_spec.lookup import Index

    return Index.load()


@functools.lru_cache(maxsize=1)
def rule_areas() -> dict[str, str]:
    """The rule areas (one per file of spec/rules, in file order): area id -> title."""
    from uno_spec.loader import yaml_files

    out: dict[str, str] = {}
    for path in yaml_files(spec_root(), "rules"):
        doc = _load_yaml(path)
        if isinstance(doc, dict):
            out[str(doc.get("area") or path.stem)] = str(doc.get("title", ""))
    return out


@functools.lru_cache(maxsize=1)
def source_languages() -> dict[str, str]:
    """Language tag (BCP 47, e.g. pt-BR) of each source of spec/sources, by source id (the
    first part of a clause id)."""
    from uno_spec.loader import load_sources

    return {s.id: s.language for s in load_sources()}


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
    """Feature registry: id -> description; spec/features.yaml's, then each variant's own
    (the `feature` of spec/rulesets/<variant>.yaml)."""
    from uno_spec.rulesets import variant_features

    out = _registry("features.yaml", "features", "id")
    for feature in sorted(variant_features().values(), key=lambda v: v.feature):
        out.setdefault(feature.feature, feature.description)
    return out


@functools.lru_cache(maxsize=1)
def variant_features() -> dict[str, Any]:
    """Variant id -> its feature (`VariantFeature`: id, description, the set-up fields and
    observations that need it), for the variants that declare one."""
    from uno_spec.rulesets import variant_features

    return variant_features()


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


@functools.lru_cache(maxsize=64)
def ruleset_params(name: str) -> Any:
    """The parameters of a (composed) ruleset, `base+variant+...`; SpecError if unknown."""
    from uno_spec.rulesets import load_ruleset

    return load_ruleset(name).params


@functools.lru_cache(maxsize=1)
def ruleset_info() -> dict[str, dict[str, Any]]:
    """Each ruleset of spec/rulesets/ as written: kind, title, description, applies_to and
    conflicts (both ways), by id."""
    folder = spec_root() / "rulesets"
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.y*ml")) if folder.is_dir() else []:
        doc = _load_yaml(path) or {}
        rid = str(doc.get("id") or path.stem)
        out[rid] = {"id": rid, "kind": str(doc.get("kind") or ""),
                    "title": str(doc.get("title") or ""),
                    "description": " ".join(str(doc.get("description") or "").split()),
                    "applies_to": [str(b) for b in doc.get("applies_to") or []],
                    "conflicts": [str(v) for v in doc.get("conflicts") or []]}
    for rid, info in out.items():  # a conflict goes both ways (uno_spec.rulesets)
        info["conflicts"] = sorted({*info["conflicts"],
                                    *(o for o, other in out.items() if rid in other["conflicts"])})
    return dict(sorted(out.items()))


@functools.lru_cache(maxsize=1)
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files (spec/schema/scenario.schema.json)."""
    with open(spec_root() / "schema" / "scenario.schema.json", encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


# The card notation of docs/contracts.md ("Card notation", uno_spec.notation): colour names to
# the letters a card is written with (the kinds' letters, the variants' cards included:
# `notation.rank_letters()`).
COLOR_LETTERS = {name: letter for letter, name in notation.COLOR_NAMES.items()}


@dataclass(frozen=True)
class Deck:
    """A composed ruleset's deck, as the faces it prints and how many of each (card notation).

    Classic: `light` holds every card, `dark` is None. Flip: `light` and `dark` hold the faces
    of each side (a card is `light/dark`). `players` is (min, max, even only).
    """

    ruleset: str
    game: str
    name: str
    light: Mapping[str, int]
    dark: Mapping[str, int] | None
    players: tuple[int, int, bool]


def _faces(side: Mapping[str, Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    ranks = notation.rank_letters()
    for color in side.get("colors") or ():
        letter = COLOR_LETTERS.get(str(color), str(color))
        for number, copies in (side.get("numbers") or {}).items():
            out[f"{letter}{number}"] += int(copies)
        for kind, copies in (side.get("actions") or {}).items():
            out[letter + ranks.get(str(kind), str(kind))] += int(copies)
    for kind, copies in (side.get("wilds") or {}).items():
        out[ranks.get(str(kind), str(kind))] += int(copies)
    return +out  # kinds with 0 copies are not in the deck


@functools.lru_cache(maxsize=64)
def deck(ruleset: str) -> Deck:
    """The deck of a ruleset name (`base+variant...`), read from spec/rulesets through uno_spec.

    Raises uno_spec.loader.SpecError for an unknown ruleset or variant, or a composition the
    rulesets forbid (a variant that does not apply to the base, conflicting variants).
    """
    from uno_spec.rulesets import load_ruleset

    params = load_ruleset(ruleset).params
    spec = params.get("deck") or {}
    game = str(params.get("game", "classic"))
    players = params.get("players") or {}
    bounds = (int(players.get("min", 2)), int(players.get("max", 10)), bool(players.get("even")))
    if game == "flip":
        return Deck(ruleset, game, str(spec.get("name", "")), _faces(spec.get("light") or {}),
                    _faces(spec.get("dark") or {}), bounds)
    return Deck(ruleset, game, str(spec.get("name", "")), _faces(spec), None, bounds)


@dataclass(frozen=True)
class MatchInfo:
    """What the scenario loader needs of a match format (spec/matches/<id>.yaml)."""

    id: str
    ruleset: str
    players: int


def match_format(name: str) -> MatchInfo:
    """The match format `name`, read through uno_spec.matches (cached there); SpecError naming
    the known ones when there is none."""
    from uno_spec.matches import load_match

    fmt = load_match(name)
    return MatchInfo(fmt.id, fmt.ruleset, fmt.players)


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


def rule_link(rule_id: str) -> str | None:
    """The rule's place in the rulebook site (`uno-fsm conformance site`, uno_spec.sitelinks:
    the base is --site-url, $UNO_FSM_SITE_URL or ./site/); None for a rule spec/ lacks."""
    from uno_spec.sitelinks import rule_url

    return rule_url(rule_id)


def clause_link(clause_id: str) -> str | None:
    """The clause's place in the rulebook site; None for a clause spec/ lacks."""
    from uno_spec.sitelinks import clause_url

    return clause_url(clause_id)


def clear_caches() -> None:
    for fn in (clauses, rules, rule_cites, rule_areas, spec_index, source_languages, features,
               error_codes, rulesets, ruleset_params, ruleset_info, scenario_schema, deck):
        fn.cache_clear()
    try:
        from uno_spec.loader import clear_caches as spec_clear
        from uno_spec.matches import clear_caches as matches_clear
        from uno_spec.rulesets import clear_caches as rulesets_clear

        spec_clear()
        rulesets_clear()
        matches_clear()
    except ImportError:  # pragma: no cover
        pass
