"""`uno-fsm spec lint`: every check of spec/ that does not need the engine.

Schemas; unique IDs; every cited clause, rule, ruling and ruleset exists; every normative clause
is cited or says why not; each seed is partitioned by its source's clauses; no orphan rulings;
ruling decisions name real rulesets (or match formats) and options; a match format names the
ruleset its hands are dealt under (uno_spec.matches.ruleset_problem) and four players a table.
Problems come back as `Problem(file, line, message)`; nothing raises.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uno_spec.files import InputError, read_text
from uno_spec.loader import SpecError, YamlMap, display_path, load_yaml, yaml_files
from uno_spec.matches import check_match, ruleset_problem
from uno_spec.parameters import param_groups, parameters, schema_file, variant_parameters
from uno_spec.schema import Schema, ruleset_validator, schema_path, validate


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class _Entry:
    """An item with an id: where it is and what it holds."""

    file: str
    line: int
    data: YamlMap
    owner: str = ""  # source id for clauses, area for rules, kind for rulesets


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        parts = ", ".join(f"{n} {what}" for what, n in self.counts.items())
        return f"spec lint OK: {parts}"


_KINDS = {"clause": "sources", "rule": "rules", "ruling": "rulings", "ruleset": "rulesets",
          "match": "matches"}


def _hint(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _norm(text: str) -> str:
    return " ".join(text.split())


def _strs(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


class _Linter:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.clauses: dict[str, _Entry] = {}
        self.rules: dict[str, _Entry] = {}
        self.rulings: dict[str, _Entry] = {}
        self.rulesets: dict[str, _Entry] = {}
        self.matches: dict[str, _Entry] = {}
        self.sources: list[_Entry] = []
        self.counts: dict[str, int] = {}
        self.broken: set[str] = set()  # file kinds with a file that did not parse

    def add(self, file: str, line: int, message: str) -> None:
        self.problems.append(Problem(file, line, message))

    # -- loading ------------------------------------------------------------------------------

    def _docs(self, kind: str, paths: list[Path]) -> list[tuple[str, YamlMap]]:
        """Parse and schema-check each file; the mappings that parsed come back."""
        out: list[tuple[str, YamlMap]] = []
        schema = schema_path(self.root, kind)
        # rulesets: with the parameter groups the variants declare (`parameters`)
        compiled: Path | Schema = schema
        if kind == "rulesets" and schema.is_file():
            compiled = ruleset_validator(self.root)
        for path in paths:
            shown = display_path(path)
            try:
                doc = load_yaml(path)
            except SpecError as err:
                self.add(err.file, err.line, err.message)
                self.broken.add(kind)
                continue
            if not isinstance(doc, YamlMap):
                self.add(shown, 1, "expected a mapping at the top level")
                self.broken.add(kind)
                continue
            if schema.is_file():
                for line, message in validate(doc, compiled):
                    self.add(shown, line, message)
            else:
                self.add(display_path(schema), 0, "schema file missing")
            out.append((shown, doc))
        return out

    def _register(self, table: dict[str, _Entry], what: str, file: str, item: Any,
                  owner: str = "") -> str | None:
        if not isinstance(item, YamlMap) or not isinstance(item.get("id"), str):
            return None
        ident: str = item["id"]
        if ident in table:
            first = table[ident]
            self.add(file, item.line_of("id"),
                     f"duplicate {what} id {ident!r} (first at {first.file}:{first.line})")
            return None
        table[ident] = _Entry(file, item.line_of("id"), item, owner)
        return ident

    def load(self) -> None:
        for file, doc in self._docs("sources", yaml_files(self.root, "sources")):
            sid = str(doc.get("source", ""))
            self.sources.append(_Entry(file, doc.line, doc, sid))
            for item in doc.get("clauses") or []:
                cid = self._register(self.clauses, "clause", file, item, sid)
                if cid is None:
                    continue
                parts = cid.split(":")
                if len(parts) == 3 and parts[0] != sid:
                    self.add(file, item.line_of("id"),
                             f"clause {cid!r} is in source {sid!r} but its id names {parts[0]!r}")
                if len(parts) == 3 and parts[1] != item.get("section"):
                    self.add(file, item.line_of("id"), f"clause {cid!r} has section "
                             f"{item.get('section')!r} but its id names {parts[1]!r}")
                for key in ("en", "kind"):
                    if item.get(key) == "TODO":
                        self.add(file, item.line_of(key), f"clause {cid!r}: {key} is still TODO")
        for file, doc in self._docs("rules", yaml_files(self.root, "rules")):
            area = str(doc.get("area", ""))
            stem = Path(file).stem
            if area and area != stem:
                self.add(file, doc.line_of("area"),
                         f"area {area!r} differs from file name {stem!r}")
            for item in doc.get("rules") or []:
                self._register(self.rules, "rule", file, item, area)
        for file, doc in self._docs("rulings", yaml_files(self.root, "rulings")):
            for item in doc.get("rulings") or []:
                self._register(self.rulings, "ruling", file, item)
        for file, doc in self._docs("rulesets", yaml_files(self.root, "rulesets")):
            rid = self._register(self.rulesets, "ruleset", file, doc, str(doc.get("kind", "")))
            if rid is not None and rid != Path(file).stem:
                self.add(file, doc.line_of("id"),
                         f"ruleset id {rid!r} differs from file name {Path(file).stem!r}")
        for file, doc in self._docs("matches", yaml_files(self.root, "matches")):
            mid = self._register(self.matches, "match", file, doc)
            if mid is not None and mid != Path(file).stem:
                self.add(file, doc.line_of("id"),
                         f"match id {mid!r} differs from file name {Path(file).stem!r}")
            for line, message in check_match(doc):
                self.add(file, line, message)
        self.registries()

    def registries(self) -> None:
        for kind, key, idkey in (("errors", "errors", "code"), ("features", "features", "id")):
            path = self.root / f"{kind}.yaml"
            if not path.is_file():
                continue
            seen: dict[str, int] = {}
            for file, doc in self._docs(kind, [path]):
                for item in doc.get(key) or []:
                    if not isinstance(item, YamlMap):
                        continue
                    ident = str(item.get(idkey))
                    if ident in seen:
                        self.add(file, item.line_of(idkey), f"duplicate {kind[:-1]} {idkey} "
                                 f"{ident!r} (first at line {seen[ident]})")
                    seen.setdefault(ident, item.line_of(idkey))
                    rule = item.get("rule")
                    if isinstance(rule, str) and self.rules_loaded and rule not in self.rules:
                        self.add(file, item.line_of("rule"),
                                 f"error {ident!r} names unknown rule {rule!r}"
                                 f"{_hint(rule, self.rules)}")
            self.counts[kind if kind == "features" else "error codes"] = len(seen)

    def _variant_declarations(self) -> None:
        """A variant's own declarations: its feature id is not one of spec/features.yaml's
        nor another variant's; each parameter group it declares is declared nowhere else."""
        listed: set[str] = set()
        path = self.root / "features.yaml"
        if path.is_file():
            try:
                doc = load_yaml(path)
            except SpecError:
                doc = None
            if isinstance(doc, YamlMap):
                listed = {str(i.get("id")) for i in doc.get("features") or []
                          if isinstance(i, YamlMap)}
        schema = json.loads(schema_file(self.root).read_text(encoding="utf-8"))
        groups: dict[str, str] = {g: "the ruleset schema" for g in param_groups(schema)}
        features: dict[str, str] = {}
        for rid, e in sorted(self.rulesets.items()):
            feature = e.data.get("feature")
            if isinstance(feature, YamlMap) and isinstance(feature.get("id"), str):
                fid = feature["id"]
                other = "spec/features.yaml" if fid in listed else features.get(fid)
                if other is not None:
                    self.add(e.file, e.data.line_of("feature"),
                             f"variant {rid}: feature {fid!r} is already declared by {other}")
                features.setdefault(fid, f"variant {rid}")
            declared = e.data.get("parameters")
            if not isinstance(declared, YamlMap):
                continue
            for group in declared:
                if group in groups:
                    self.add(e.file, declared.line_of(group),
                             f"variant {rid}: parameter group {group!r} is already declared by "
                             f"{groups[group]}")
                groups.setdefault(str(group), f"variant {rid}")
        if "features" in self.counts:
            self.counts["features"] += len(features)

    @property
    def rules_loaded(self) -> bool:
        return bool(self.rules)

    # -- references ---------------------------------------------------------------------------

    def _ref(self, e: _Entry, key: str, table: dict[str, _Entry], what: str, who: str) -> None:
        verb = "cites" if what == "clause" else "references"
        if _KINDS[what] in self.broken:
            return  # the file that would define it did not parse; that is reported already
        for name in _strs(e.data.get(key)):
            if name not in table:
                self.add(e.file, e.data.line_of(key),
                         f"{who} {verb} unknown {what} {name!r}{_hint(name, table)}")

    def _ruleset_name_ok(self, name: str) -> bool:
        if "rulesets" in self.broken:
            return True  # cannot tell; the unparsable file is reported already
        return all(part in self.rulesets for part in name.split("+"))

    def _match_ruleset(self, mid: str, e: _Entry) -> None:
        """PARTNERS.ROTATION.HAND: the ruleset every hand of a match is dealt under
        (uno_spec.matches.ruleset_problem)."""
        name = e.data.get("ruleset")
        if not isinstance(name, str) or "rulesets" in self.broken:
            return
        from uno_spec.rulesets import load_ruleset

        try:
            params = load_ruleset(name, self.root).params
        except SpecError as err:
            self.add(e.file, e.data.line_of("ruleset"), f"match {mid}: {err.message}")
            return
        problem = ruleset_problem(mid, name, params)
        if problem is not None:
            self.add(e.file, e.data.line_of("ruleset"), problem)

    def references(self) -> None:
        cited: set[str] = set()
        referenced_rulings: set[str] = set()
        for rid, e in self.rules.items():
            self._ref(e, "cites", self.clauses, "clause", f"rule {rid}")
            self._ref(e, "rulings", self.rulings, "ruling", f"rule {rid}")
            for name in _strs(e.data.get("rulesets")):
                if not self._ruleset_name_ok(name):
                    self.add(e.file, e.data.line_of("rulesets"), f"rule {rid} names unknown "
                             f"ruleset {name!r}{_hint(name, self.rulesets)}")
            cited.update(_strs(e.data.get("cites")))
            referenced_rulings.update(_strs(e.data.get("rulings")))
        bases = {k for k, e in self.rulesets.items() if e.owner == "base"}
        variants = {k for k, e in self.rulesets.items() if e.owner == "variant"}
        for rid, e in self.rulesets.items():
            self._ref(e, "cites", self.clauses, "clause", f"ruleset {rid}")
            self._ref(e, "rulings", self.rulings, "ruling", f"ruleset {rid}")
            referenced_rulings.update(_strs(e.data.get("rulings")))
            for name in _strs(e.data.get("applies_to")):
                if name not in bases and "rulesets" not in self.broken:
                    self.add(e.file, e.data.line_of("applies_to"),
                             f"variant {rid} applies to {name!r}, which is not a base ruleset"
                             f"{_hint(name, bases)}")
            for name in _strs(e.data.get("conflicts")):
                if name not in variants and "rulesets" not in self.broken:
                    self.add(e.file, e.data.line_of("conflicts"),
                             f"variant {rid} conflicts with {name!r}, which is not a variant"
                             f"{_hint(name, variants)}")
        self._variant_declarations()
        for mid, e in self.matches.items():
            self._ref(e, "cites", self.clauses, "clause", f"match {mid}")
            self._ref(e, "rules", self.rules, "rule", f"match {mid}")
            self._ref(e, "rulings", self.rulings, "ruling", f"match {mid}")
            referenced_rulings.update(_strs(e.data.get("rulings")))
            self._match_ruleset(mid, e)
        known = parameters(self.root)
        for rid, e in self.rulings.items():
            self._ref(e, "clauses", self.clauses, "clause", f"ruling {rid}")
            for name in _strs(e.data.get("params")):  # a ruling promises only real parameters
                if name not in known:
                    self.add(e.file, e.data.line_of("params"),
                             f"ruling {rid} names unknown ruleset parameter {name!r}"
                             f"{_hint(name, known)} (not in {schema_file(self.root).name})")
            options = [str(o.get("id")) for o in e.data.get("options") or []
                       if isinstance(o, dict)]
            for dup in sorted({o for o in options if options.count(o) > 1}):
                self.add(e.file, e.data.line_of("options"), f"ruling {rid}: option {dup!r} twice")
            decisions = e.data.get("decisions")
            if isinstance(decisions, YamlMap):
                for name, choice in decisions.items():
                    line = decisions.line_of(str(name))
                    if not self._ruleset_name_ok(str(name)) and name not in self.matches:
                        self.add(e.file, line, f"ruling {rid} decides for unknown ruleset "
                                 f"{name!r}{_hint(str(name), [*self.rulesets, *self.matches])}")
                    if str(choice) not in options:
                        self.add(e.file, line, f"ruling {rid}: decision {choice!r} for {name} "
                                 f"is not one of its options ({', '.join(options)})")
            if rid not in referenced_rulings and not self.broken & {"rules", "rulesets"}:
                self.add(e.file, e.line, f"ruling {rid} is orphaned: no rule and no ruleset "
                         "references it")
        for cid, e in self.clauses.items():
            kind, uncited = e.data.get("kind"), e.data.get("uncited")
            if kind == "normative" and cid not in cited and not uncited \
                    and "rules" not in self.broken:
                self.add(e.file, e.line, f"normative clause {cid} is cited by no rule "
                         "(cite it from a rule or give it an `uncited: \"<reason>\"`)")
            if uncited and cid in cited:
                self.add(e.file, e.data.line_of("uncited"),
                         f"clause {cid} is marked uncited but a rule cites it")

    def parameter_rules(self) -> None:
        """Each parameter's `x-rules` in the tree's own ruleset schema names one of its rules
        (a tree without a schema of its own is checked against the bundled one, whose rules
        it does not hold)."""
        path = schema_file(self.root)
        if "rules" in self.broken or not self.rules or path.parent != self.root / "schema":
            return
        text = path.read_text(encoding="utf-8").splitlines()
        own = variant_parameters(self.root)  # group -> (variant, node): in the variant's file
        for param in parameters(self.root).values():
            for rule in param.rules:
                if rule not in self.rules:
                    group = param.path.split(".")[0]
                    where, lines = display_path(path), text
                    declaring = self.root / "rulesets" / f"{own[group][0]}.yaml" \
                        if group in own else None
                    if declaring is not None and declaring.is_file():
                        where = display_path(declaring)
                        lines = read_text(declaring).splitlines()
                    line = next((n for n, t in enumerate(lines, 1) if rule in t), 0)
                    self.add(where, line, f"parameter {param.path} names unknown "
                             f"rule {rule!r}{_hint(rule, self.rules)}")

    # -- seeds --------------------------------------------------------------------------------

    def seeds(self) -> None:
        used = {src.data.get("seed") for src in self.sources}
        folder = self.root / "seeds"
        if folder.is_dir() and "sources" not in self.broken:
            for text in sorted(folder.glob("*.txt")):
                if text.name not in used:
                    self.add(display_path(text), 0, "seed text belongs to no source "
                             f"(add spec/sources/<source>.yaml with `seed: {text.name}`)")
        for src in self.sources:
            seed = src.data.get("seed")
            if not isinstance(seed, str):
                continue
            path = self.root / "seeds" / seed
            try:
                raw = read_text(path)  # a regular UTF-8 file within the size cap, never waited on
            except InputError as err:
                self.add(src.file, src.data.line_of("seed"), f"seed file {seed!r}: "
                         f"{err.message} (in {display_path(self.root / 'seeds')})")
                continue
            clauses = [c for c in src.data.get("clauses") or []
                       if isinstance(c, YamlMap) and isinstance(c.get("text"), str)]
            for c in clauses:
                if c["text"] not in raw:
                    self.add(src.file, c.line_of("text"), f"clause {c.get('id')}: text does "
                             f"not occur verbatim in seed {seed}")
            self._partition(src, seed, raw, clauses)

    def _partition(self, src: _Entry, seed: str, raw: str, clauses: list[YamlMap]) -> None:
        whole, pos = _norm(raw), 0
        for c in clauses:
            text = _norm(c["text"])
            if pos < len(whole) and whole[pos] == " ":
                pos += 1
            if not whole.startswith(text, pos):
                expected = whole[pos:pos + 60]
                self.add(src.file, c.line_of("text"),
                         f"seed {seed} is not partitioned by its clauses: clause {c.get('id')} "
                         f"diverges from the seed, which continues here with {expected!r}")
                return
            pos += len(text)
        rest = whole[pos:].strip()
        if rest:
            line = clauses[-1].line if clauses else src.data.line_of("clauses")
            self.add(src.file, line, f"seed {seed}: text after the last clause is in no clause: "
                     f"{rest[:60]!r}")


def lint(root: Path) -> Report:
    """Lint the spec tree at `root`."""
    linter = _Linter(root)
    if not (root / "sources").is_dir():
        return Report([Problem(display_path(root), 0, "not a spec directory (no sources/ in it)")])
    linter.load()
    linter.references()
    linter.parameter_rules()
    linter.seeds()
    counts = {
        "sources": len(linter.sources),
        "clauses": len(linter.clauses),
        "rules": len(linter.rules),
        "rulings": len(linter.rulings),
        "rulesets": len(linter.rulesets),
    }
    if (root / "matches").is_dir():
        counts["match formats"] = len(linter.matches)
    counts.update(linter.counts)
    problems = sorted(set(linter.problems), key=lambda p: (p.file, p.line, p.message))
    return Report(problems, counts)
