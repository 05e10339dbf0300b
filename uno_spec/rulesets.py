"""Rulesets: a base (`classic-official`) composed with variants (`base+variant+...`).

spec/rulesets/<id>.yaml holds either a base (`kind: base`) or a variant (`kind: variant`, with
`applies_to: [bases]`, `conflicts: [variant ids]`). `load_ruleset("base+v1+v2")` deep-merges
each variant's `params` over the base's, in order, into a read-only nested mapping.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from uno_spec.loader import SpecError, YamlMap, display_path, load_yaml, yaml_files
from uno_spec.paths import spec_root


@dataclass(frozen=True)
class RulesetFile:
    """One spec/rulesets/<id>.yaml file, as written."""

    id: str
    kind: str  # base | variant
    title: str
    applies_to: tuple[str, ...]
    conflicts: tuple[str, ...]
    rulings: tuple[str, ...]
    params: Mapping[str, Any] = field(hash=False)
    file: str = ""
    line: int = 1
    # a variant's feature (the feature registry: spec/features.yaml and these), or None
    feature: VariantFeature | None = None
    # the card kinds a variant adds to the notation, as written (`cards`: kind -> letter,
    # name, wild, first_card; read by uno_spec.notation.declared)
    cards: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class VariantFeature:
    """A variant's feature (`feature` of its ruleset file): needed by every scenario of a
    ruleset including the variant, and by any naming one of its set-up fields or expecting
    one of its observations."""

    feature: str
    description: str
    setup: frozenset[str] = frozenset()
    observations: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Ruleset:
    """A composed ruleset: `id` is the composed name, `params` a read-only nested mapping."""

    id: str
    base: str
    variants: tuple[str, ...]
    params: Mapping[str, Any] = field(hash=False)
    rulings: tuple[str, ...] = ()


def freeze(value: Any) -> Any:
    """A read-only deep copy: mappings become MappingProxyType, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def deep_merge(base: Mapping[Any, Any], over: Mapping[Any, Any]) -> dict[Any, Any]:
    """`over` merged into `base`: nested mappings merge, anything else replaces."""
    out: dict[Any, Any] = {k: _thaw(v) for k, v in base.items()}
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = _thaw(value)
    return out


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


@functools.lru_cache(maxsize=8)
def _ruleset_files(root: Path) -> Mapping[str, RulesetFile]:
    out: dict[str, RulesetFile] = {}
    for path in yaml_files(root, "rulesets"):
        doc = load_yaml(path)
        shown = display_path(path)
        if not isinstance(doc, YamlMap):
            raise SpecError(shown, 1, "expected a mapping at the top level")
        rid = str(doc.get("id") or path.stem)
        kind = str(doc.get("kind") or "")
        if kind not in ("base", "variant"):
            raise SpecError(shown, doc.line_of("kind"),
                            f"ruleset {rid!r}: kind must be 'base' or 'variant', got {kind!r}")
        if rid in out:
            raise SpecError(shown, doc.line_of("id"),
                            f"duplicate ruleset id {rid!r} (also in {out[rid].file})")
        params = doc.get("params") or {}
        if not isinstance(params, Mapping):
            raise SpecError(shown, doc.line_of("params"),
                            f"ruleset {rid!r}: params must be a mapping")
        feature = doc.get("feature")
        cards = doc.get("cards") or {}
        if not isinstance(cards, Mapping):
            raise SpecError(shown, doc.line_of("cards"),
                            f"ruleset {rid!r}: cards must be a mapping of card kinds")
        out[rid] = RulesetFile(
            id=rid, kind=kind, title=str(doc.get("title") or ""),
            applies_to=_strs(doc.get("applies_to")), conflicts=_strs(doc.get("conflicts")),
            rulings=_strs(doc.get("rulings")), params=freeze(params), file=shown, line=doc.line,
            feature=VariantFeature(str(feature.get("id")), str(feature.get("description", "")),
                                   frozenset(_strs(feature.get("setup"))),
                                   frozenset(_strs(feature.get("observations"))))
            if isinstance(feature, Mapping) and feature.get("id") else None,
            cards=freeze(cards),
        )
    return MappingProxyType(out)


def ruleset_files(root: Path | None = None) -> Mapping[str, RulesetFile]:
    """Every ruleset file by id (raises SpecError on a malformed file)."""
    return _ruleset_files((root if root is not None else spec_root()).resolve())


def variant_features(root: Path | None = None) -> dict[str, VariantFeature]:
    """Variant id -> its feature, for the variants that declare one (the feature every
    scenario of a ruleset including the variant needs)."""
    return {r.id: r.feature for r in ruleset_files(root).values() if r.feature is not None}


def list_rulesets(kind: str | None = None, root: Path | None = None) -> list[str]:
    """Ids of the rulesets on disk (bases and variants, or only `kind`), sorted."""
    return sorted(r.id for r in ruleset_files(root).values() if kind is None or r.kind == kind)


def load_ruleset(name: str, root: Path | None = None) -> Ruleset:
    """Compose `base` or `base+variant+...` into a Ruleset; SpecError if it cannot be done."""
    return _load_ruleset(name, (root if root is not None else spec_root()).resolve())


@functools.lru_cache(maxsize=64)
def _load_ruleset(name: str, root: Path) -> Ruleset:
    files = _ruleset_files(root)
    parts = [p.strip() for p in name.split("+")]
    where = str(root / "rulesets")
    if not name or any(not p for p in parts):
        raise SpecError(where, 0, f"malformed ruleset name {name!r} (expected base+variant+...)")
    base_id, variant_ids = parts[0], parts[1:]
    base = files.get(base_id)
    if base is None:
        raise SpecError(where, 0, _unknown("ruleset", base_id, list_rulesets("base", root)))
    if base.kind != "base":
        raise SpecError(base.file, base.line,
                        f"{base_id!r} is a variant; a ruleset name starts with a base "
                        f"({', '.join(list_rulesets('base', root))})")
    params = dict(base.params)
    rulings = list(base.rulings)
    seen: list[str] = []
    for vid in variant_ids:
        variant = files.get(vid)
        if variant is None:
            raise SpecError(where, 0, _unknown("variant", vid, list_rulesets("variant", root)))
        if variant.kind != "variant":
            raise SpecError(variant.file, variant.line,
                            f"{vid!r} is a base ruleset, not a variant; it cannot follow '+'")
        if vid in seen:
            raise SpecError(where, 0, f"variant {vid!r} is named twice in {name!r}")
        if base_id not in variant.applies_to:
            raise SpecError(variant.file, variant.line,
                            f"variant {vid!r} does not apply to {base_id!r} "
                            f"(applies to: {', '.join(variant.applies_to) or 'nothing'})")
        for other in seen:
            if other in variant.conflicts or vid in files[other].conflicts:
                raise SpecError(variant.file, variant.line,
                                f"variants {other!r} and {vid!r} conflict; they cannot be combined")
        seen.append(vid)
        params = deep_merge(params, variant.params)
        rulings.extend(r for r in variant.rulings if r not in rulings)
    return Ruleset(id=name, base=base_id, variants=tuple(seen), params=freeze(params),
                   rulings=tuple(rulings))


def _unknown(what: str, name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"unknown {what} {name!r}{hint} (known: {', '.join(known) or 'none'})"


def clear_caches() -> None:
    _ruleset_files.cache_clear()
    _load_ruleset.cache_clear()
