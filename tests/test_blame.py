"""conformance.blame: the rule that governs a differing observation at a step, from the
reference's events, and the signature of a failure (what differs, the decision, the rule)."""

from __future__ import annotations

from typing import Any

import pytest

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


# the reference's events when a Draw Two's victim finds one card under the top, then nothing
# (conformance/corpus/classic/reshuffle-draw-pile.yaml, classic.reshuffle.both-empty-*)
SHORT = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RD2"},
         {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"},
         {"kind": "exhausted", "player": 1, "rule": "CL.RESHUFFLE.BOTH-EMPTY"},
         {"kind": "drew", "player": 1, "rule": "CL.D2.EFFECT"}]


def test_a_draw_stopped_short_governs_the_piles_the_top_and_a_hand_that_got_more() -> None:
    # a victim holding more than there was to draw (the top card drawn too): the draw did not
    # stop short; fewer cards: the Draw Two's own rule decides how many
    assert governing_rule("hands.1", SHORT, players=3, extra=True) == \
        "CL.RESHUFFLE.BOTH-EMPTY"
    assert governing_rule("hands.1", SHORT, players=3) == "CL.D2.EFFECT"
    # another seat holding more (the cards given to the wrong player): not that draw's stop
    assert governing_rule("hands.0", SHORT, players=3, extra=True) == "CL.PLAY.MATCH"
    for key in ("top", "discard_size", "draw_size"):
        assert governing_rule(key, SHORT, players=3) == "CL.RESHUFFLE.BOTH-EMPTY", key
    assert governing_rule("current", SHORT, players=3) == "CL.D2.EFFECT"
    sig = signature("observation", mismatches=["hands.1", "discard_size"], decision="play",
                    events=SHORT, players=3, ruleset="classic-official", more=("hands.1",))
    assert sig == Signature("observation", "hands", "play", "CL.RESHUFFLE.BOTH-EMPTY")


def test_a_pile_of_another_size_after_a_draw_that_refilled_nothing_is_the_reshuffles_moment(
        ) -> None:
    drew = [{"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"},
            {"kind": "passed", "player": 0, "rule": "CL.DRAW.UNPLAYABLE-PASSES"}]
    assert governing_rule("draw_size", drew, players=3) == "CL.RESHUFFLE.WHEN"
    refilled = [{"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"},
                *drew]
    assert governing_rule("draw_size", refilled, players=3) == "CL.RESHUFFLE.KEEP-TOP"
    assert governing_rule("hand_sizes.0", drew, players=3) == "CL.DRAW.UNABLE"


def test_more_cards_names_the_hands_that_hold_more_than_the_references() -> None:
    from conformance.blame import more_cards
    from conformance.compare import Mismatch

    assert more_cards([Mismatch("hands.1", ["B6"], ["B6", "RD2"]),
                       Mismatch("hands.2", ["B6", "R1"], ["B6"]),
                       {"key": "hand_sizes.0", "expected": 1, "observed": 3},
                       {"key": "draw_size", "expected": 1, "observed": 3}]) == \
        ("hands.1", "hand_sizes.0")
    # and a discard pile holding more (skilluno lays an eliminated hand on it)
    assert more_cards([{"key": "discard_size", "expected": 1, "observed": 17},
                       {"key": "discard_size", "expected": 3, "observed": 2}]) == \
        ("discard_size",)


def test_a_decision_not_asked_is_what_differs_whatever_card_shows_it() -> None:
    # RLCard plays a drawn card itself: the top, the colour or the direction differs first
    # depending on the card; what differs is the drawn card's decision it did not ask
    drew = [{"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"}]
    for first in ("top", "active_color", "direction", "hand_sizes.0"):
        sig = signature("observation", mismatches=[first, "pending.decision", "current"],
                        decision="play", events=drew, players=2, after="play-drawn")
        assert sig == Signature("observation", "pending.decision", "play",
                                "CL.DRAW.PLAY-DRAWN"), first
    # the reference asks a turn's play: the cards that differ come first
    sig = signature("observation", mismatches=["top", "pending.decision"], decision="play",
                    events=drew, players=2, after="play")
    assert sig.what == "top"
    # a hand or a game over on one side: the order as ever
    sig = signature("observation", mismatches=["top", "round_over", "pending.decision"],
                    decision="play", events=drew, players=2, after="play-drawn")
    assert sig.what == "top"


def test_a_top_card_reshuffled_into_the_pile_is_one_signature() -> None:
    from conformance.blame import top_taken
    from conformance.compare import Mismatch

    gone = [Mismatch("discard_size", 1, 0)]
    assert top_taken(gone) and top_taken([{"key": "discard_size", "expected": 3,
                                           "observed": 0}])
    assert not top_taken([Mismatch("discard_size", 2, 1)])
    for first in ("active_color", "hands.1", "draw_size"):
        sig = signature("observation", mismatches=[first, "discard_size"], decision="play",
                        events=SHORT, players=3, taken=True)
        assert sig == Signature("observation", "discard_size", "play",
                                "CL.RESHUFFLE.KEEP-TOP"), first
    # no reshuffle at this step: the rule that governs what differs, as ever
    sig = signature("observation", mismatches=["top", "discard_size"], decision="play",
                    events=D2, players=3, taken=True)
    assert sig == Signature("observation", "top", "play", "CL.PLAY.DISCARD-FACE-UP")


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


def test_a_refused_acceptance_of_a_wild_draw_four_names_the_acceptance_after_a_reshuffle() -> None:
    """The victim's `challenge: false` the implementation refuses (skilluno's hand over once its
    hand limit eliminated the victim) breaks CL.WD4.ACCEPT, the rule of the victim's draw, also
    when the reference reshuffled first to deal the four: one group, not one per draw."""
    accept = [{"kind": "drew", "player": 1, "rule": "CL.WD4.ACCEPT", "count": 4}]
    reshuffled = [{"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"}]
    sigs = {signature("rejected", codes=("", "game-over"), decision="challenge", events=e,
                      action={"player": 1, "challenge": False},
                      before={"pending": {"player": 1, "decision": "challenge"}})
            for e in (accept, reshuffled + accept)}
    assert sigs == {Signature("rejected", "game-over", "challenge", "CL.WD4.ACCEPT")}


@pytest.mark.parametrize(("card", "outcome", "rule"), [
    ("wd2", "FL.LIGHT.W2.GUILTY", "FL.LIGHT.W2.CHALLENGER"),
    ("wd2", "FL.LIGHT.W2.INNOCENT", "FL.LIGHT.W2.CHALLENGER"),
    ("wdc", "FL.DARK.WDC.INNOCENT", "FL.DARK.WDC.CHALLENGER"),
])
def test_a_refused_flip_challenge_names_the_rule_that_allows_it(card: str, outcome: str,
                                                               rule: str) -> None:
    """An implementation refusing the victim's challenge of a Wild Draw Two / Colour breaks the
    rule that lets the victim challenge it, not the first event of the reference's outcome
    (the hand shown, CL.WD4.CHALLENGE.SHOW)."""
    events = [{"kind": "shown", "player": 0, "rule": "CL.WD4.CHALLENGE.SHOW"},
              {"kind": "drew", "player": 1, "rule": outcome, "count": 4}]
    sig = signature("rejected", codes=("", "not-challengeable"), decision="challenge",
                    events=events, action={"player": 1, "challenge": True}, ruleset="flip",
                    before={"pending": {"player": 1, "decision": "challenge"}})
    assert sig == Signature("rejected", "not-challengeable", "challenge", rule), card


def test_a_refused_flip_challenge_of_the_corpus_is_blamed_on_its_challenger_rule() -> None:
    sc = next(s for s in load_corpus(None).scenarios if s.id == "flip.wdc.challenge.innocent")
    step = next(st.index for st in sc.steps if st.act and st.act.get("challenge") is True)
    result = {"outcome": "failed", "step": step, "step_kind": "act", "expected": "accepted",
              "observed": {"error": {"code": "not-challengeable"}}, "mismatches": []}
    sig = failure_signature(result, sc, ReferenceOracle())
    assert sig == Signature("rejected", "not-challengeable", "challenge",
                            "FL.DARK.WDC.CHALLENGER")


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


def test_one_deviation_is_one_group_whatever_the_decision_or_the_player_count() -> None:
    from conformance.blame import Group

    skip = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RS"},
            {"kind": "skipped", "player": 1, "rule": "CL.SKIP.EFFECT"}]
    three = signature("observation", mismatches=["pending.player"], decision="play",
                      events=skip, players=3)
    two = signature("observation", mismatches=["pending.player"], decision="play",
                    events=skip, players=2)
    assert (three.rule, two.rule) == ("CL.SKIP.EFFECT", "CL.TWO.SKIP-AGAIN")
    assert three.group == two.group == Group("observation", "pending.player", "CL.SKIP.EFFECT")
    # an accepted Wild Draw Four's and an innocent challenge's two-player turn: each its rule
    accept = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "W4"},
              {"kind": "drew", "player": 1, "rule": "CL.WD4.ACCEPT"}]
    innocent = [{"kind": "drew", "player": 1, "rule": "CL.WD4.CHALLENGE.INNOCENT"}]
    for events, base in ((accept, "CL.WD4.ACCEPT"), (innocent, "CL.WD4.CHALLENGE.INNOCENT")):
        sig = signature("observation", mismatches=["current"], decision="challenge",
                        events=events, players=2)
        assert (sig.rule, sig.group.rule) == ("CL.TWO.WD4-AGAIN", base)
    # a two-player Reverse that does not skip is a rule of its own (RLCard breaks it alone)
    reverse = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RR"},
               {"kind": "reversed", "player": 0, "rule": "CL.REVERSE.EFFECT"}]
    sig = signature("observation", mismatches=["current"], decision="play", events=reverse,
                    players=2)
    assert sig.group.rule == "CL.TWO.REVERSE-SKIP"
    # the decision is where it shows: a catch's penalty at a play and at a challenge
    caught = [{"kind": "caught", "player": 1, "rule": "CL.UNO.CATCH-PENALTY"}]
    at = [signature("observation", mismatches=["hand_sizes.1"], decision=d, events=caught,
                    players=3) for d in ("play", "challenge")]
    assert at[0] != at[1] and at[0].group == at[1].group
    # distinct rules stay apart (a challenge judged wrongly either way)
    guilty = [{"kind": "drew", "player": 0, "rule": "CL.WD4.CHALLENGE.GUILTY"}]
    assert signature("observation", mismatches=["hand_sizes.0"], decision="challenge",
                     events=guilty, players=3).group != \
        signature("observation", mismatches=["hand_sizes.1"], decision="challenge",
                  events=innocent, players=3).group


def test_a_hand_a_catch_leaves_alone_changed_breaks_whom_a_catch_takes() -> None:
    """A catch of seat 2: seat 1, holding one card whose window had closed, also drew on the
    implementation (uno-engine's `Game.uno` penalises every uncalled one-card holder). The
    rule is whom a catch takes (CL.UNO.CATCH), not the penalty seat 2 drew
    (CL.UNO.CATCH-PENALTY), which governs seat 2's own hand."""
    events = [{"kind": "caught", "player": 2, "rule": "CL.UNO.CATCH"},
              {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP",
               "count": 2},
              {"kind": "drew", "player": 2, "rule": "CL.UNO.CATCH-PENALTY", "count": 2}]
    other = signature("observation", mismatches=["draw_size", "hand_sizes.1"],
                      more=["hand_sizes.1"], decision="play", events=events, players=3)
    assert (other.what, other.rule) == ("hand_sizes", "CL.UNO.CATCH")
    caught = signature("observation", mismatches=["hand_sizes.2"], decision="play",
                       events=events, players=3)
    assert (caught.what, caught.rule) == ("hand_sizes", "CL.UNO.CATCH-PENALTY")
    # a Draw Two's victim mistaken: the other seat's hand is still the Draw Two's
    d2 = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RD2"},
          {"kind": "drew", "player": 1, "rule": "CL.D2.EFFECT", "count": 2}]
    assert signature("observation", mismatches=["hand_sizes.2"], more=["hand_sizes.2"],
                     decision="play", events=d2, players=3).rule == "CL.D2.EFFECT"


def test_a_player_penalised_for_all_their_call_breaks_the_call_rule() -> None:
    """A Wild played with UNO called (2 players): the player holds one card on the reference
    and three on the implementation (uno-engine drew them two). The call made them safe
    (CL.UNO.CALL-WITH-PLAY); the play's match (CL.PLAY.MATCH) says nothing of a penalty. A late
    call likewise (CL.UNO.CALL-LATE). Fewer cards than the reference's is not a penalty: the
    play's own rule still names it."""
    events = [{"kind": "played", "player": 1, "rule": "CL.PLAY.MATCH", "card": "W"},
              {"kind": "uno", "player": 1, "rule": "CL.UNO.CALL-WITH-PLAY"}]
    more = ["hand_sizes.1", "hands.1"]
    sig = signature("observation", mismatches=["draw_size", *more], more=more,
                    decision="play", events=events, players=2)
    assert (sig.what, sig.rule) == ("hand_sizes", "CL.UNO.CALL-WITH-PLAY")
    late = [{"kind": "uno", "player": 0, "rule": "CL.UNO.CALL-LATE"}]
    assert signature("observation", mismatches=["hand_sizes.0"], more=["hand_sizes.0"],
                     decision="play", events=late, players=2).rule == "CL.UNO.CALL-LATE"
    assert signature("observation", mismatches=["hand_sizes.1"], decision="play",
                     events=events, players=2).rule == "CL.PLAY.MATCH"
    # the call took others on the implementation (uno-engine's `Game.uno` penalises every
    # one-card holder who has not called, windows closed or not): only a catch takes a player
    three = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "B6"},
             {"kind": "uno", "player": 0, "rule": "CL.UNO.CALL-WITH-PLAY"}]
    others = ["hand_sizes.1", "hand_sizes.2"]
    assert signature("observation", mismatches=["draw_size", *others], more=others,
                     decision="play", events=three, players=3).rule == "CL.UNO.CATCH"
    assert signature("observation", mismatches=["hand_sizes.1"], more=["hand_sizes.1"],
                     decision="play", events=late, players=2).rule == "CL.UNO.CATCH"


def test_a_crash_at_a_draw_stopped_short_is_the_empty_piles_rule() -> None:
    """RLCard crashes (`pop from empty list`) where a draw finds both piles empty: a turn's
    draw, and a last Wild Draw Four's victim drawing after a reshuffle of one card. Both are the
    empty piles' rule (CL.RESHUFFLE.BOTH-EMPTY), one deviation, not the turn passed after the
    draw (named CL.DRAW.KEEP before the engine's `passed` event named its own rule) nor the
    hand won by the Wild Draw Four (CL.SCORE.WINNER). A crash at a step whose draws found
    cards is still named by what the step was to do next (the unplayable card's pass)."""
    draw = [{"kind": "exhausted", "player": 0, "rule": "CL.RESHUFFLE.BOTH-EMPTY"},
            {"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"},
            {"kind": "passed", "player": 0, "rule": "CL.RESHUFFLE.BOTH-EMPTY"}]
    last = [{"kind": "played", "player": 1, "rule": "CL.PLAY.MATCH", "card": "W4"},
            {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP", "count": 1},
            {"kind": "exhausted", "player": 0, "rule": "CL.RESHUFFLE.BOTH-EMPTY", "count": 1},
            {"kind": "drew", "player": 0, "rule": "CL.END.LAST-WD4", "card": "G0", "count": 1},
            {"kind": "went-out", "player": 1, "rule": "CL.SCORE.WINNER"}]
    sigs = [signature("crash", decision="play", events=e, players=2) for e in (draw, last)]
    assert {(s.kind, s.what, s.rule) for s in sigs} == {("crash", "", "CL.RESHUFFLE.BOTH-EMPTY")}
    assert signature("hang", decision="play", events=draw, players=2).rule == \
        "CL.RESHUFFLE.BOTH-EMPTY"
    found = [{"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"},
             {"kind": "passed", "player": 0, "rule": "CL.DRAW.UNPLAYABLE-PASSES"}]
    assert signature("crash", decision="play", events=found, players=2).rule == \
        "CL.DRAW.UNPLAYABLE-PASSES"


def test_a_top_covered_by_more_cards_is_not_the_reshuffle_that_kept_it() -> None:
    """skilluno lays a hand over its limit on the discard pile: the victim of a Draw Two or of
    an accepted Wild Draw Four goes to 16 cards, is eliminated, and the pile holds 17 where the
    reference's holds the top alone. The step reshuffled, but the reshuffle keeps the top
    (CL.RESHUFFLE.KEEP-TOP): the top was covered, and the rule is the step's own (the card
    played tops the pile, CL.PLAY.DISCARD-FACE-UP; the Wild Draw Four accepted, CL.WD4.ACCEPT),
    the groups skilluno's limit already shows without a reshuffle."""
    keys = ["discard_size", "hand_sizes.0", "hands.0", "top"]
    d2 = [{"kind": "played", "player": 1, "rule": "CL.PLAY.MATCH", "card": "RD2",
           "color": "red"},
          {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP", "count": 4},
          {"kind": "drew", "player": 0, "rule": "CL.D2.EFFECT", "card": "R0", "count": 2}]
    sig = signature("observation", mismatches=keys, more=["discard_size"], decision="play",
                    events=d2, players=2)
    assert (sig.what, sig.rule) == ("top", "CL.PLAY.DISCARD-FACE-UP")
    accept = d2[1:2] + [{"kind": "drew", "player": 0, "rule": "CL.WD4.ACCEPT", "card": "R1",
                         "count": 4}]
    sig = signature("observation", mismatches=keys, more=["discard_size"],
                    decision="challenge", events=accept, players=2)
    assert (sig.what, sig.rule) == ("top", "CL.WD4.ACCEPT")
    # a discard pile no larger: the reshuffle is still what the top is blamed on
    assert signature("observation", mismatches=keys, decision="challenge", events=accept,
                     players=2).rule == "CL.RESHUFFLE.KEEP-TOP"


def test_a_top_card_replaced_at_a_reshuffle_is_the_kept_top_whatever_the_step_did() -> None:
    reshuffled = {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"}
    steps = {"draw": [reshuffled, {"kind": "drew", "player": 0, "rule": "CL.DRAW.UNABLE"}],
             "stopped short": [reshuffled, *SHORT[2:]],
             "wd4": [reshuffled, {"kind": "drew", "player": 1, "rule": "CL.WD4.ACCEPT"}]}
    for what, events in steps.items():
        # the old top drawn into a hand, another card turned up: the counts alike
        for mismatches in (["top"], ["top", "hands.0"], ["active_color", "top"]):
            sig = signature("observation", mismatches=mismatches, decision="play",
                            events=events, players=2, after="play")
            assert (sig.what, sig.rule) == ("top", "CL.RESHUFFLE.KEEP-TOP"), (what, mismatches)
    draw = steps["draw"]
    # a card more in a hand or on the pile: not the top exchanged, the step's own rule
    for mismatches, more in ((["top", "hand_sizes.0"], ()), (["top", "discard_size"], ()),
                             (["top", "hands.0"], ("hands.0",))):
        sig = signature("observation", mismatches=mismatches, decision="play", events=draw,
                        players=2, after="play", more=more)
        assert sig.rule != "CL.RESHUFFLE.KEEP-TOP", mismatches
    # a card played on the top after the reshuffle: the play decides the top
    played = [reshuffled, {"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "R5"}]
    assert signature("observation", mismatches=["top"], decision="play", events=played,
                     players=2).rule == "CL.PLAY.DISCARD-FACE-UP"
    # no reshuffle at this step: as ever
    assert signature("observation", mismatches=["top"], decision="play", events=D2,
                     players=3).rule == "CL.PLAY.DISCARD-FACE-UP"


def test_a_draw_pile_made_of_other_cards_at_a_reshuffle_is_the_reshuffles_whatever_was_drawn(
        ) -> None:
    """uno-engine builds a fresh deck where the rules reshuffle the discard pile below its
    top: a Draw Two's victim then holds as many cards as on the reference but other ones, and
    the draw pile is of another size. The rule broken is the reshuffle's (CL.RESHUFFLE.KEEP-TOP),
    not the Draw Two's, and it is one group with the same pile seen with the hands alike."""
    reshuffled = {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"}
    d2 = [D2[0], {"kind": "drew", "player": 1, "rule": "CL.D2.EFFECT"}, reshuffled,
          {"kind": "drew", "player": 1, "rule": "CL.D2.EFFECT"}]
    alike = signature("observation", mismatches=["draw_size"], decision="play", events=d2,
                      players=2, after="play")
    assert (alike.what, alike.rule) == ("draw_size", "CL.RESHUFFLE.KEEP-TOP")
    for mismatches in (["draw_size", "hands.1"], ["draw_size", "hands.1", "views.1"]):
        sig = signature("observation", mismatches=mismatches, decision="play", events=d2,
                        players=2, after="play")
        assert sig.group == alike.group, mismatches
    # a hand of another size, or another discard pile or top: not the pile alone
    for mismatches in (["draw_size", "hand_sizes.1", "hands.1"], ["draw_size", "hands.1",
                                                                  "discard_size"],
                       ["draw_size", "top"]):
        sig = signature("observation", mismatches=mismatches, decision="play", events=d2,
                        players=2, after="play")
        assert sig.group != alike.group, mismatches
    # no reshuffle at the step: the hand's own rule, as ever
    assert signature("observation", mismatches=["draw_size", "hands.1"], decision="play",
                     events=D2, players=3, after="play").rule == "CL.D2.EFFECT"


# the step before: a Reverse with three players (the turn it gave: CL.REVERSE.EFFECT)
REVERSED = ([{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RR"},
             {"kind": "reversed", "player": 0, "rule": "CL.REVERSE.EFFECT"}], "play")


def test_an_out_of_turn_action_refused_under_a_rule_of_its_own_names_that_rule() -> None:
    """A Jump-In with a card of another colour: the reference refuses it under
    V.JUMPIN.NOT-MATCHING; an implementation accepting it breaks that rule, not the one that
    gave the turn at the step before (the planted bug jump-any-colour was six groups, named
    by the position's rules)."""
    act = {"player": 1, "play": "B5"}
    before = {"pending": {"player": 2, "decision": "play"}}
    jump = signature("accepted", codes=("not-your-turn", ""), decision="play", action=act,
                     before=before, rejection={"code": "not-your-turn",
                                               "rule": "V.JUMPIN.NOT-MATCHING"},
                     players=3, ruleset="classic-official+jump-in", previous=REVERSED)
    assert jump.group.rule == "V.JUMPIN.NOT-MATCHING"
    # refused only because another seat owes the decision: they disagree on whose turn it is
    turn = signature("accepted", codes=("not-your-turn", ""), decision="play", action=act,
                     before=before, rejection={"code": "not-your-turn",
                                               "rule": "CL.PLAY.OUT-OF-TURN"},
                     players=3, ruleset="classic-official", previous=REVERSED)
    assert turn.group.rule == "CL.REVERSE.EFFECT"
    # a Jump-In the reference allows, refused as out of turn: the rule that allows it ...
    jumped = [{"kind": "jumped-in", "player": 1, "rule": "V.JUMPIN.IDENTICAL", "card": "R5"}]
    refused = signature("rejected", codes=("", "not-your-turn"), decision="play",
                        action={"player": 1, "play": "R5"}, before=before, events=jumped,
                        players=3, ruleset="classic-official+jump-in", previous=REVERSED)
    assert refused.group.rule == "V.JUMPIN.IDENTICAL"
    # ... and the turn owner's play refused as out of turn: whose turn it is
    owner = signature("rejected", codes=("", "not-your-turn"), decision="play",
                      action={"player": 2, "play": "R5"}, before=before, events=D2,
                      players=3, ruleset="classic-official", previous=REVERSED)
    assert owner.group.rule == "CL.REVERSE.EFFECT"


def test_whose_play_follows_a_card_without_a_turn_effect_is_the_cards_turn_rule() -> None:
    """The turn after a number card is CL.PLAY.ONE-CARD, not the rule that let it be played;
    after a Flip card FL.FLIP.NEXT-PLAYER, not the side change (the planted bug flip-skips
    was named FL.FLIP.SIDE-CHANGE)."""
    number = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "R5"}]
    assert governing_rule("current", number, players=3, ruleset="classic-official",
                          after="play") == "CL.PLAY.ONE-CARD"
    assert governing_rule("top", number, players=3, after="play") == "CL.PLAY.DISCARD-FACE-UP"
    flip = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "RF"},
            {"kind": "flipped", "player": 0, "rule": "FL.FLIP.SIDE-CHANGE", "card": "B3"}]
    assert governing_rule("pending.player", flip, players=3, ruleset="flip",
                          after="play") == "FL.FLIP.NEXT-PLAYER"
    assert governing_rule("side", flip, players=3, ruleset="flip") == "FL.FLIP.SIDE-CHANGE"
    # after a Wild Shuffle Hands, CL18.WSH.NEXT, not the deal (CL18.WSH.DEAL) nor the play
    # (the planted bug wsh-plays-again was named CL.PLAY.ONE-CARD)
    wsh = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "WSH"},
           {"kind": "hands-shuffled", "player": 0, "rule": "CL18.WSH.DEAL"}]
    cards_2018 = "classic-official+cards-2018"
    assert governing_rule("pending.player", wsh, players=3, ruleset=cards_2018,
                          after="play") == "CL18.WSH.NEXT"
    assert governing_rule("hand_sizes.1", wsh, players=3, ruleset=cards_2018,
                          after="play") == "CL18.WSH.DEAL"
    # a Wild Draw Four's victim is asked to challenge: not a turn's play
    wd4 = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "W4"}]
    assert governing_rule("pending.decision", wd4, players=3, ruleset="classic-official",
                          after="challenge") != "CL.PLAY.ONE-CARD"


def test_an_event_of_no_seat_that_moves_every_hand_governs_each_hand() -> None:
    """A Seven-O 0 rotates every hand (`hands-rotated`, no seat): it governs the hand of the
    0's player too, not the play (the planted bug zero-two-players was named CL.PLAY.MATCH);
    with two players, V.SEVENO.TWO-PLAYERS."""
    zero = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "R0"},
            {"kind": "hands-rotated", "player": None, "rule": "V.SEVENO.ZERO-ROTATE"}]
    seven_o = "classic-official+seven-o"
    assert governing_rule("hand_sizes.0", zero, players=3, ruleset=seven_o) == \
        "V.SEVENO.ZERO-ROTATE"
    assert governing_rule("hands.1", zero, players=2, ruleset=seven_o) == \
        "V.SEVENO.TWO-PLAYERS"
    assert governing_rule("hand_sizes.0", D2, players=3) == "CL.PLAY.MATCH"  # a seat's own


def test_a_decision_a_card_opens_is_named_by_the_rule_that_opens_it() -> None:
    """No event names the swap a Seven-O 7 opens (the planted bug seven-no-swap was named
    CL.PLAY.MATCH) nor a Wild Draw Four's challenge decision."""
    seven = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "R7"}]
    assert governing_rule("pending.decision", seven, players=3,
                          ruleset="classic-official+seven-o", after="swap") == \
        "V.SEVENO.SEVEN-PENDING"
    wild = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "WSW"}]
    assert governing_rule("pending.decision", wild, players=3,
                          ruleset="classic-official+swap-hands", after="swap") == \
        "V.SWAP.TARGET"
    wd4 = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "W4"}]
    assert governing_rule("pending.decision", wd4, players=3, ruleset="classic-official",
                          after="challenge") == "CL.WD4.CHALLENGE.DECISION"


def test_a_difference_in_the_listed_actions_is_named_by_the_rule_of_the_play_listed_once() -> None:
    """`legal_actions` differs: the rule is that of the first play one side lists alone, not
    the step's (the planted bug wild-last-resort, a plain Wild left out of the list, was
    named CL.PLAY.MATCH, one group per rule of the step before)."""
    from conformance.blame import listing_rule

    at = {"top": "R5", "active_color": "red", "pending": {"player": 1, "decision": "play"}}

    def plays(*cards: str, player: int = 1) -> list[dict[str, Any]]:
        return [{"player": player, "draw": True}] + [{"player": player, "play": c}
                                                     for c in cards]

    official = "classic-official"
    everything = plays("W", "R9", "B5", "BS", "W4")
    assert listing_rule((everything, plays("R9", "B5", "BS", "W4")), at,
                        official) == "CL.PLAY.WILD-ANYTIME"
    assert listing_rule((everything, plays("W", "B5", "BS", "W4")), at,
                        official) == "CL.PLAY.MATCH-COLOUR"
    assert listing_rule((everything, plays("W", "R9", "BS", "W4")), at,
                        official) == "CL.PLAY.MATCH-NUMBER"
    skip = {**at, "top": "RS"}
    assert listing_rule((plays("BS"), plays()), skip, official) == "CL.PLAY.MATCH-SYMBOL"
    on_wild = {**at, "top": "W"}
    assert listing_rule((plays("R2"), plays()), on_wild, official) == "CL.PLAY.MATCH-ON-WILD"
    # listed by the implementation alone: a card that matches nothing
    assert listing_rule((plays(), plays("GD2")), at, official) == "CL.PLAY.MATCH"
    # the same lists in another order, a play's `uno` flag, case: no difference, no rule
    assert listing_rule((plays("R9", "W"), [{"player": 1, "play": "w", "uno": True},
                                            {"player": 1, "play": "r9"},
                                            {"player": 1, "draw": True}]), at, official) is None
    # not the turn's play (another seat's jump-in), a Wild Draw Four, another game: None
    assert listing_rule((plays("R5", player=2), plays(player=2)), at, official) is None
    assert listing_rule((plays("W4"), plays()), at, official) is None
    assert listing_rule((everything, plays("R9")), at, "flip") is None


def test_the_run_and_the_fuzzer_name_a_listing_difference_alike() -> None:
    """A `legal_actions` mismatch of a `conformance run` result gets the rule `conformance
    diff` gave it (the confirmation compares the two)."""
    from conformance.blame import result_signature, signature

    at = {"top": "R5", "active_color": "red", "pending": {"player": 1, "decision": "play"}}
    ref = [{"player": 1, "play": "W"}, {"player": 1, "draw": True}]
    imp = [{"player": 1, "draw": True}]
    played = [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH", "card": "R5"}]
    common = {"decision": "play", "events": played, "players": 2, "ruleset": "classic-official",
              "after": "play"}
    fuzzed = signature("observation", mismatches=["legal_actions"], listed=(ref, imp), at=at,
                       **common)
    # as `compare` writes it: what the reference lists alone, what the implementation does
    result = {"outcome": "failed", "step": 1, "step_kind": "expect",
              "mismatches": [{"key": "legal_actions",
                              "expected": {"not listed": [{"player": 1, "play": "W"}]},
                              "observed": {"listed": []}}]}
    ran = result_signature(result, at=at, **common)
    assert ran == fuzzed and fuzzed.rule == "CL.PLAY.WILD-ANYTIME"


def test_a_draw_listed_by_the_reference_alone_is_the_voluntary_draw() -> None:
    """RLCard lists `draw` only when nothing can be played: at a play decision where the player
    could play, the draw the reference alone lists is CL.DRAW.UNWILLING, in the fuzzer (both
    whole lists) and in the run (only the differences, the whole list in `at`) alike; and the
    group is that of the decision listed at (a turn begun at the set-up is a play decision
    there), not the deciding step's. With nothing playable, no rule of a draw is guessed."""
    from conformance.blame import listing_rule, result_signature, signature

    ref = [{"player": 1, "play": "R9"}, {"player": 1, "draw": True}]
    imp = [{"player": 1, "play": "R9"}]
    at = {"top": "R5", "active_color": "red", "pending": {"player": 1, "decision": "play"},
          "legal_actions": ref}
    official = "classic-official"
    assert listing_rule((ref, imp), at, official) == "CL.DRAW.UNWILLING"
    assert listing_rule((ref[1:], []), at, official) == "CL.DRAW.UNWILLING"  # the run's form
    forced = {**at, "legal_actions": ref[1:]}  # nothing playable: the draw is forced
    assert listing_rule((ref[1:], []), forced, official) is None
    other = {**at, "pending": {"player": 0, "decision": "play"}}  # not the listed player's turn
    assert listing_rule((ref, imp), other, official) is None
    common = {"decision": "setup", "events": [], "players": 2, "ruleset": official,
              "after": "play"}
    fuzzed = signature("observation", mismatches=["legal_actions"], listed=(ref, imp), at=at,
                       **common)
    result = {"outcome": "failed", "step": None, "step_kind": "expect",
              "mismatches": [{"key": "legal_actions", "expected": {"not listed": ref[1:]},
                              "observed": {"listed": []}}]}
    assert result_signature(result, at=at, **common) == fuzzed
    assert (fuzzed.rule, fuzzed.decision) == ("CL.DRAW.UNWILLING", "play")


def test_a_listing_difference_after_a_draw_is_named_by_the_drawn_cards_decision() -> None:
    """After a playable card is drawn (a `play-drawn` decision), what one side alone lists is
    named by that decision's rules, whatever rule the draw itself followed: uno-game, which
    makes the player play it, leaves out the pass (CL.DRAW.KEEP); uno-engine, which lets any
    matching card be played or a card drawn again, lists more (CL.DRAW.ONLY-DRAWN, the rule the
    reference refuses both by); leaving out the drawn card is CL.DRAW.PLAY-DRAWN. Each is one
    group at the `play-drawn` decision, in the fuzzer and in the run alike; a drawn Wild listed
    without a colour is not another card, and another seat's listing is not the drawer's."""
    from conformance.blame import listing_rule, result_signature, signature

    def drew(*cards: str, player: int = 0, draw: bool = False,
             kept: bool = True) -> list[dict[str, Any]]:
        return ([{"player": player, "play": c} for c in cards]
                + ([{"player": player, "pass": True}] if kept else [])
                + ([{"player": player, "draw": True}] if draw else []))

    ref = drew("G2") + [{"player": 0, "play": "G2", "uno": True}]
    at = {"top": "G8", "active_color": "green",
          "pending": {"player": 0, "decision": "play-drawn"}, "legal_actions": ref}
    official = "classic-official"
    assert listing_rule((ref, drew("G2", kept=False)), at, official) == "CL.DRAW.KEEP"
    assert listing_rule((ref, drew()), at, official) == "CL.DRAW.PLAY-DRAWN"
    assert listing_rule((ref, drew("G2", "G5")), at, official) == "CL.DRAW.ONLY-DRAWN"
    assert listing_rule((ref, drew("G2", draw=True)), at, official) == "CL.DRAW.ONLY-DRAWN"
    wild = [{"player": 0, "play": "W", "color": c} for c in ("red", "blue")] + drew()
    assert listing_rule((wild, wild + drew("W")), {**at, "legal_actions": wild},
                        official) is None  # the drawn Wild itself, without a colour
    other = {**at, "pending": {"player": 1, "decision": "play-drawn"}}
    assert listing_rule((ref, drew("G2", kept=False)), other, official) is None
    signatures = set()
    for rule in ("CL.DRAW.UNABLE", "CL.DRAW.UNWILLING"):  # the draw's own rule: not the name
        common = {"decision": "play", "players": 2, "ruleset": official, "after": "play-drawn",
                  "events": [{"kind": "drew", "player": 0, "rule": rule}]}
        for imp, lone in ((drew("G2", kept=False), {"not listed": drew()}),
                          (drew("G2", "G5", draw=True), {"listed": drew("G5", draw=True,
                                                                         kept=False)})):
            fuzzed = signature("observation", mismatches=["legal_actions"], listed=(ref, imp),
                               at=at, **common)
            result = {"outcome": "failed", "step": 1, "step_kind": "expect",
                      "mismatches": [{"key": "legal_actions",
                                      "expected": lone if "not listed" in lone else
                                      {"not listed": []}, "observed": lone if "listed" in lone
                                      else {"listed": []}}]}
            assert result_signature(result, at=at, **common) == fuzzed
            signatures.add((fuzzed.what, fuzzed.decision, fuzzed.rule))
    assert signatures == {("legal_actions", "play-drawn", "CL.DRAW.KEEP"),
                          ("legal_actions", "play-drawn", "CL.DRAW.ONLY-DRAWN")}


@pytest.mark.parametrize("answer", ["x", None, 5, {"a": 1}, [[[]]], [1, "a", None],
                                    [{"player": 1, "play": {"nested": [1]}}]])
def test_a_malformed_list_of_actions_is_a_mismatch_named_by_what_it_lacks(answer: Any) -> None:
    """An implementation that declares `legal_actions` and answers garbage (not a list, not
    actions, nested) is judged, never crashes the comparison: the reference's list is the
    mismatch, named by its play's rule."""
    from conformance import compare as cmp
    from conformance.blame import listing_rule

    at = {"top": "R5", "active_color": "red", "pending": {"player": 1, "decision": "play"}}
    want = cmp.normalize("legal_actions", [{"player": 1, "play": "W"}])
    got = cmp.compare({"legal_actions": want}, {"legal_actions": answer})
    assert [(m.key, m.expected) for m in got] == [("legal_actions", {"not listed": want})]
    assert listing_rule((want, answer), at, "classic-official") == "CL.PLAY.WILD-ANYTIME"


def test_a_huge_list_of_actions_is_judged_as_its_set() -> None:
    """Ten thousand copies of one play are that play once: a card matching nothing, listed by
    the implementation alone (CL.PLAY.MATCH)."""
    from conformance import compare as cmp
    from conformance.blame import listing_rule

    at = {"top": "R5", "active_color": "red", "pending": {"player": 1, "decision": "play"}}
    want = cmp.normalize("legal_actions", [{"player": 1, "play": "W"}])
    answer = [{"player": 1, "play": "W"}] + [{"player": 1, "play": "G2"}] * 10_000
    got = cmp.compare({"legal_actions": want}, {"legal_actions": answer})
    assert [(m.key, m.expected, m.observed) for m in got] == \
        [("legal_actions", {"not listed": []}, {"listed": [{"player": 1, "play": "G2"}]})]
    assert listing_rule((want, answer), at, "classic-official") == "CL.PLAY.MATCH"


def test_the_top_after_a_first_card_returned_is_the_returns() -> None:
    # CL.FIRST.WD4: a Wild Draw Four turned first goes back and another card is turned; the
    # top differs where it stayed: the return decides it, not the card turned after it
    turned = [{"kind": "first-card", "player": None, "rule": "CL.DEAL.FIRST-DISCARD",
               "card": card} for card in ("W4", "RR")]
    assert governing_rule("top", turned, players=3, ruleset="classic-official") == \
        "CL.FIRST.WD4"
    # what the card turned last does is its own rule (a Reverse: the direction, the turn)
    assert governing_rule("direction", turned, players=3, ruleset="classic-official") == \
        "CL.FIRST.REVERSE"
    assert governing_rule("top", turned[1:], players=3, ruleset="classic-official") == \
        "CL.FIRST.REVERSE"
    # one side left the Wild Draw Four on top, the other turned a Reverse after it: the tops
    # differ, and so do the direction and the turn, which follow from the top
    sig = signature("observation", mismatches=["direction", "current", "top", "active_color"],
                    decision="setup", events=turned, players=3, ruleset="classic-official")
    assert (sig.what, sig.rule) == ("top", "CL.FIRST.WD4")


def test_a_wild_draw_four_listed_by_the_reference_alone_is_named_by_what_allows_it() -> None:
    """The reference lists every Wild Draw Four its player holds (CL.WD4.BLUFF-ACCEPTED: a bluff
    is a play); an implementation that lists one only when it is legal, or never, breaks the
    rule that allows it there, the one `allowing_rule` names for the play itself."""
    from conformance.blame import allowing_rule, listing_rule

    pending = {"player": 0, "decision": "play"}
    official = "classic-official"

    def at(hand: list[str], playable: list[str]) -> dict[str, Any]:
        return {"top": "R5", "active_color": "red", "pending": pending,
                "hands": {"0": hand, "1": ["B1"]},
                "legal_actions": [{"player": 0, "play": c} for c in playable]}

    for hand, playable, rule in [
            (["W4", "R9"], ["W4", "R9"], "CL.WD4.BLUFF-ACCEPTED"),  # holds the colour in force
            (["W4", "B5"], ["W4", "B5"], "CL.WD4.LEGAL-OTHER-MATCHES"),  # another card matches
            (["W4", "B1"], ["W4"], "CL.WD4.LEGAL")]:
        where = at(hand, playable)
        without = [a for a in where["legal_actions"] if a["play"] != "W4"]
        assert listing_rule((where["legal_actions"], without), where, official) == rule
        before = {**where, "playable": playable}
        assert allowing_rule({"player": 0, "play": "W4", "color": "blue"},
                             [{"kind": "played", "player": 0, "rule": "CL.PLAY.MATCH"}],
                             before=before, ruleset=official) == rule
    # without the hands it cannot tell: no rule (the step's)
    bare = {k: v for k, v in at(["W4", "R9"], ["W4", "R9"]).items() if k != "hands"}
    assert listing_rule(([{"player": 0, "play": "W4"}], []), bare, official) is None


def test_a_crash_at_a_deal_that_returned_its_first_card_is_the_returns() -> None:
    # uno-game hangs on a Wild Draw Four turned first: whatever card the reference turned
    # after returning it, the deal's crash is the return's (one group, CL.FIRST.WD4)
    for after in ("R0", "GS", "GD2"):
        turned = [{"kind": "first-card", "player": None, "rule": "CL.DEAL.FIRST-DISCARD",
                   "card": card} for card in ("W4", after)]
        for kind in ("crash", "hang", "setup-refused"):
            sig = signature(kind, codes=("", "uno-game-hung"), decision="setup", events=turned,
                            players=2, ruleset="classic-official")
            assert sig.rule == "CL.FIRST.WD4", (after, kind)
    # a deal that turned one card: that card's rule
    one = [{"kind": "first-card", "player": None, "rule": "CL.DEAL.FIRST-DISCARD", "card": "GS"}]
    assert signature("crash", decision="setup", events=one, players=2,
                     ruleset="classic-official").rule == "CL.FIRST.SKIP"


def test_a_first_card_is_named_by_its_rulesets_policy_for_it() -> None:
    """A card turned first is named by the rule of the policy its ruleset's `first_card` gives
    its kind (spec/rulesets), not by classic-official's alone: classic-2022 ignores an action
    card or Wild and turns another (CL22.FIRST.IGNORE: a first Draw Two that acts breaks it);
    classic-guide's action cards only set the colour and its Wilds go back; a 2018 Wild has
    its own rule (CL18.FIRST-CARD, V.SWAP.FIRST-CARD); a Flip card by its light face, under
    Flip's rules (FL.FIRST.*)."""
    def turned(*cards: str) -> list[dict[str, Any]]:
        return [{"kind": "first-card", "player": None, "rule": "CL.DEAL.FIRST-DISCARD",
                 "card": c} for c in cards]

    for ruleset, cards, rule in [
            ("classic-2022", ("BD2", "R0"), "CL22.FIRST.IGNORE"),
            ("classic-2022+jump-in", ("W", "R0"), "CL22.FIRST.IGNORE"),
            ("classic-guide", ("W4", "G3"), "GUIDE.FIRST.WILD-BACK"),
            ("classic-guide", ("RS",), "GUIDE.FIRST.COLOUR-ONLY"),
            ("classic-official", ("W4", "RR"), "CL.FIRST.WD4"),
            ("classic-official", ("Y7",), "CL.FIRST.NUMBER"),
            ("classic-official+cards-2018", ("WSH",), "CL18.FIRST-CARD"),
            ("classic-official+swap-hands", ("WSW",), "V.SWAP.FIRST-CARD"),
            ("classic-2022", ("G7",), "CL.FIRST.NUMBER"),
            ("flip", ("BD1/PS",), "FL.FIRST.DRAW-ONE"),
            ("flip", ("W2/PD5", "R5/O5"), "FL.FIRST.WILD-DRAW-TWO"),
            ("flip", ("RF/TF",), "FL.FIRST.FLIP"),
            ("flip", ("Y3/O6",), "FL.FIRST.NUMBER")]:
        assert governing_rule("top", turned(*cards), players=2, ruleset=ruleset) == rule, \
            (ruleset, cards)
    # a ruleset the spec does not know, a card the notation does not name: the event's rule
    assert governing_rule("top", turned("RD2"), players=2, ruleset="classic-nonesuch") == \
        "CL.DEAL.FIRST-DISCARD"
    assert governing_rule("top", turned("RQ7"), players=2, ruleset="classic-official") == \
        "CL.DEAL.FIRST-DISCARD"


def test_a_play_by_another_seat_only_the_implementation_lists_is_named_by_its_refusal() -> None:
    """A play by a seat other than the one to act that only the implementation lists is named
    by the reference's refusal of it there: under Jump-In a card of the top's number in another
    colour, V.JUMPIN.NOT-MATCHING; without it, the turn order, CL.PLAY.OUT-OF-TURN. Without the
    refusal no rule is guessed (the step's)."""
    from conformance.blame import listing_rule, reference_oracle, reference_refusal

    setup = {"players": 3, "dealer": 2, "start": "turn", "current": 0,
             "direction": "clockwise", "hands": {"0": ["R9", "G1"], "1": ["B5", "R5"],
                                                 "2": ["Y2", "Y3"]},
             "discard": ["R5"], "active_color": "red", "draw": ["G4", "G6", "G7"]}
    keys = ["top", "active_color", "pending", "legal_actions", "hands"]
    for ruleset, rule in [("classic-official+jump-in", "V.JUMPIN.NOT-MATCHING"),
                          ("classic-official", "CL.PLAY.OUT-OF-TURN")]:
        oracle = reference_oracle()
        assert oracle.setup({"ruleset": ruleset, "seed": 0, "setup": setup}) is None
        at = oracle.observe(keys)
        ref = at["legal_actions"]
        other = {"player": 1, "play": "B5"}
        assert other not in ref
        assert listing_rule((ref, [*ref, other]), at, ruleset, reference_refusal(oracle)) == \
            rule, ruleset
        assert listing_rule((ref, [*ref, other]), at, ruleset) is None


def test_a_hand_holding_more_after_a_draw_is_named_by_the_draw() -> None:
    """After a draw, what follows is the drawn card's decision (CL.DRAW.PLAY-DRAWN,
    CL.DRAW.UNPLAYABLE-PASSES); but a drawer's hand holding more cards than the reference's drew
    more than the one card the draw allows: the draw's own rule (CL.DRAW.UNABLE, "exactly one
    card"; CL.DRAW.UNWILLING)."""
    for rule in ("CL.DRAW.UNABLE", "CL.DRAW.UNWILLING"):
        drew = [{"kind": "drew", "player": 0, "rule": rule}]
        for key in ("hand_sizes.0", "hands.0"):
            assert governing_rule(key, drew, players=3, after="play", extra=True) == rule
            assert governing_rule(key, drew, players=3, after="play") == \
                "CL.DRAW.UNPLAYABLE-PASSES"
            assert governing_rule(key, drew, players=3, after="play-drawn") == \
                "CL.DRAW.PLAY-DRAWN"
        # the turn after it is still the drawn card's decision
        assert governing_rule("current", drew, players=3, after="play", extra=True) == \
            "CL.DRAW.UNPLAYABLE-PASSES"


def test_a_card_listed_by_the_implementation_alone_is_named_by_the_references_refusal() -> None:
    """A card only the implementation lists is named by the rule the reference refuses it by
    at that position (`reference_refusal`, asked of the reference itself), at any decision: a
    Draw Two on a stacked Wild Draw Four, V.STACK.NO-CROSS, not the base matching rule; without
    the refusal, a coloured card at a play decision stays CL.PLAY.MATCH. The refusal is asked
    once per action; an action the reference accepts leaves it `moved`, and then no rule."""
    from conformance.blame import listing_rule, reference_oracle, reference_refusal

    ruleset = "classic-official+stacking"
    oracle = reference_oracle()
    setup = {"players": 2, "dealer": 1, "start": "turn", "current": 0,
             "direction": "clockwise", "hands": {"0": ["W4", "Y3"], "1": ["RD2", "B9"]},
             "discard": ["B6"], "active_color": "blue", "draw": ["G1", "G2", "G3", "G4"]}
    assert oracle.setup({"ruleset": ruleset, "seed": 0, "setup": setup}) is None
    assert oracle.act({"player": 0, "play": "W4", "color": "green"}) is None
    at = oracle.observe(["top", "active_color", "pending", "legal_actions", "hands"])
    ref = at["legal_actions"]
    cross = {"player": 1, "play": "RD2"}
    assert cross not in ref  # a Draw Two does not go on a Wild Draw Four's stack
    refusal = reference_refusal(oracle)
    assert listing_rule((ref, [*ref, cross]), at, ruleset, refusal) == "V.STACK.NO-CROSS"
    assert refusal.asked == {'{"play": "RD2", "player": 1}': "V.STACK.NO-CROSS"}
    assert oracle.observe(["legal_actions"])["legal_actions"] == ref  # the refusal changed nothing
    assert listing_rule((ref, [*ref, cross]), at, ruleset) != "V.STACK.NO-CROSS"
    # at a play decision, without the refusal: the matching rule
    plain = {"top": "B6", "active_color": "blue", "pending": {"player": 1, "decision": "play"}}
    assert listing_rule(([], [{"player": 1, "play": "RD2"}]), plain, "classic-official") == \
        "CL.PLAY.MATCH"
    # an action the reference accepts: it moved, and names nothing from there on
    accepted = reference_refusal(oracle)
    assert accepted(ref[0]) is None and accepted.moved
    assert accepted(cross) is None


def test_the_references_refusal_survives_hostile_answers_and_rulesets() -> None:
    """`reference_refusal` takes only a string rule from a mapping answer: an answer of another
    shape, a rule that is not a string or is empty, an adapter error, give no rule (and an
    acceptance, None, leaves it `moved`); `first_card_rule` names nothing for a ruleset the
    spec does not know, however it is spelt, nor for a card the notation does not name."""
    from conformance.blame import first_card_rule, reference_refusal
    from conformance.protocol import AdapterError

    class Oracle:
        def __init__(self, answer: Any) -> None:
            self.answer, self.asked = answer, 0

        def act(self, action: dict[str, Any]) -> Any:
            self.asked += 1
            if isinstance(self.answer, BaseException):
                raise self.answer
            return self.answer

    play = {"player": 0, "play": "R5"}
    for answer in (["code", "rule"], "card-does-not-match", 7, {"code": "x", "rule": 5},
                   {"code": "x", "rule": ""}, {"code": "x"}, {"rule": ["V.STACK.NO-CROSS"]},
                   AdapterError("timeout", "no answer")):
        oracle = Oracle(answer)
        refusal = reference_refusal(oracle)
        assert refusal(play) is None and refusal(play) is None, answer
        assert oracle.asked == 1 and not refusal.moved  # asked once per action
    accepting = reference_refusal(Oracle(None))
    assert accepting(play) is None and accepting.moved
    assert accepting({"player": 1, "draw": True}) is None and accepting.oracle.asked == 1
    for ruleset in ("classic-official++", "classic-" + "x" * 10_000, "../../etc/passwd",
                    "classic-official+../../spec", "classic\x00", ""):
        assert first_card_rule("RD2", ruleset) is None, ruleset[:40]
    for card in ("", "/", "RQ7", "R" * 10_000, "W4/" * 100):
        assert first_card_rule(card, "classic-official") is None, card[:40]


def test_a_drawn_card_played_by_the_implementation_is_one_group_whatever_it_changed() -> None:
    """RLCard plays a playable drawn card itself. Without a reshuffle the decision the
    reference asks next (`play-drawn`) differs, one group; after one, each side drew another
    card, the decision is not compared, and the card RLCard played showed as a `top`, an
    `active_color` or a `direction` group (3 more groups of one deviation in its report),
    some named CL.DRAW.UNPLAYABLE-PASSES when the reference's own card could not be played.
    The examples are RLCard's (docs/compliance/diff/rlcard.json): a draw by seat 1 after a
    reshuffle, its hand one card short, and the card played shown on the table."""
    from conformance.blame import played_drawn

    draw = {"player": 1, "draw": True}
    reshuffled = {"kind": "reshuffled", "player": None, "rule": "CL.RESHUFFLE.KEEP-TOP"}
    drew = {"kind": "drew", "player": 1, "rule": "CL.DRAW.UNABLE"}
    passed = {"kind": "passed", "player": 1, "rule": "CL.DRAW.UNPLAYABLE-PASSES"}
    want = Signature("observation", "pending.decision", "play", "CL.DRAW.PLAY-DRAWN")
    for shown, events, after in (
            (["draw_size", "hand_sizes.1", "top"], [reshuffled, drew], "play-drawn"),
            (["active_color", "draw_size", "hand_sizes.1", "top"], [reshuffled, drew, passed],
             "play"),
            (["direction", "draw_size", "hand_sizes.1"], [reshuffled, drew], "play-drawn")):
        sig = signature("observation", mismatches=shown, decision="play", events=events,
                        players=2, ruleset="classic-official", after=after, action=draw,
                        fewer={"hand_sizes.1": 1})
        assert sig == want, shown
    # unshuffled, with the decision compared: the same group as before
    plain = signature("observation", mismatches=["discard_size", "hand_sizes.1", "hands.1",
                                                 "pending.decision", "pending.player", "top"],
                      decision="play", events=[drew], players=2, ruleset="classic-official",
                      after="play-drawn", action=draw, more=("discard_size",),
                      fewer={"hand_sizes.1": 1, "hands.1": 1})
    assert plain == want
    # not a card played: a draw that gave nothing (no table change), a pile that ran out, a
    # hand other than the drawer's, a step that was no draw, a whole hand gone (skilluno lays
    # a hand over its limit on the pile: 16 cards fewer, the top another)
    one = {"hand_sizes.1": 1}
    assert not played_drawn(draw, [drew], ["draw_size", "hand_sizes.1"], (), one)
    short = {"kind": "exhausted", "player": 1, "rule": "CL.RESHUFFLE.BOTH-EMPTY"}
    assert not played_drawn(draw, [short, drew], ["top", "hand_sizes.1"], (), one)
    assert not played_drawn(draw, [drew], ["top", "hand_sizes.0"], (), {"hand_sizes.0": 1})
    assert not played_drawn({"player": 1, "play": "R1"}, [drew], ["top", "hand_sizes.1"], (),
                            one)
    assert not played_drawn(draw, [drew], ["top", "hand_sizes.1"], ("discard_size",),
                            {"hand_sizes.1": 16})
    assert played_drawn(draw, [drew], ["hand_sizes.1"], ("discard_size",), one)


def test_fewer_cards_names_the_hands_that_hold_fewer_than_the_references() -> None:
    from conformance.blame import fewer_cards, more_cards
    from conformance.compare import Mismatch

    found = [Mismatch("hand_sizes.1", 2, 1), Mismatch("hands.0", ["R1"], ["R1", "G2"]),
             Mismatch("discard_size", 2, 1), Mismatch("top", "R1", "G2"),
             Mismatch("hand_sizes.2", True, 0)]
    assert fewer_cards(found) == {"hand_sizes.1": 1, "discard_size": 1}
    assert more_cards(found) == ("hands.0",)
    as_json = [{"key": m.key, "expected": m.expected, "observed": m.observed} for m in found]
    assert fewer_cards(as_json) == {"hand_sizes.1": 1, "discard_size": 1}


def test_a_direction_changed_by_a_draw_that_found_no_card_is_the_empty_piles_rule() -> None:
    """rlcard-uno, drawing with both piles empty under a Reverse, takes the Reverse back into
    its deck, draws it and plays it: only the direction differs (two players). Nothing was
    drawn, play continues (CL.RESHUFFLE.BOTH-EMPTY): not the rule of a drawn card that cannot
    be played (CL.DRAW.UNPLAYABLE-PASSES), which named it."""
    events = [{"kind": "exhausted", "player": 1, "rule": "CL.RESHUFFLE.BOTH-EMPTY", "count": 0},
              {"kind": "drew", "player": 1, "rule": "CL.DRAW.UNABLE", "count": 0},
              {"kind": "passed", "player": 1, "rule": "CL.RESHUFFLE.BOTH-EMPTY"}]
    sig = signature("observation", mismatches=["direction"], decision="play", events=events,
                    players=2, ruleset="classic-official", after="play",
                    action={"player": 1, "draw": True})
    assert sig == Signature("observation", "direction", "play", "CL.RESHUFFLE.BOTH-EMPTY")
    assert governing_rule("pending.player", events, players=2, after="play") == \
        "CL.RESHUFFLE.BOTH-EMPTY"
