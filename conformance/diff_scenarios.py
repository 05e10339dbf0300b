"""Divergences of `conformance diff` as corpus scenarios (docs/differential.md).

One scenario per divergence group: the reduced example's `setup`, its steps (an action the
reference rejected carries its `error:` and `state_unchanged: true`), and after the deciding step
the reference's observations as an `expect` (after a shuffle, only what it leaves fixed). `rules`
are the rule the group's signature names as broken (conformance.blame) followed by the other rule
IDs the reference's events carried at the deciding step, `cites` the clauses of the rule broken
(of the others only when it cites none), and `features` what the scenario uses. The result loads
with `uno-fsm conformance run` as is; `conformance diff` reports a group only once its scenario
passes on the reference and fails on the implementation with the group's signature
(conformance.reduce).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from conformance import specdata
from conformance.divergence import KINDS, Divergence, action_features, stateable
from uno_spec.files import write_text_atomic


def scenario_features(div: Divergence) -> set[str]:
    """The features (spec/features.yaml) the divergence's scenario uses: the corpus' own
    definition (conformance.features), applied to the scenario as it would be written and to
    what the reference engine does with it (the `trace` `conformance lint` uses too)."""
    from conformance.adapters.reference import reference_traces
    from conformance.features import required
    from conformance.scenario import ScenarioError, parse_data

    doc = _document(div, "diff", 0, 1, features=[])
    try:
        sc = parse_data(doc, "<diff>")
    except ScenarioError:  # not a valid scenario: judged on its actions alone
        return {f for s in div.steps for f in action_features(s.act, div.ruleset)}
    return set(required(sc, reference_traces([sc]).get(sc.id)))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-") or "x"


def rules_of(div: Divergence) -> list[str]:
    """The rule broken (the signature's), then the deciding step's other rules."""
    known = specdata.rule_cites()
    seen = dict.fromkeys([div.signature.rule, *div.rules])
    return [r for r in seen if r in known]


def cites_of(div: Divergence) -> list[str]:
    """The clauses of the rule broken; of the deciding step's rules when it cites none."""
    known = specdata.rule_cites()
    broken = list(known.get(div.signature.rule, ()))
    if broken:
        return broken
    return list(dict.fromkeys(c for r in rules_of(div) for c in known[r]))


def scenario(div: Divergence, implementation: str, index: int, count: int = 1) -> dict[str, Any]:
    """The corpus scenario (JSON data) of one divergence group."""
    return _document(div, implementation, index, count, sorted(scenario_features(div)))


def _document(div: Divergence, implementation: str, index: int, count: int,
              features: list[str]) -> dict[str, Any]:
    rules = rules_of(div)
    cites = cites_of(div)
    steps: list[dict[str, Any]] = []
    for s in div.steps:
        step: dict[str, Any] = {"act": s.act}
        if s.rejection is not None:
            step["error"] = s.rejection["code"]
            step["state_unchanged"] = True
        steps.append(step)
    # an observation the format cannot state (no colour in force yet, no top card) is left out
    expect = stateable(div.expect)
    if expect and div.kind not in ("accepted", "rejected", "error-code", "state-changed"):
        steps.append({"expect": expect})
    if not steps:  # pragma: no cover - a divergence always has a step or an expectation
        steps.append({"expect": div.expect})
    impl = slug(implementation)
    sig = div.signature
    first = slug(sig.rule or (div.rules[0] if div.rules else "setup"))
    statement = specdata.rules().get(sig.rule)
    return {
        "id": f"diff.{impl}.{index:02d}.{div.kind}.{first}",
        "title": f"{implementation}: {KINDS[div.kind]}: {sig.what or '-'} at a "
                 f"{sig.decision} decision ({sig.rule or 'no rule'})",
        "description": (
            f"Found by `uno-fsm conformance diff` ({count} example(s) in the group), shrunk by "
            f"Hypothesis and reduced: {div.message}. The rule broken: {sig.rule or 'none named'}"
            + (f" ({statement.statement})" if statement else "") + ". The expectations are "
            "the reference engine's observations: check them against the cited clauses "
            "before adding this scenario to the corpus."
            + (" A shuffle happened at the last step: only what it leaves fixed is expected."
               if div.shuffled else "")),
        "ruleset": div.ruleset,
        "cites": cites,
        "rules": rules,
        "features": features,
        "seed": div.seed,
        "setup": div.setup,
        "steps": steps,
    }


def to_yaml(doc: dict[str, Any]) -> str:
    return "# Generated by `uno-fsm conformance diff`; review before adding to the corpus.\n" + \
        yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


def write_all(groups: list[tuple[Divergence, int]], implementation: str,
              directory: Path) -> list[Path]:
    """One scenario file per group; returns the paths written (a group whose rules cite no
    clause cannot make a valid scenario and is skipped)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (div, count) in enumerate(groups, 1):
        doc = scenario(div, implementation, i, count)
        if not doc["cites"]:
            continue
        path = directory / f"{doc['id']}.yaml"
        write_text_atomic(path, to_yaml(doc))  # never into a FIFO or over half a file
        paths.append(path)
    return paths
