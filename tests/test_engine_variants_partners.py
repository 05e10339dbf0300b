"""One test (at least) per rule ID of the partners variant (PARTNERS.*); each names its rule."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import game as base_game
from engine_helpers import hand

from uno_fsm import Action, Game, IllegalAction
from uno_fsm.cards import parse
from uno_fsm.params import Params
from uno_fsm.rules.partners import partner_of

C = parse
PA = "classic-official+partners"
PA22 = "classic-2022+partners"


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = PA, **kw: Any) -> Game:
    return base_game(hands, discard, draw or ["B7", "B8", "B9"], ruleset, **kw)


@pytest.mark.parametrize("n,pairs", [(4, {0: 2, 1: 3}), (6, {0: 3, 1: 4, 2: 5})])
def test_PARTNERS_SEATING(n: int, pairs: dict[int, int]) -> None:
    """PARTNERS.SEATING (RUL.PARTNERS.TEAMS): seat i partners seat i + n/2."""
    g = Game.new(PA, n, 1)
    assert g._rules.variant("partners") is not None
    for a, b in pairs.items():
        assert partner_of(n, a) == b and partner_of(n, b) == a


@pytest.mark.parametrize("ruleset", [PA, PA22])
def test_PARTNERS_EVEN(ruleset: str) -> None:
    """PARTNERS.EVEN: an even number of players, at least four; others are rejected."""
    p = Params.of(ruleset)
    assert [n for n in range(2, 12) if p.players_ok(n)] == [4, 6, 8, 10]
    for n in (3, 5, 7):
        with pytest.raises(ValueError):
            Game.new(ruleset, n, 0)
        with pytest.raises(IllegalAction):
            Game.from_setup(ruleset, {"players": n, "start": "game"})
        with pytest.raises(IllegalAction):
            Game.from_setup(ruleset, {"players": n, "hands": {}, "discard": ["R1"]})


def test_PARTNERS_END() -> None:
    """PARTNERS.END: either member going out ends the hand."""
    for seat in (0, 2):
        g = game({0: ["R1"], 1: ["B1"], 2: ["R2"], 3: ["G1"]}, ["R5"], current=seat)
        g.apply(Action.play(seat, C(hand(g, seat)[0])))
        assert g.round_over and g.winner == seat


def test_PARTNERS_SCORE() -> None:
    """PARTNERS.SCORE (RUL.PARTNERS.SCORING): opponents' cards only, for both partners."""
    g = game({0: ["R1", "W4"], 1: ["R2"], 2: ["G5", "GS"], 3: ["W", "W"]}, ["R5"], current=1)
    events = g.apply(Action.play(1, C("R2")))
    assert g.scores == [0, 76, 0, 76] and not g.is_over
    # the hand's scoring event cites the rule that scored it, not the base CL.SCORE.WINNER
    assert [(e.player, e.count, e.rule) for e in events if e.kind == "went-out"] == \
        [(1, 76, "PARTNERS.SCORE")]


def test_PARTNERS_TARGET() -> None:
    """PARTNERS.TARGET: the first team to 500 wins; the win is shared by the partners."""
    g = game({0: ["R9"], 1: ["B5", "BS"], 2: ["YR"], 3: ["W"]}, ["Y4"], current=2,
             scores={0: 480, 1: 300, 2: 480, 3: 300})
    g.apply(Action.play(2, C("YR")))
    assert g.is_over and g.winners == [0, 2] and g.scores == [555, 300, 555, 300]
    g = game({0: ["G1"], 1: ["G2", "G3"], 2: ["W4", "W4", "W4"], 3: ["B4"]}, ["G9"],
             scores={0: 400, 1: 490, 2: 400, 3: 490})
    g.apply(Action.play(0, C("G1")))
    assert not g.is_over and g.scores == [409, 490, 409, 490]


def test_PARTNERS_TARGET_classic_2022_one_hand() -> None:
    """PARTNERS.TARGET carries the base objective: classic-2022 is decided in one hand."""
    g = game({0: ["R3"], 1: ["R4"], 2: ["B2"], 3: ["Y8"]}, ["R9"], ruleset=PA22, current=1)
    g.apply(Action.play(1, C("R4")))
    assert g.is_over and g.winners == [1, 3]


def test_PARTNERS_NO_SHARING() -> None:
    """PARTNERS.NO-SHARING: no trading action exists; a hint costs the hint penalty."""
    g = game({0: ["R1", "R2"], 1: ["B1"], 2: ["Y1"], 3: ["G1"]}, ["R5"])
    assert {a.kind for a in g.legal_actions()} <= {"play", "draw"}
    g.apply(Action.hint(2))
    assert len(hand(g, 2)) == 3 and g.state.current == 0


def test_PARTNERS_FIXED() -> None:
    """PARTNERS.FIXED (RUL.PARTNERS.ROTATION): the same opposite pairs score in every hand."""
    g = Game.new(PA, 4, 5)
    rng = random.Random(5)
    seen = 0
    while not g.is_over and seen < 3:
        g.apply(rng.choice(g.legal_actions()))
        if g.round_over and not g.is_over:
            assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]
            seen += 1
            g.apply(Action.next_round())
    assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]


def test_PARTNERS_NO_TWO_PLAYER_RULES() -> None:
    """PARTNERS.NO-TWO-PLAYER-RULES: a Reverse reverses; a Skip skips one player."""
    g = game({0: ["RR", "Y1"], 1: ["B1", "B2"], 2: ["G1", "G2"], 3: ["RS", "Y3"]}, ["R5"])
    g.apply(Action.play(0, C("RR")))
    assert g.state.current == 3
    g.apply(Action.play(3, C("RS")))
    assert g.state.current == 1
