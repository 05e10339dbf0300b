"""The classic-guide ruleset (guide-br's own rules) on the engine, one test per GUIDE.* rule at
least; the scenarios are in conformance/corpus/classic-guide/."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from uno_fsm import Action, Game
from uno_fsm import errors as E
from uno_fsm.cards import parse

GUIDE = "classic-guide"


def round_start(draw: list[str], ruleset: str = GUIDE, n: int = 3, seed: int = 0) -> Game:
    """A hand about to start: the dealer is seat 0, the first card is turned from `draw`."""
    hands = {s: [f"G{s + 1}", f"Y{s + 1}"] for s in range(n)}  # within the deck
    return Game.from_setup(ruleset, {"players": n, "dealer": 0, "start": "round",
                                     "hands": hands, "draw": draw, "seed": seed})


@pytest.mark.parametrize("first", ["RS", "RR", "RD2", "R5"])
def test_GUIDE_FIRST_COLOUR_ONLY(first: str) -> None:
    """A Skip, Reverse, Draw Two (or number) turned first only sets the colour."""
    g = round_start([first, "B1", "B2"])
    st = g.state
    assert [c.text for c in st.discard] == [first] and st.active_color == "R"
    assert g.pending is not None and (g.pending.player, g.pending.decision) == (1, "play")
    assert st.direction == 1 and [len(h) for h in st.hands] == [2, 2, 2]
    # the same cards under classic-official act (CL.FIRST.*): the rulesets differ
    if first != "R5":
        official = round_start([first, "B1", "B2"], ruleset="classic-official")
        assert (official.pending, official.state.direction, official.state.hands) != (
            g.pending, st.direction, st.hands)


@pytest.mark.parametrize("seed", range(6))
def test_GUIDE_FIRST_WILD_BACK(seed: int) -> None:
    """A Wild or Wild Draw Four turned first goes back into the draw pile, which is shuffled,
    until another card stands; nobody names a colour or draws."""
    g = round_start(["W", "W4", "W", "Y7"], seed=seed)
    st = g.state
    assert [c.text for c in st.discard] == ["Y7"] and st.active_color == "Y"
    assert Counter(c.text for c in st.draw) == Counter({"W": 2, "W4": 1})
    assert g.pending is not None and (g.pending.player, g.pending.decision) == (1, "play")
    assert [len(h) for h in st.hands] == [2, 2, 2]


def test_GUIDE_FIRST_WILD_BACK_refuses_a_pile_of_wilds() -> None:
    """CL.FIRST.UNRESOLVABLE: with only Wilds to turn no hand can start (classic-official
    would start on the Wild)."""
    with pytest.raises(E.UnresolvableSetup) as err:
        round_start(["W", "W4"])
    assert (err.value.code, err.value.rule) == ("unresolvable-setup", "CL.FIRST.UNRESOLVABLE")
    assert round_start(["W", "W4"], ruleset="classic-official").pending.decision == "color"


def test_GUIDE_UNO_BEFORE_OR_AFTER() -> None:
    """'Before' is `uno: true` with the play, 'after' the late call; a call holding two cards
    without playing is refused and changes nothing."""
    def position() -> Game:
        return Game.from_setup(GUIDE, {"players": 3, "dealer": 2, "current": 0,
                                       "hands": {0: ["R7", "B3"], 1: ["G2", "G5"], 2: ["Y4"]},
                                       "discard": ["R2"], "draw": ["B1", "G8", "Y1"]})
    before = position()
    with pytest.raises(E.NoUnoWindow):
        before.apply(Action.call_uno(0))
    before.apply(Action.play(0, parse("R7"), uno=True))
    with pytest.raises(E.NothingToCatch):
        before.apply(Action.catch(2, 0))
    after = position()
    after.apply(Action.play(0, parse("R7")))
    after.apply(Action.call_uno(0))
    with pytest.raises(E.NothingToCatch):
        after.apply(Action.catch(1, 0))
    assert [len(h) for h in after.state.hands] == [1, 2, 1]


def test_GUIDE_END_FIRST_OUT_and_POINTS_VERSION() -> None:
    """One hand decides classic-guide (the game-over event names GUIDE.END.FIRST-OUT); with
    play-for-points the hand is scored and the game goes on below 500."""
    def out(ruleset: str) -> tuple[Game, list[str]]:
        g = Game.from_setup(ruleset, {"players": 2, "dealer": 1, "current": 0,
                                      "hands": {0: ["R5"], 1: ["G1", "W"]},
                                      "discard": ["R1"], "draw": ["Y1"]})
        return g, [e.rule for e in g.apply(Action.play(0, parse("R5"))) if e.kind == "game-over"]
    g, rules = out(GUIDE)
    assert g.is_over and g.state.winner == 0 and rules == ["GUIDE.END.FIRST-OUT"]
    g, rules = out(GUIDE + "+play-for-points")
    assert not g.is_over and rules == [] and g.state.scores == [51, 0]


def test_classic_guide_plays_whole_games() -> None:
    """`simulate` and the bots play it: every game ends after one hand (GUIDE.END.FIRST-OUT)."""
    from uno_fsm.bots import basic_bot

    for seed in range(5):
        g, rng = Game.new(GUIDE, 4, seed), random.Random(seed)
        for _ in range(5000):
            if g.is_over:
                break
            g.apply(basic_bot(g, g.legal_actions(), rng))
        assert g.is_over and g.state.winner is not None
