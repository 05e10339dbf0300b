"""conformance.blame: the rule that governs a differing observation at a step, from the
reference's events, and the signature of a failure (what differs, the decision, the rule)."""

from __future__ import annotations

from conformance.adapters.reference import ReferenceAdapter, ReferenceOracle
from conformance.blame import Signature, failure_signature, first_key, governing_rule, signature
from conformance.runner import Runner
from conformance.scenario import load_corpus

D2 = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RD2"},
      {"kind": "drew", "player": 1, "rule": "CL.D2.EFFECT"}]


def test_the_last_event_that_changes_the_observation_governs_it() -> None:
    assert governing_rule("hand_sizes.1", D2, players=3) == "CL.D2.EFFECT"
    assert governing_rule("hand_sizes.0", D2, players=3) == "CL.PLAY.MATCH"
    assert governing_rule("current", D2, players=3) == "CL.D2.EFFECT"
    assert governing_rule("top", D2, players=3) == "CL.PLAY.DISCARD-FACE-UP"
    assert governing_rule("current", D2, players=2) == "CL.TWO.D2-AGAIN"


def test_rules_applied_inside_another_rules_event_are_named() -> None:
    reverse = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RR"},
               {"kind": "reversed", "player": 0, "rule": "CL.REVERSE.EFFECT"}]
    assert governing_rule("current", reverse, players=2) == "CL.TWO.REVERSE-SKIP"
    assert governing_rule("direction", reverse, players=2) == "CL.TWO.REVERSE-DIRECTION"
    assert governing_rule("direction", reverse, players=3) == "CL.REVERSE.EFFECT"
    first = [{"kind": "first-card", "player": None, "rule": "CL.DEAL.FIRST-DISCARD",
              "card": "W"}]
    assert governing_rule("pending.decision", first, ruleset="classic-official") == \
        "CL.FIRST.WILD"
    drew = [{"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"}]
    assert governing_rule("pending.decision", drew, after="play-drawn") == "CL.DRAW.PLAY-DRAWN"
    assert governing_rule("current", drew, after="play") == "CL.DRAW.UNPLAYABLE-PASSES"


def test_what_differs_is_the_first_observation_in_the_order() -> None:
    assert first_key(["current", "hand_sizes.1", "pending.player"]) == "hand_sizes"
    assert first_key(["pending.decision", "current"]) == "pending.decision"


def test_an_accepted_wild_draw_four_names_the_rule_that_allows_it() -> None:
    before = {"hands": {0: ["W4", "R5"]}, "active_color": "red",
              "pending": {"player": 0, "decision": "play"}, "playable": ["R5", "W4"]}
    events = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "W4"}]
    sig = signature("rejected", codes=("", "card-does-not-match"), decision="play",
                    events=events, action={"player": 0, "play": "W4", "color": "blue"},
                    before=before)
    assert sig == Signature("rejected", "card-does-not-match", "play", "CL.WD4.BLUFF-ACCEPTED")


def test_a_corpus_failure_gets_the_signature_of_the_step_where_it_failed() -> None:
    def skip_last(s: object) -> bool:
        acts = [st.act for st in s.steps if st.act]  # type: ignore[attr-defined]
        return bool(acts) and str(acts[-1].get("play", "")).endswith("S")

    sc = next(s for s in load_corpus(None).scenarios if s.ruleset == "classic-official"
              and s.setup.get("players") == 3 and s.steps[-1].expect
              and "current" in s.steps[-1].expect and skip_last(s))
    # the same scenario, its expectation of the turn turned wrong: a failure on the reference
    result = {"outcome": "failed", "step": len(sc.steps), "step_kind": "expect",
              "mismatches": [{"key": "current"}], "expected": {}, "observed": {}}
    assert Runner(ReferenceAdapter).run([sc]).results[0].status == "passed"
    sig = failure_signature(result, sc, ReferenceOracle())
    assert sig is not None and sig.kind == "observation" and sig.what == "current"
    assert sig.rule == "CL.SKIP.EFFECT"
