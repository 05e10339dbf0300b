"""`uno-fsm conformance lint`: check the corpus against the schema and the spec registries.

Errors: a file that does not load or validate, a duplicate id, a cited clause, rule, feature,
ruleset or error code that does not exist. Warnings: rules of the base rulesets
(classic-official, classic-2022, flip) that no scenario covers (errors with `strict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conformance import specdata
from conformance.scenario import Scenario, load_corpus


@dataclass
class LintResult:
    scenarios: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)  # rule ids without a scenario

    def ok(self, strict: bool = False) -> bool:
        return not self.errors and not (strict and self.uncovered)


def _check(sc: Scenario, out: list[str]) -> None:
    def at(key: str) -> str:
        return f"{sc.file}:{sc.raw_lines.get(key, sc.line)}: scenario {sc.id}"

    clauses, rules, feats = specdata.clauses(), specdata.rules(), specdata.features()
    for cid in sc.cites:
        if cid not in clauses:
            out.append(f"{at('cites')}: cited clause {cid} does not exist in spec/sources")
    for rid in sc.rules:
        if rid not in rules:
            out.append(f"{at('rules')}: rule {rid} does not exist in spec/rules")
    for f in sc.features:
        if f not in feats:
            out.append(f"{at('features')}: feature {f} is not in spec/features.yaml")
    known_rulesets = specdata.rulesets()
    if known_rulesets:
        for part in sc.ruleset.split("+"):
            if part not in known_rulesets:
                out.append(f"{at('ruleset')}: ruleset {part} does not exist in spec/rulesets")
    codes = specdata.error_codes()
    if codes and sc.expect_setup_error is not None and sc.expect_setup_error not in codes:
        out.append(f"{at('expect_setup_error')}: error code {sc.expect_setup_error} is not in "
                   "spec/errors.yaml")
    if codes:
        for step in sc.steps:
            if step.error is not None and step.error not in codes:
                out.append(f"{sc.file}:{step.line}: scenario {sc.id}: step {step.index}: "
                           f"error code {step.error} is not in spec/errors.yaml")


def lint(paths: Sequence[Path] | None = None) -> LintResult:
    corpus = load_corpus(paths)
    res = LintResult(scenarios=len(corpus.scenarios))
    res.errors.extend(str(e) for e in corpus.errors)
    try:
        for sc in corpus.scenarios:
            _check(sc, res.errors)
        covered = {r for sc in corpus.scenarios for r in sc.rules}
        for rule in specdata.rules().values():
            if set(rule.rulesets) & set(specdata.BASE_RULESETS) and rule.id not in covered:
                res.uncovered.append(rule.id)
    except Exception as exc:  # a broken spec/ is reported, not a traceback
        res.errors.append(f"cannot read spec data: {exc}")
    res.warnings.extend(f"rule {rid} has no scenario" for rid in res.uncovered)
    return res
