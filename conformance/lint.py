"""`uno-fsm conformance lint`: check the corpus against the schema and the spec registries.

Errors: a file that does not load or validate (conformance.scenario: the schema, seats, the
ruleset and its deck), a duplicate id, a cited clause, rule, feature or error code that does
not exist; declared `features` that differ from the features the scenario uses
(conformance/features.py: what it says, and what the reference engine did when it was run,
through its adapter); a `dealer` expectation listing every seat (it cannot fail).
Warnings: rules that no scenario names, per ruleset, variants included, and `TurnPhases` edges
that the scenarios do not traverse when run on the reference engine (of the edges a shipped
ruleset can reach: `uno-fsm check`'s UNREACHABLE ones are excluded); errors with `strict`;
only with `coverage` (the CLI checks coverage for the bundled corpus, and for other files when
asked: a corpus of one's own does not cover the bundled rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import specdata
from conformance.features import required
from conformance.scenario import Scenario, load_corpus


@dataclass
class LintResult:
    scenarios: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)  # rule ids without a scenario
    # ruleset id -> (rules of that ruleset, those without a scenario), every ruleset of spec/
    coverage: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    coverage_checked: bool = True
    # phase edges on the reference engine (conformance.adapters.reference.phase_edges)
    edges_reachable: int = 0
    edges_missing: list[str] = field(default_factory=list)  # reachable, not traversed
    edges_unreachable: list[str] = field(default_factory=list)  # excluded from the count

    def ok(self, strict: bool = False) -> bool:
        return not self.errors and not (strict and (self.uncovered or self.edges_missing))


def registry_problems(sc: Scenario) -> list[str]:
    """What the scenario names that the spec registries do not hold: a cited clause, a rule (of
    `rules` or of an expected event), a feature or an expected error code (one line each,
    `file:line: scenario ID: ...`). The
    loader has checked the ruleset, its variants and its parameters already. `conformance run`
    refuses a file with any of these, as lint does (exit 2)."""
    out: list[str] = []

    def at(key: str) -> str:
        return f"{sc.file}:{sc.raw_lines.get(key, sc.line)}: scenario {sc.id}"

    clauses, rules, feats = specdata.clauses(), specdata.rules(), specdata.features()
    for cid in sc.cites:
        if cid not in clauses:
            out.append(f"{at('cites')}: cited clause {cid} does not exist in spec/sources"
                       f"{_close(cid, clauses)}")
    for rid in sc.rules:
        if rid not in rules:
            out.append(f"{at('rules')}: rule {rid} does not exist in spec/rules"
                       f"{_close(rid, rules)}")
    for f in sc.features:
        if f not in feats:
            out.append(f"{at('features')}: feature {f} is not in spec/features.yaml"
                       f"{_close(f, feats)}")
    for step in sc.steps:  # the rules an `events` expectation names
        for event in (step.expect or {}).get("events") or ():
            rid = event.get("rule")
            if isinstance(rid, str) and rid not in rules:
                out.append(f"{sc.file}:{step.line}: scenario {sc.id}: step {step.index}: "
                           f"event rule {rid} does not exist in spec/rules{_close(rid, rules)}")
    codes = specdata.error_codes()
    if codes and sc.expect_setup_error is not None and sc.expect_setup_error not in codes:
        out.append(f"{at('expect_setup_error')}: error code {sc.expect_setup_error} is not in "
                   f"spec/errors.yaml{_close(sc.expect_setup_error, codes)}")
    if codes:
        for step in sc.steps:
            if step.error is not None and step.error not in codes:
                out.append(f"{sc.file}:{step.line}: scenario {sc.id}: step {step.index}: "
                           f"error code {step.error} is not in spec/errors.yaml"
                           f"{_close(step.error, codes)}")
    return out


def _close(name: str, known: Any) -> str:
    """`; did you mean X?` for a misspelt registry name, or nothing."""
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def duplicate_problems(scenarios: Sequence[Scenario]) -> list[str]:
    """A scenario whose id is one of the bundled corpus's, in another file (ids are never
    reused: a copied scenario must get its own id). Duplicates within the files given are the
    loader's error already."""
    from conformance.scenario import CORPUS_ROOT

    def where(sc: Scenario) -> Path:
        return Path(sc.file).resolve()

    if all(where(sc).is_relative_to(CORPUS_ROOT) for sc in scenarios):
        return []  # the bundled corpus itself (or part of it): the loader compared them
    bundled = {sc.id: sc for sc in load_corpus().scenarios}
    out = []
    for sc in scenarios:
        first = bundled.get(sc.id)
        if first is not None and where(first) != where(sc):
            out.append(f"{sc.file}:{sc.line}: scenario {sc.id}: duplicate scenario id: the "
                       f"bundled corpus has it ({first.file}:{first.line}); give this one an "
                       "id of its own")
    return out


def _check(sc: Scenario, out: list[str], trace: Any = None) -> None:
    out.extend(registry_problems(sc))
    if set(sc.features) <= set(specdata.features()):
        _check_features(sc, f"{sc.file}:{sc.raw_lines.get('features', sc.line)}: "
                        f"scenario {sc.id}", out, trace)
    for step in sc.steps:
        dealer = (step.expect or {}).get("dealer")
        if isinstance(dealer, list) and set(dealer) >= set(range(int(sc.setup["players"]))):
            out.append(f"{sc.file}:{step.line}: scenario {sc.id}: step {step.index}: `dealer` "
                       f"lists every seat, so it cannot fail: name only the seats the rules allow, "
                       f"or leave the dealer unasserted")


def _check_features(sc: Scenario, where: str, out: list[str], trace: Any) -> None:
    """Declared features are exactly those the scenario uses (`uno-fsm conformance features`;
    `trace`: what the reference engine did with it)."""
    needed = required(sc, trace)
    extra = [f for f in sc.features if f not in needed]
    missing = [f for f in needed if f not in sc.features]
    if extra or missing:
        parts = ([f"declares {', '.join(extra)} but never uses it"] if extra else []) + \
            ([f"uses {', '.join(missing)} but does not declare it"] if missing else [])
        out.append(f"{where}: features: {'; '.join(parts)} "
                   f"(expected [{', '.join(needed)}])")


def lint(paths: Sequence[Path] | None = None, coverage: bool = True) -> LintResult:
    """Lint the scenario files (default: the bundled corpus); `coverage`: also list the rules
    of spec/ that no scenario names."""
    corpus = load_corpus(paths)
    res = LintResult(scenarios=len(corpus.scenarios), coverage_checked=coverage)
    res.errors.extend(str(e) for e in corpus.errors)
    res.errors.extend(duplicate_problems(corpus.scenarios))
    traces = _run_on_reference(corpus.scenarios, res)
    try:
        for sc in corpus.scenarios:
            _check(sc, res.errors, traces.get(sc.id))
        if not coverage:
            return res
        covered = {r for sc in corpus.scenarios for r in sc.rules}
        rules = list(specdata.rules().values())
        for rule in rules:
            if rule.id not in covered:
                res.uncovered.append(rule.id)
        for ruleset in sorted(specdata.rulesets() | {r for rule in rules for r in rule.rulesets}):
            of = [rule.id for rule in rules if ruleset in rule.rulesets]
            res.coverage[ruleset] = (len(of), [rid for rid in of if rid not in covered])
    except Exception as exc:  # a broken spec/ is reported, not a traceback
        res.errors.append(f"cannot read spec data: {exc}")
    rulesets_of = {rid: [rs for rs, (_, missing) in res.coverage.items() if rid in missing]
                   for rid in res.uncovered}
    res.warnings.extend(f"rule {rid} ({', '.join(rulesets_of[rid]) or 'no ruleset'}) has no "
                        f"scenario" for rid in res.uncovered)
    res.warnings.extend(f"phase edge {e} is not exercised by any scenario on the reference "
                        f"engine" for e in res.edges_missing)
    return res


def _run_on_reference(scenarios: Sequence[Scenario], res: LintResult) -> dict[str, Any]:
    """Run the scenarios on the reference engine (through its adapter: the runner side does
    not import the engine): the phase edges they traverse, and what the engine did with each
    one (the features it needs)."""
    from conformance.adapters.reference import reference_run

    try:
        edges, traces = reference_run(scenarios)
    except Exception as exc:  # reported, not a traceback
        res.errors.append(f"cannot run the scenarios on the reference engine: {exc}")
        return {}
    res.edges_reachable = len(edges.reachable)
    res.edges_missing = edges.missing
    res.edges_unreachable = sorted(edges.unreachable)
    return traces
