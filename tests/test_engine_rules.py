"""One test (at least) per rule ID of classic-official / classic-2022; each names its rule."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import filler, game, hand, refused

from uno_fsm import Action, Game
from uno_fsm.actions import Pending
from uno_fsm.cards import parse
from uno_fsm.checks import Snap
from uno_fsm.oracle import Facts, postconditions
from uno_fsm.params import Params

C = parse




# ---- matching ---------------------------------------------------------------------------
def test_CL_PLAY_MATCH_COLOUR_NUMBER_SYMBOL() -> None:
    """CL.PLAY.MATCH, CL.PLAY.MATCH-COLOUR, CL.PLAY.MATCH-NUMBER, CL.PLAY.MATCH-SYMBOL,
    CL.PLAY.ILLEGAL-REJECTED."""
    g = game({0: ["R3", "B7", "GS", "Y1"], 1: ["R1"], 2: ["R2"]}, ["B9", "RS"])
    playable = {a.card.text for a in g.legal_actions(0) if a.kind == "play" and a.card}
    assert playable == {"R3", "GS"}
    err = refused(g, Action.play(0, C("Y1")))
    assert (err.code, err.rule) == ("card-does-not-match", "CL.PLAY.MATCH")


def test_CL_PLAY_MATCH_ON_WILD() -> None:
    """CL.PLAY.MATCH-ON-WILD: only the declared colour matches a Wild on top."""
    g = game({0: ["R3", "B7"], 1: ["R1"]}, ["W"], active_color="blue")
    err = refused(g, Action.play(0, C("R3")))
    assert err.rule == "CL.PLAY.MATCH-ON-WILD"
    g.apply(Action.play(0, C("B7")))


def test_CL_PLAY_WILD_ANYTIME_and_WILD_SAME_COLOUR() -> None:
    """CL.PLAY.WILD-ANYTIME, CL.WILD.SAME-COLOUR, CL.WILD.NO-EFFECT."""
    g = game({0: ["R3", "W", "B1"], 1: ["R1", "R2"], 2: ["R2"]}, ["R9"])
    g.apply(Action.play(0, C("W"), "R"))
    assert g.state.active_color == "R" and g.pending and g.pending.player == 1


def test_CL_WILD_COLOUR_required_and_FOUR_COLOURS() -> None:
    """CL.WILD.COLOUR (a Wild without colour is rejected), CL.WILD.FOUR-COLOURS."""
    g = game({0: ["W", "B1"], 1: ["R1"]}, ["R9"])
    assert refused(g, Action.play(0, C("W"))).code == "color-required"
    err = refused(g, Action.play(0, C("W"), "P"))
    assert (err.code, err.rule) == ("invalid-color", "CL.WILD.FOUR-COLOURS")


MUST_CHANGE = Params.of("classic-official").override({"wild": {"must_change_color": True}})


def test_CL_WILD_MUST_CHANGE() -> None:
    """CL.WILD.MUST-CHANGE (the table option `wild.must_change_color`): the colour in force is
    neither listed nor accepted for a Wild or a Wild Draw Four (invalid-color, nothing changes);
    another colour is; without the option it is (CL.WILD.SAME-COLOUR)."""
    g = game({0: ["W", "W4", "B1"], 1: ["R1"], 2: ["R2"]}, ["R9"], ruleset=MUST_CHANGE)
    named = {(a.card.text, a.color) for a in g.legal_actions(0) if a.kind == "play" and a.card}
    assert named == {(w, c) for w in ("W", "W4") for c in "YGB"}
    for wild in ("W", "W4"):
        err = refused(g, Action.play(0, C(wild), "R"))
        assert (err.code, err.rule) == ("invalid-color", "CL.WILD.MUST-CHANGE")
    assert refused(g, Action.play(0, C("W"), "P")).rule == "CL.WILD.FOUR-COLOURS"
    g.apply(Action.play(0, C("W"), "G"))
    assert g.state.active_color == "G"
    plain = game({0: ["W", "B1"], 1: ["R1"]}, ["R9"])
    assert ("W", "R") in {(a.card.text, a.color) for a in plain.legal_actions(0) if a.card}


def test_CL_WILD_MUST_CHANGE_with_no_colour_in_force() -> None:
    """A Wild turned first (CL.FIRST.WILD) leaves no colour in force: under the house rule the
    first player may still name any of the four."""
    g = Game.from_setup(MUST_CHANGE, {"players": 2, "dealer": 1, "start": "round",
                                      "hands": {0: ["R1"], 1: ["B2"]}, "draw": ["W", "G5"]})
    assert g.pending is not None and g.pending.decision == "color"
    assert sorted(a.color for a in g.legal_actions(0) if a.kind == "color") == sorted("RYGB")
    g.apply(Action.choose_color(0, "R"))
    assert g.state.active_color == "R"


def test_the_oracle_checks_CL_WILD_MUST_CHANGE() -> None:
    """An engine that forgets the house rule (its Wild keeps the colour: the move the rulebooks'
    engine makes) is caught by the oracle the fuzzer and the model checker run, judging it by
    the table's parameters; another colour passes."""
    facts = Facts.of("classic-official", MUST_CHANGE.raw)
    for colour, fails in (("R", True), ("G", False)):
        g = game({0: ["W", "B1"], 1: ["R1"], 2: ["R2"]}, ["R9"])  # the option not played
        before, play = Snap.of(g), Action.play(0, C("W"), colour)
        g.apply(play)
        if fails:
            with pytest.raises(AssertionError, match=r"\[CL\.WILD\.MUST-CHANGE\]"):
                postconditions(facts, before, play, g, None)
        else:
            postconditions(facts, before, play, g, None)


def test_CL_PLAY_OUT_OF_TURN_and_TURN_OPTIONS() -> None:
    """CL.PLAY.OUT-OF-TURN, CL.PLAY.TURN-OPTIONS (cannot pass without drawing)."""
    g = game({0: ["R3"], 1: ["R1"], 2: ["R2"]}, ["R9"], ["G1"])
    assert refused(g, Action.play(1, C("R1"))).code == "not-your-turn"
    assert refused(g, Action.draw(2)).code == "not-your-turn"
    assert refused(g, Action.keep(0)).code == "wrong-decision"
    assert refused(g, Action.play(0, C("B5"))).code == "card-not-in-hand"


# ---- drawing ----------------------------------------------------------------------------
def test_CL_DRAW_UNWILLING_then_PLAY_DRAWN() -> None:
    """CL.DRAW.UNWILLING, CL.DRAW.PLAY-DRAWN, CL.DRAW.ONLY-DRAWN."""
    g = game({0: ["R3", "R4"], 1: ["G1", "G2"], 2: ["G2"]}, ["R9"], ["R7", "B2"])
    drew, *_ = g.apply(Action.draw(0))
    assert (drew.kind, drew.rule) == ("drew", "CL.DRAW.UNWILLING")  # R3 could have been played
    assert g.pending and g.pending.decision == "play-drawn" and hand(g, 0)[-1] == "R7"
    err = refused(g, Action.play(0, C("R3")))
    assert (err.code, err.rule) == ("only-drawn-card", "CL.DRAW.ONLY-DRAWN")
    g.apply(Action.play(0, C("R7")))
    assert g.pending and g.pending.player == 1


def test_CL_DRAW_KEEP() -> None:
    """CL.DRAW.KEEP: keep a playable drawn card; the turn passes."""
    g = game({0: ["B3"], 1: ["G1"], 2: ["G2"]}, ["R9"], ["R7"])
    g.apply(Action.draw(0))
    g.apply(Action.keep(0))
    assert hand(g, 0) == ["B3", "R7"] and g.pending and g.pending.player == 1


def test_CL_DRAW_UNPLAYABLE_PASSES() -> None:
    """CL.DRAW.UNABLE, CL.DRAW.UNPLAYABLE-PASSES: no further decision."""
    g = game({0: ["B3"], 1: ["G1"], 2: ["G2"]}, ["R9"], ["Y2", "R1"])
    drew, *_ = g.apply(Action.draw(0))  # then the turn passes (CL.DRAW.UNPLAYABLE-PASSES)
    assert (drew.kind, drew.rule) == ("drew", "CL.DRAW.UNABLE")  # nothing in the hand matches R9
    assert hand(g, 0) == ["B3", "Y2"] and g.pending and g.pending.player == 1
    assert g.pending.decision == "play"


@pytest.mark.parametrize("via", ["apply", pytest.param("apply_via_machine", id="machine_agree")])
def test_a_passed_turn_names_the_rule_that_passed_it(via: str) -> None:
    """The `passed` event named CL.DRAW.KEEP whatever passed the turn, so a deviation after an
    unplayable drawn card, or after a draw that found no card, was blamed on keeping a card
    nobody kept. CL.DRAW.KEEP: the player kept it; CL.DRAW.UNPLAYABLE-PASSES: it cannot be
    played; CL.RESHUFFLE.BOTH-EMPTY: there was nothing to draw, play continues."""
    def passed(draw: list[str], *then: Action) -> list[str | None]:
        g = game({0: ["B3"], 1: ["G1"], 2: ["G2"]}, ["R9"], draw)
        events = getattr(g, via)(Action.draw(0))
        for a in then:
            events = getattr(g, via)(a)
        assert g.pending == Pending(1, "play")
        return [e.rule for e in events if e.kind == "passed"]

    assert passed(["R7"], Action.keep(0)) == ["CL.DRAW.KEEP"]
    assert passed(["Y2"]) == ["CL.DRAW.UNPLAYABLE-PASSES"]
    assert passed([]) == ["CL.RESHUFFLE.BOTH-EMPTY"]


def test_CL_DRAW_DRAWN_WD4() -> None:
    """CL.DRAW.DRAWN-WD4: a drawn WD4 may be played; legality judged on the hand then."""
    g = game({0: ["R3"], 1: ["G1"], 2: ["G2"]}, ["R9"], ["W4", "B1", "B2", "B3", "B4"])
    g.apply(Action.draw(0))
    g.apply(Action.play(0, C("W4"), "B"))
    assert g.state.challenge_legal is False  # R3 matched red
    g.apply(Action.challenge(1))
    assert len(g.state.hands[0]) == 5


# ---- action cards -----------------------------------------------------------------------
def test_CL_SKIP_EFFECT() -> None:
    g = game({0: ["RS", "R1"], 1: ["G1"], 2: ["G2"], 3: ["G3"]}, ["R9"])
    ev = g.apply(Action.play(0, C("RS")))
    assert g.pending and g.pending.player == 2 and any(e.kind == "skipped" for e in ev)


def test_CL_REVERSE_EFFECT_and_NEXT() -> None:
    """CL.REVERSE.EFFECT, CL.REVERSE.NEXT."""
    g = game({0: ["RR", "R1"], 1: ["G1"], 2: ["G2"], 3: ["G3"]}, ["R9"])
    g.apply(Action.play(0, C("RR")))
    assert g.state.direction == -1 and g.pending and g.pending.player == 3


def test_CL_D2_EFFECT_and_NO_STACK() -> None:
    """CL.D2.EFFECT, CL.D2.NO-STACK, V.STACK.NOT-OFFICIAL, CL.PEN.FROM-DRAW-PILE, CL.D2.MATCH."""
    g = game({0: ["GD2", "RD2", "B1"], 1: ["G1"]}, ["Y1", "BD2"])
    assert {a.card.text for a in g.legal_actions(0) if a.kind == "play" and a.card} == {
        "GD2", "RD2", "B1"}
    g = game({0: ["RD2", "R1"], 1: ["GD2"], 2: ["G2"]}, ["R9"], ["B1", "B2", "B3"])
    g.apply(Action.play(0, C("RD2")))
    assert hand(g, 1) == ["GD2", "B1", "B2"] and g.pending and g.pending.player == 2


# ---- Wild Draw Four ---------------------------------------------------------------------
def wd4_game(legal: bool) -> Game:
    h0 = ["W4", "B5", "G1"] if legal else ["W4", "R5", "G1"]
    return game({0: h0, 1: ["Y3", "Y7"], 2: ["R2"]}, ["R9"],
                ["B1", "B2", "B3", "B4", "B6", "B7", "G2"])


def test_CL_WD4_ACCEPT() -> None:
    """CL.WD4.EFFECT, CL.WD4.CHALLENGE.DECISION, CL.WD4.ACCEPT."""
    g = wd4_game(legal=True)
    g.apply(Action.play(0, C("W4"), "G"))
    assert g.pending and (g.pending.player, g.pending.decision) == (1, "challenge")
    assert refused(g, Action.play(1, C("Y3"))).code == "wrong-decision"
    g.apply(Action.accept(1))
    assert len(g.state.hands[1]) == 6 and g.pending and g.pending.player == 2


def test_CL_WD4_CHALLENGE_WHO() -> None:
    g = wd4_game(legal=True)
    g.apply(Action.play(0, C("W4"), "G"))
    err = refused(g, Action.challenge(2))
    assert (err.code, err.rule) == ("not-challengeable", "CL.WD4.CHALLENGE.WHO")
    g2 = wd4_game(legal=True)
    assert refused(g2, Action.challenge(0)).code == "not-challengeable"


def test_CL_WD4_CHALLENGE_INNOCENT() -> None:
    """CL.WD4.LEGAL-OTHER-MATCHES, CL.WD4.CHALLENGE.INNOCENT, CL.WD4.CHALLENGE.COLOUR."""
    g = wd4_game(legal=True)
    g.apply(Action.play(0, C("W4"), "G"))
    ev = g.apply(Action.challenge(1))
    assert len(g.state.hands[1]) == 8 and g.pending and g.pending.player == 2
    assert g.state.active_color == "G"
    assert any(e.kind == "shown" and e.count == 1 for e in ev)  # CL.WD4.CHALLENGE.SHOW


def test_CL_WD4_CHALLENGE_GUILTY() -> None:
    """CL.WD4.LEGAL, CL.WD4.BLUFF-ACCEPTED, CL.WD4.CHALLENGE.GUILTY(-TURN)."""
    g = wd4_game(legal=False)
    g.apply(Action.play(0, C("W4"), "G"))  # a bluff is accepted as a play
    g.apply(Action.challenge(1))
    assert len(g.state.hands[0]) == 6 and len(g.state.hands[1]) == 2
    assert g.pending and g.pending.player == 1 and g.state.active_color == "G"


def test_CL_WD4_LEGALITY_TIME_after_a_wild() -> None:
    """CL.WD4.LEGALITY-TIME: judged against the colour declared for the Wild below."""
    g = game({0: ["W4", "R5"], 1: ["Y3"], 2: ["R2"]}, ["W"], ["G1", "G2", "G3", "G4", "G6", "G7"],
             active_color="blue")
    g.apply(Action.play(0, C("W4"), "G", uno=True))
    assert g.state.challenge_legal is True


# ---- UNO call and catch -----------------------------------------------------------------
def test_CL_UNO_CATCH_and_PENALTY() -> None:
    """CL.UNO.MUST-CALL, CL.UNO.CATCH, CL.UNO.CATCH-PENALTY (turn order unchanged)."""
    g = game({0: ["R7", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8", "Y1"])
    g.apply(Action.play(0, C("R7")))
    g.apply(Action.catch(2, 0))
    assert hand(g, 0) == ["B3", "B1", "G8"] and g.pending and g.pending.player == 1


def test_CL_UNO_CALL_WITH_PLAY_and_CALL_LATE() -> None:
    """CL.UNO.CALL-WITH-PLAY, CL.UNO.CALL-LATE, CL.UNO.FALSE-CATCH."""
    g = game({0: ["R7", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8"])
    g.apply(Action.play(0, C("R7"), uno=True))
    assert refused(g, Action.catch(2, 0)).code == "nothing-to-catch"
    g = game({0: ["R7", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8"])
    g.apply(Action.play(0, C("R7")))
    g.apply(Action.call_uno(0))
    err = refused(g, Action.catch(1, 0))
    assert (err.code, err.rule) == ("nothing-to-catch", "CL.UNO.FALSE-CATCH")


def test_CL_UNO_WINDOW_and_LATE_CATCH() -> None:
    """CL.UNO.WINDOW, CL.UNO.LATE-CATCH, CL.UNO.GO-OUT-UNCALLED."""
    g = game({0: ["R7", "B3"], 1: ["G2", "G5"], 2: ["Y4"]}, ["R2"], ["B1", "G8", "Y1"])
    g.apply(Action.play(0, C("R7")))
    g.apply(Action.draw(1))  # the next player begins their turn
    assert refused(g, Action.catch(2, 0)).code == "nothing-to-catch"
    assert refused(g, Action.call_uno(0)).code == "no-uno-window"


def test_CL_UNO_CALL_INVALID_and_NOT_BEFORE() -> None:
    """CL.UNO.CALL-INVALID, CL.UNO.NOT-BEFORE."""
    g = game({0: ["R7", "B3", "B4"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1"])
    err = refused(g, Action.play(0, C("R7"), uno=True))
    assert (err.code, err.rule) == ("no-uno-window", "CL.UNO.CALL-INVALID")
    assert refused(g, Action.call_uno(0)).code == "no-uno-window"
    assert refused(g, Action.catch(1, 0)).code == "nothing-to-catch"


# ---- referee penalties ------------------------------------------------------------------
def test_CL_PEN_HINT_and_HINT_ANYTIME() -> None:
    g = game({0: ["R7", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8"])
    g.apply(Action.hint(2))
    assert len(g.state.hands[2]) == 3 and g.pending and g.pending.player == 0


def test_CL_PEN_WRONG_CARD_and_TURN_OWNER() -> None:
    """CL.PEN.WRONG-CARD, CL.PEN.WRONG-CARD-TURN-OWNER."""
    g = game({0: ["R7", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8"])
    assert refused(g, Action.wrong_card(1, C("G2"))).code == "not-your-turn"
    assert refused(g, Action.wrong_card(0, C("R7"))).code == "wrong-decision"  # R7 matches
    g.apply(Action.wrong_card(0, C("B3")))
    assert hand(g, 0) == ["R7", "B3", "B1", "G8"] and g.pending and g.pending.player == 1


# ---- reshuffle --------------------------------------------------------------------------
def test_CL_RESHUFFLE_KEEP_TOP_and_BOTH_EMPTY() -> None:
    """CL.RESHUFFLE.KEEP-TOP, CL.RESHUFFLE.WHEN, CL.RESHUFFLE.BOTH-EMPTY, CL.RESHUFFLE.CONTINUE."""
    g = game({0: ["RD2", "R1"], 1: ["G2"], 2: ["Y4"]}, ["B1", "G5", "R9"], ["Y9"])
    g.apply(Action.play(0, C("RD2")))
    assert [c.text for c in g.state.discard] == ["RD2"]
    assert hand(g, 1)[:2] == ["G2", "Y9"] and hand(g, 1)[2] in ("B1", "G5", "R9")
    drawn_and_left = Counter(hand(g, 1)[2:] + [c.text for c in g.state.draw])
    assert drawn_and_left == Counter(["B1", "G5", "R9"])
    g = game({0: ["B3"], 1: ["G2"], 2: ["Y4"]}, ["R9"], [])
    g.apply(Action.draw(0))  # nothing to draw: the turn passes
    assert hand(g, 0) == ["B3"] and g.pending and g.pending.player == 1


# ---- end of hand and scoring ------------------------------------------------------------
def test_CL_END_OUT_and_SCORE_WINNER() -> None:
    """CL.END.OUT, CL.SCORE.WINNER, CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS."""
    g = game({0: ["R7"], 1: ["G2", "GS", "W"], 2: ["W4", "Y9"]}, ["R2"])
    g.apply(Action.play(0, C("R7")))
    assert g.round_over and not g.is_over and g.scores == [2 + 20 + 50 + 50 + 9, 0, 0]
    assert g.pending and g.pending.decision == "round-over" and g.winner == 0
    assert refused(g, Action.draw(1)).code == "round-over"  # CL.END.NO-PENDING


def test_CL_END_LAST_D2_and_LAST_WD4() -> None:
    g = game({0: ["RD2"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["R5", "B1"])
    g.apply(Action.play(0, C("RD2")))
    assert hand(g, 1) == ["G2", "R5", "B1"] and g.scores[0] == 2 + 5 + 1 + 4
    g = game({0: ["W4"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["R5", "B1", "B2", "B3"])
    g.apply(Action.play(0, C("W4"), "R"))  # no challenge
    assert g.round_over and g.scores[0] == 2 + 5 + 1 + 2 + 3 + 4


def test_CL_END_LAST_OTHER_wild_without_colour() -> None:
    g = game({0: ["W"], 1: ["G2"], 2: ["Y4"]}, ["R2"])
    g.apply(Action.play(0, C("W")))
    assert g.round_over


def test_CL_SCORE_TARGET_and_ACCUMULATE() -> None:
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], scores={0: 490, 1: 0, 2: 0})
    g.apply(Action.play(0, C("R7")))
    assert g.is_over and g.winner == 0 and g.scores == [503, 0, 0] and g.pending is None
    assert refused(g, Action.next_round()).code == "game-over"


def test_CL22_SCORE_ONE_HAND_and_WILDS_50() -> None:
    """CL22.SCORE.ONE-HAND, CL22.SCORE.WILDS-50, CL18.SCORE."""
    g = game({0: ["R7"], 1: ["WSH"], 2: ["Y4"]}, ["R2"], ruleset="classic-2022+cards-2018")
    g.apply(Action.play(0, C("R7")))
    assert g.is_over and g.winner == 0 and g.scores[0] == 54
    g = game({0: ["R7"], 1: ["WSH"], 2: ["Y4"]}, ["R2"], ruleset="classic-official+cards-2018")
    g.apply(Action.play(0, C("R7")))
    assert g.scores[0] == 44  # CL18.SCORE


def test_CL_END_NEW_HAND_and_DEALER_EACH_HAND() -> None:
    # 22 cards: three hands of 7 and a first card (CL.DEAL.SEVEN, CL.DEAL.FIRST-DISCARD)
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], filler(18, ["R7", "G9", "Y4", "R2"]))
    g.apply(Action.play(0, C("R7")))
    g.apply(Action.next_round())
    st = g.state
    assert st.round == 2 and not g.round_over and len(st.all_cards()) == 22
    assert [len(h) for h in st.hands] == [7, 7, 7] and len(st.discard) == 1


# ---- two players ------------------------------------------------------------------------
@pytest.mark.parametrize("card,rule", [("RS", "CL.TWO.SKIP-AGAIN"), ("RR", "CL.TWO.REVERSE-SKIP"),
                                       ("RD2", "CL.TWO.D2-AGAIN")])
def test_CL_TWO_same_player_again(card: str, rule: str) -> None:
    """CL.TWO.SCOPE: exactly two players."""
    g = game({0: [card, "R1"], 1: ["G2"]}, ["R9"], ["B1", "B2"])
    g.apply(Action.play(0, C(card)))
    assert g.pending and g.pending.player == 0, rule
    if card == "RR":  # CL.TWO.REVERSE-DIRECTION
        assert g.state.direction == -1


def test_CL_TWO_WD4_AGAIN() -> None:
    g = game({0: ["W4", "R1"], 1: ["G2"]}, ["R9"], ["B1", "B2", "B3", "B4"])
    g.apply(Action.play(0, C("W4"), "G"))
    g.apply(Action.accept(1))
    assert g.pending and g.pending.player == 0


# ---- dealing and the first card ---------------------------------------------------------
def round_start(first: list[str], ruleset: str = "classic-official", n: int = 3) -> Game:
    # seat 1 (left of the dealer) holds G1 G2; the others other cards: within the deck
    hands = {s: ["G1", "G2"] if s == 1 else [f"Y{s + 1}", f"B{s + 5}"] for s in range(n)}
    return Game.from_setup(ruleset, {"players": n, "dealer": 0, "start": "round",
                                     "hands": hands, "draw": first + ["B1", "B2", "B3", "B4"]})


def test_CL_FIRST_NUMBER() -> None:
    g = round_start(["R5"])
    assert g.pending and g.pending.player == 1 and g.state.active_color == "R"


def test_CL_FIRST_SKIP_REVERSE_D2() -> None:
    """CL.FIRST.SKIP, CL.FIRST.REVERSE, CL.FIRST.D2."""
    assert round_start(["RS"]).state.current == 2
    g = round_start(["RR"])
    assert g.state.current == 0 and g.state.direction == -1
    g = round_start(["RD2"])
    assert g.state.current == 2 and hand(g, 1) == ["G1", "G2", "B1", "B2"]


def test_CL_FIRST_WILD() -> None:
    g = round_start(["W"])
    assert g.pending and (g.pending.player, g.pending.decision) == (1, "color")
    assert refused(g, Action.play(1, C("G1"))).code == "wrong-decision"
    g.apply(Action.choose_color(1, "G"))
    assert g.pending and (g.pending.player, g.pending.decision) == (1, "play")
    g.apply(Action.play(1, C("G1")))


def test_CL_FIRST_WD4_and_REPEAT() -> None:
    g = round_start(["W4"])
    top = g.state.discard[-1]
    assert top.text != "W4" and len(g.state.discard) >= 1
    assert "W4" in [c.text for c in g.state.all_cards()]


def test_CL22_FIRST_IGNORE_STAYS_LEFT_PLAYS() -> None:
    g = round_start(["RS", "W", "RD2", "B7"], ruleset="classic-2022")
    assert [c.text for c in g.state.discard] == ["RS", "W", "RD2", "B7"]
    assert g.state.current == 1 and g.state.active_color == "B" and g.state.direction == 1


def test_CL_DEAL_SEVEN_and_DEALER() -> None:
    """CL.DEAL.SEVEN, CL.DEAL.DRAW-PILE, CL.DEAL.FIRST-DISCARD, CL.DEALER.HIGHEST."""
    for seed in range(20):
        g = Game.new("classic-official", 4, seed)
        st = g.state
        assert len(st.all_cards()) == 108
        sizes = sorted(len(h) for h in st.hands)
        assert sizes[-1] == 7 or sizes[-1] == 9  # a first Draw Two adds 2
        assert 0 <= st.dealer < 4
    dealers = {Game.new("classic-2022", 4, s).state.dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}  # CL22.DEALER.RANDOM


# ---- 2018 cards -------------------------------------------------------------------------
def test_CL18_WSH_COLLECT_DEAL_NEXT_UNO() -> None:
    """CL18.ANYTIME, CL18.COLOUR, CL18.WSH.COLLECT, CL18.WSH.DEAL, CL18.WSH.NEXT, CL18.WSH.UNO."""
    g = game({0: ["WSH", "R1", "R2"], 1: ["G2", "G3"], 2: ["Y4"]}, ["R9"],
             ruleset="classic-official+cards-2018")
    g.apply(Action.play(0, C("WSH"), "B"))
    sizes = [len(h) for h in g.state.hands]
    assert sizes == [1, 2, 2] and g.state.uno_window is None  # dealt from seat 1
    assert g.pending and g.pending.player == 1 and g.state.active_color == "B"


# ---- 7-0 variant ------------------------------------------------------------------------
def test_V_SEVENO_SEVEN_SWAP_and_ZERO_ROTATE() -> None:
    g = game({0: ["R7", "R1", "R0"], 1: ["G2"], 2: ["Y4", "Y5"]}, ["R9"],
             ruleset="classic-official+seven-o")
    g.apply(Action.play(0, C("R7")))
    assert g.pending and g.pending.decision == "swap"
    assert refused(g, Action.swap(0, 0)).rule == "V.SEVENO.SEVEN-TARGET"
    g.apply(Action.swap(0, 2))
    assert hand(g, 0) == ["Y4", "Y5"] and hand(g, 2) == ["R1", "R0"]


# ---- more rule IDs ----------------------------------------------------------------------
def test_CL_PLAY_ONE_CARD_DISCARD_FACE_UP_SEAT_LEFT() -> None:
    """CL.PLAY.ONE-CARD, CL.PLAY.DISCARD-FACE-UP, CL.SEAT.LEFT, CL.DEAL.FIRST-PLAYER,
    CL.PLAY.DIRECTION-START."""
    g = round_start(["R5"])
    assert g.state.direction == 1 and g.state.current == 1  # dealer 0: seat 1 starts
    assert refused(g, Action.play(1, C("G1"))).code == "card-does-not-match"
    g2 = game({0: ["R3", "R4"], 1: ["G1"], 2: ["G2"]}, ["R9"])
    g2.apply(Action.play(0, C("R3")))
    assert g2.state.discard[-1].text == "R3" and g2.state.current == 1


def test_CL_END_LAST_WD4_has_no_challenge() -> None:
    """CL.END.LAST-WD4, CL.END.LAST-D2: the next player draws before scoring."""
    g = game({0: ["W4"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["R5", "B1", "B2", "B3"])
    g.apply(Action.play(0, C("W4"), "R"))
    assert g.pending and g.pending.decision == "round-over" and len(g.state.hands[1]) == 5


def test_CL_SCORE_ACCUMULATE_and_CL_SCORE_TARGET() -> None:
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], scores={0: 100, 1: 7, 2: 0})
    g.apply(Action.play(0, C("R7")))
    assert g.scores == [113, 7, 0] and not g.is_over  # CL.SCORE.ACCUMULATE


def test_CL22_SCORE_ONE_HAND() -> None:
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], ruleset="classic-2022")
    g.apply(Action.play(0, C("R7")))
    assert g.is_over and g.winner == 0  # CL22.SCORE.ONE-HAND
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], ruleset="classic-2022+play-for-points")
    g.apply(Action.play(0, C("R7")))
    assert g.round_over and not g.is_over  # CL22.SCORE.FOR-POINTS


def test_CL_RESHUFFLE_WILD_COLOUR() -> None:
    g = game({0: ["RD2", "R1"], 1: ["G2"], 2: ["Y4"]}, ["W", "W4", "R9"], [])
    g.apply(Action.play(0, C("RD2")))
    assert g.state.active_color == "R" and g.state.discard[-1].text == "RD2"


def test_CL_WD4_CHALLENGE_GUILTY_TURN() -> None:
    """CL.WD4.CHALLENGE.GUILTY-TURN: the challenger plays on the declared colour."""
    g = wd4_game(legal=False)
    g.apply(Action.play(0, C("W4"), "Y"))
    g.apply(Action.challenge(1))
    g.apply(Action.play(1, C("Y3")))
    assert g.pending and g.pending.player == 2


def test_CL_DEALER_ACTION_ZERO_TIES_RETURN() -> None:
    """CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, CL.DEALER.TIES, CL.DEALER.RETURN,
    CL18.DEALER-ZERO, CL.DEALER.EACH-HAND: the dealer draw, with every card returned."""
    seen = set()
    for seed in range(30):
        g = Game.new("classic-official+cards-2018", 3, seed)
        seen.add(g.state.dealer)
        assert len(g.state.all_cards()) == 112
    assert seen == {0, 1, 2}
    g = game({0: ["R7"], 1: ["G9"], 2: ["Y4"]}, ["R2"], filler(30, ["R7", "G9", "Y4", "R2"]))
    g.apply(Action.play(0, C("R7")))
    ev = g.apply(Action.next_round())
    assert [e.rule for e in ev if e.kind == "dealer"] == ["CL.DEALER.HIGHEST"]


def test_CL_FIRST_NUMBER_and_CL22_FIRST_EVERY_HAND() -> None:
    """CL.FIRST.NUMBER; CL22.FIRST.IGNORE, CL22.FIRST.STAYS, CL22.FIRST.LEFT-PLAYS and
    CL22.FIRST.EVERY-HAND on a second hand; CL.FIRST.WILD, CL.FIRST.WD4, CL.FIRST.REPEAT."""
    for seed in range(40):
        g = Game.new("classic-2022+play-for-points", 3, seed)
        assert g.state.discard[-1].light.kind == "number"
        assert all(c.light.kind != "number" for c in g.state.discard[:-1])
        assert g.state.current == (g.state.dealer + 1) % 3


def test_CL18_WSH_LAST_CARD_CUSTOM_PLAIN_FIRST_CARD() -> None:
    """CL18.WSH.LAST-CARD, CL18.CUSTOM.PLAIN, CL18.FIRST-CARD, CL18.WSH.COLLECT,
    CL18.WSH.DEAL, CL18.WSH.NEXT, CL18.WSH.UNO."""
    g = game({0: ["WSH"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ruleset="classic-official+cards-2018")
    g.apply(Action.play(0, C("WSH")))
    assert g.round_over and hand(g, 1) == ["G2"]
    g = game({0: ["WC", "R1"], 1: ["G2"], 2: ["Y4"]}, ["R2"],
             ruleset="classic-official+cards-2018")
    g.apply(Action.play(0, C("WC"), "Y", uno=True))
    assert g.state.active_color == "Y" and g.state.current == 1
    g = round_start(["WSH"], ruleset="classic-official+cards-2018")
    assert g.pending and g.pending.decision == "color"


def test_CL_UNO_WINDOW_FORCED_DRAW() -> None:
    """CL.UNO.WINDOW-FORCED-DRAW: the Draw Two victim's draw does not close the window."""
    g = game({0: ["RD2", "B3"], 1: ["G2"], 2: ["Y4"]}, ["R2"], ["B1", "G8", "Y1", "Y2"])
    g.apply(Action.play(0, C("RD2")))
    g.apply(Action.catch(1, 0))
    assert len(g.state.hands[0]) == 3


def test_CL_PEN_HINT_ANYTIME_during_a_challenge() -> None:
    """CL.PEN.HINT, CL.PEN.HINT-ANYTIME: the pending decision is unchanged."""
    g = wd4_game(legal=True)
    g.apply(Action.play(0, C("W4"), "G"))
    g.apply(Action.hint(2))
    assert len(g.state.hands[2]) == 3 and g.pending and g.pending.decision == "challenge"


def test_V_SEVENO_ZERO_ROTATE_LAST_CARD_TWO_PLAYERS() -> None:
    """V.SEVENO.ZERO-ROTATE, V.SEVENO.CONTINUE, V.SEVENO.UNO, V.SEVENO.LAST-CARD,
    V.SEVENO.TWO-PLAYERS, V.SEVENO.SEVEN-PENDING, V.SEVENO.SEVEN-SWAP."""
    g = game({0: ["R0", "R1"], 1: ["G2", "G3", "G4"], 2: ["Y4", "Y5"]}, ["R9"],
             ruleset="classic-official+seven-o")
    g.apply(Action.play(0, C("R0")))
    assert hand(g, 1) == ["R1"] and hand(g, 2) == ["G2", "G3", "G4"] and hand(g, 0) == ["Y4",
                                                                                      "Y5"]
    assert g.state.uno_window is None and g.state.current == 1
    g = game({0: ["R7"], 1: ["G2"], 2: ["Y4"]}, ["R9"], ruleset="classic-official+seven-o")
    g.apply(Action.play(0, C("R7")))
    assert g.round_over
    g = game({0: ["R0", "R1", "R2"], 1: ["G2"]}, ["R9"], ruleset="classic-official+seven-o")
    g.apply(Action.play(0, C("R0")))
    assert hand(g, 0) == ["G2"] and hand(g, 1) == ["R1", "R2"]
    assert refused(g, Action.swap(1, 0)).code == "no-swap-pending"
