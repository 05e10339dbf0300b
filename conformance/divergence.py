"""A divergence of `conformance diff` as a fact (docs/differential.md): what kind, the rule IDs
of the oracle's events at the deciding step, the set-up and the steps with the oracle's answers.
`conformance.diff` finds divergences, `conformance.diff_scenarios` writes them as scenarios;
both import this module (and not each other's: no import cycle, tests/test_imports.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.blame import Group, Signature

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


# the kinds of start position of an example (docs/differential.md "Positions")
STARTS = ("made", "made-round", "turn", "round", "game")
BATCH = 25  # examples per Hypothesis run; a long session is a series of runs
SHRINK_SECONDS = 20.0  # shrinking budget per run, from its first divergence
REDUCE_SECONDS = 15.0  # reduction budget per group (conformance.reduce)

DEAL_SHUFFLE_KEYS = ("total_cards", "card_counts", "dealer", "scores", "eliminated",
                     "round_over", "game_over", "hand_sizes")
COUNT_KEYS = ("hand_sizes", "draw_size", "discard_size", "total_cards", "card_counts")
# ... and during play: counts, and the discard's top stays (CL.RESHUFFLE.KEEP-TOP) with the
# colour in force, the direction and the side
PLAY_SHUFFLE_KEYS = (*COUNT_KEYS, "top", "active_color", "direction", "side", "scores",
                     "round_over", "game_over", "eliminated")
# ... and, after a shuffle of the hands alone (no card drawn: a Wild Shuffle Hands), whose turn
# it is: the card's rule fixes it whatever the cards dealt (CL18.WSH.NEXT)
HANDS_ONLY = frozenset({"hands-shuffled"})
DRAWING = frozenset({"drew", "reshuffled", "exhausted", "dealt", "first-card", "caught"})


def shuffle_keys(deal: bool, events: list[dict[str, Any]] | None = None) -> tuple[str, ...]:
    """The keys a shuffle can leave fixed after a step (`deal`: a set-up or a next hand)
    whose reference events are `events`: the turn too when it only redistributed the hands."""
    if deal:
        return DEAL_SHUFFLE_KEYS
    kinds = {str(e.get("kind")) for e in events or []}
    if kinds & HANDS_ONLY and not kinds & DRAWING:
        return (*PLAY_SHUFFLE_KEYS, "pending", "current")
    return PLAY_SHUFFLE_KEYS


@dataclass
class StepRecord:
    act: dict[str, Any]
    rejection: dict[str, Any] | None  # the oracle's; None: accepted
    rules: list[str]  # the oracle's rules_applied (accepted) or its rejection rule
    events: list[dict[str, Any]] = field(default_factory=list)  # the oracle's (accepted)
    decision: str = ""  # the decision pending before the act, in the oracle
    before: dict[str, Any] = field(default_factory=dict)  # the oracle's hands, pending, colour
    after: str | None = None  # the decision the oracle waits for after the act
    # what the implementation was compared on after the act and matched (None: not compared
    # there, a rejected act, a shuffle): the reduction checks a candidate against it, so that
    # one deviating before its deciding step is not taken for the group
    expect: dict[str, Any] | None = None


@dataclass
class Divergence:
    kind: str  # a key of KINDS
    rules: tuple[str, ...]  # rule IDs of the oracle at the deciding step
    message: str
    ruleset: str
    seed: int
    setup: dict[str, Any]
    steps: list[StepRecord]
    expect: dict[str, Any]  # the oracle's observations after the deciding step (compared keys)
    observed: dict[str, Any] = field(default_factory=dict)  # the implementation's
    shuffled: bool = False  # the deciding step (or the setup) drew on the random source
    signature: Signature = field(default_factory=lambda: Signature("", "", "", ""))
    setup_events: list[dict[str, Any]] = field(default_factory=list)  # the oracle's
    after: str | None = None  # the decision the oracle waits for after the deciding step
    setup_after: str | None = None  # ... and after the set-up

    @property
    def key(self) -> Group:
        """The deviation it shows (its group)."""
        return self.signature.group

    @property
    def players(self) -> int:
        return int(self.setup.get("players") or 0)

    @property
    def cards_in_hands(self) -> int:
        hands = self.setup.get("hands") or {}
        return sum(len(h) for h in hands.values()) if isinstance(hands, dict) else 0

    @property
    def size(self) -> tuple[int, int, int, int]:
        """Players, cards in hands, steps, cards in the draw pile: what a reduction lowers,
        the first the most."""
        return (self.players, self.cards_in_hands, len(self.steps),
                len(self.setup.get("draw") or []))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rules": list(self.rules), "message": self.message,
                "signature": self.signature.to_json(),
                "ruleset": self.ruleset, "seed": self.seed, "setup": self.setup,
                "steps": [{"act": s.act, "rejection": s.rejection, "rules": s.rules}
                          for s in self.steps],
                "expect": self.expect, "observed": self.observed, "shuffled": self.shuffled}


def action_features(act: dict[str, Any], ruleset: str) -> frozenset[str]:
    """The features (spec/features.yaml) an action belongs to (the fuzzer asks at every step,
    for every listed action: the sets are made once)."""
    if act.get("next_round"):
        return _SCORING
    if "referee" in act:
        return _REFEREE
    if "play" in act:
        return _PLAY_UNO if act.get("uno") else _BASIC
    if act.get("draw"):
        return _BASIC
    if act.get("pass"):
        return _DRAW_THEN_PLAY
    if "challenge" in act:
        flip = ruleset.split("+", 1)[0] == "flip"
        if act["challenge"] is False:  # accepting the card is the card's own feature
            return _FLIP if flip else _WD4
        return _FLIP_CHALLENGE if flip else _WD4_CHALLENGE
    if "catch" in act:
        return _UNO_CATCH
    if "swap" in act:  # a variant's decision: the features of the ruleset's variants
        from conformance.specdata import variant_features

        known = variant_features()
        return frozenset(known[p].feature for p in ruleset.split("+")[1:] if p in known)
    if "color" in act:
        return _FIRST_CARD
    if act.get("uno"):
        return _UNO_CALL
    return _BASIC


_SCORING = frozenset({"scoring"})
_REFEREE = frozenset({"referee-penalties"})
_BASIC = frozenset({"basic-play"})
_PLAY_UNO = frozenset({"basic-play", "uno-call"})
_DRAW_THEN_PLAY = frozenset({"draw-then-play"})
_FLIP = frozenset({"flip"})
_WD4 = frozenset({"wd4"})
_FLIP_CHALLENGE = frozenset({"flip-challenge"})
_WD4_CHALLENGE = frozenset({"wd4-challenge"})
_UNO_CATCH = frozenset({"uno-catch"})
_FIRST_CARD = frozenset({"first-card"})
_UNO_CALL = frozenset({"uno-call"})


def stateable(expect: dict[str, Any]) -> dict[str, Any]:
    """The observations a scenario can state: not a null colour in force (a first Wild's
    colour not chosen yet) nor a null top card; a null winner is stated."""
    return {k: v for k, v in expect.items() if v is not None or k == "winner"}


@dataclass
class Dropped:
    """A group whose scenario did not reproduce: not reported as a divergence."""

    signature: Signature
    count: int
    reason: str


def before_step(obs: dict[str, Any]) -> dict[str, Any]:
    """What conformance.blame reads of the oracle's position before a step."""
    out = {k: obs.get(k) for k in ("hands", "pending", "active_color")}
    out["playable"] = sorted({a["play"] for a in obs.get("legal_actions") or [] if "play" in a})
    return out
