"""A divergence of `conformance diff` as a fact (docs/differential.md): what kind, the rule IDs
of the oracle's events at the deciding step, the set-up and the steps with the oracle's answers.
`conformance.diff` finds divergences, `conformance.diff_scenarios` writes them as scenarios;
both import this module (and not each other's: no import cycle, tests/test_imports.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = {
    "observation": "observations differ after the step",
    "accepted": "the implementation accepted an action the reference rejects",
    "rejected": "the implementation rejected an action the reference accepts",
    "error-code": "both rejected the action, with different error codes",
    "state-changed": "the implementation's state changed after it rejected the action",
    "setup-refused": "the implementation refused a set-up the reference plays",
    "crash": "the implementation crashed or broke the protocol",
    "hang": "the implementation did not answer in time",
}


@dataclass
class StepRecord:
    act: dict[str, Any]
    rejection: dict[str, Any] | None  # the oracle's; None: accepted
    rules: list[str]  # the oracle's rules_applied (accepted) or its rejection rule


@dataclass
class Divergence:
    kind: str  # a key of KINDS
    rules: tuple[str, ...]  # the group: rule IDs of the oracle at the deciding step
    message: str
    ruleset: str
    seed: int
    setup: dict[str, Any]
    steps: list[StepRecord]
    expect: dict[str, Any]  # the oracle's observations after the deciding step (compared keys)
    observed: dict[str, Any] = field(default_factory=dict)  # the implementation's
    shuffled: bool = False

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.kind, self.rules)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rules": list(self.rules), "message": self.message,
                "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup,
                "steps": [{"act": s.act, "rejection": s.rejection, "rules": s.rules}
                          for s in self.steps],
                "expect": self.expect, "observed": self.observed}


def action_features(act: dict[str, Any], ruleset: str) -> set[str]:
    """The features (spec/features.yaml) an action belongs to."""
    parts = ruleset.split("+")
    if act.get("next_round"):
        return {"scoring"}
    if "referee" in act:
        return {"referee-penalties"}
    if "play" in act:
        return {"basic-play", "uno-call"} if act.get("uno") else {"basic-play"}
    if act.get("draw"):
        return {"basic-play"}
    if act.get("pass"):
        return {"draw-then-play"}
    if "challenge" in act:
        if act["challenge"] is False:  # accepting the card is the card's own feature
            return {"flip"} if parts[0] == "flip" else {"wd4"}
        return {"flip-challenge"} if parts[0] == "flip" else {"wd4-challenge"}
    if "catch" in act:
        return {"uno-catch"}
    if "swap" in act:  # a variant's decision: the features of the ruleset's variants
        from conformance.specdata import variant_features

        known = variant_features()
        return {known[p].feature for p in parts[1:] if p in known}
    if "color" in act:
        return {"first-card"}
    if act.get("uno"):
        return {"uno-call"}
    return {"basic-play"}
