"""One test (at least) per rule ID of the stacking and Jump-In variants (V.STACK.*, V.JUMPIN.*);
each names its rule. Seven-O is covered in tests/test_engine_rules.py."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import game as base_game
from engine_helpers import hand, refused

from uno_fsm import Action, Game
from uno_fsm.cards import parse

C = parse
ST = "classic-official+stacking"
JI = "classic-official+jump-in"


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = ST, **kw: Any) -> Game:
    return base_game(hands, discard, draw, ruleset, **kw)


DRAW = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "G1", "G2", "G3"]


# ---- stacking ----------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["classic-official", "classic-2022"])
def test_V_STACK_NOT_OFFICIAL(ruleset: str) -> None:
    """V.STACK.NOT-OFFICIAL: without the variant the Draw Two penalty is drawn at once."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2"]}, ["R5"], DRAW, ruleset=ruleset)
    g.apply(Action.play(0, C("RD2")))
    assert len(hand(g, 1)) == 4 and g.state.current == 2 and g.state.stack == 0


def test_V_STACK_D2_ON_D2_and_D2_ANY_COLOUR_and_ACCUMULATE() -> None:
    """V.STACK.D2-ON-D2, V.STACK.D2-ANY-COLOUR, V.STACK.ACCUMULATE."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2", "Y3"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    assert g.state.stack == 2 and g.state.current == 1 and len(hand(g, 1)) == 2
    assert {a.card.text for a in g.legal_actions(1) if a.kind == "play" and a.card} == {"BD2"}
    g.apply(Action.play(1, C("BD2")))
    assert g.state.stack == 4 and g.state.current == 2


def test_V_STACK_TAKE_ALL() -> None:
    """V.STACK.TAKE-ALL: the whole total is drawn, the turn passes, no drawn card is played."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2", "Y3"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    g.apply(Action.play(1, C("BD2")))
    g.apply(Action.draw(2))
    assert len(hand(g, 2)) == 6 and g.state.stack == 0
    assert g.pending is not None and (g.pending.player, g.pending.decision) == (0, "play")


def test_V_STACK_OPTIONAL() -> None:
    """V.STACK.OPTIONAL: holding a Draw Two, the victim may still draw."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    assert Action.draw(1) in g.legal_actions(1)
    g.apply(Action.draw(1))
    assert hand(g, 1) == ["BD2", "Y1", "B1", "B2"] and g.state.current == 2


def test_V_STACK_NO_CROSS() -> None:
    """V.STACK.NO-CROSS (RUL.STACK.CROSS): no +4 on +2, no +2 on +4."""
    g = game({0: ["RD2", "R1"], 1: ["W4", "R7"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    assert refused(g, Action.play(1, C("W4"), "R")).rule == "V.STACK.NO-CROSS"
    assert refused(g, Action.play(1, C("R7"))).rule == "V.STACK.TAKE-ALL"
    g = game({0: ["W4", "B1"], 1: ["RD2", "Y1"], 2: ["Y2"]}, ["G5"], DRAW)
    g.apply(Action.play(0, C("W4"), "R"))
    assert refused(g, Action.play(1, C("RD2"))).code == "card-does-not-match"


def test_V_STACK_WHO() -> None:
    """V.STACK.WHO (RUL.STACK.WHO): only the victim may stack."""
    g = game({0: ["RD2", "R1"], 1: ["Y1"], 2: ["GD2", "Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    assert refused(g, Action.play(2, C("GD2"))).code == "not-your-turn"


def test_V_STACK_W4_ON_W4() -> None:
    """V.STACK.W4-ON-W4: the victim stacks a Wild Draw Four instead of answering."""
    g = game({0: ["W4", "B1"], 1: ["W4", "Y1"], 2: ["Y2"]}, ["G5"], DRAW)
    g.apply(Action.play(0, C("W4"), "R"))
    assert Action.play(1, C("W4"), "B") in g.legal_actions(1)
    g.apply(Action.play(1, C("W4"), "B"))
    assert g.state.stack == 8 and g.pending is not None
    assert (g.pending.player, g.pending.decision) == (2, "challenge")
    g.apply(Action.accept(2))
    assert len(hand(g, 2)) == 9 and g.state.current == 0


def test_V_STACK_W4_LEGAL_and_W4_CHALLENGE_guilty() -> None:
    """V.STACK.W4-LEGAL, V.STACK.W4-CHALLENGE: judged against the colour named below it; the
    guilty player draws the whole stack and the challenger plays."""
    g = game({0: ["W4", "B1"], 1: ["W4", "G1"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("W4"), "G"))
    g.apply(Action.play(1, C("W4"), "Y"))
    g.apply(Action.challenge(2))
    assert len(hand(g, 1)) == 9 and g.state.current == 2 and g.state.stack == 0


def test_V_STACK_W4_CHALLENGE_innocent_and_gives_up() -> None:
    """V.STACK.W4-CHALLENGE: innocent, the challenger draws the stack + 2; the stacker cannot
    challenge any more."""
    g = game({0: ["W4", "R1"], 1: ["W4", "B1"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("W4"), "G"))  # a bluff, never judged
    g.apply(Action.play(1, C("W4"), "Y"))
    assert refused(g, Action.challenge(1)).code == "not-challengeable"
    g.apply(Action.challenge(2))
    assert len(hand(g, 2)) == 11 and g.state.current == 0 and hand(g, 0) == ["R1"]


def test_V_STACK_GO_OUT() -> None:
    """V.STACK.GO-OUT (RUL.STACK.GO-OUT): the next player draws the whole stack; it counts."""
    g = game({0: ["RD2", "R1", "R2"], 1: ["BD2"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    g.apply(Action.play(1, C("BD2")))
    assert g.round_over and len(hand(g, 2)) == 5 and g.state.stack == 0
    assert g.scores[1] == (1 + 2) + (2 + 1 + 2 + 3 + 4)  # R1 R2; Y2 and B1..B4 drawn
    g = game({0: ["W4", "B1", "B2"], 1: ["W4"], 2: ["Y2"]}, ["G5"], DRAW)
    g.apply(Action.play(0, C("W4"), "R"))
    g.apply(Action.play(1, C("W4"), "B"))
    assert g.round_over and len(hand(g, 2)) == 9


def test_V_STACK_BASES() -> None:
    """V.STACK.BASES: classic-2022 composes too; flip does not."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2"]}, ["R5"], DRAW,
             ruleset="classic-2022+stacking")
    g.apply(Action.play(0, C("RD2")))
    assert g.state.stack == 2
    with pytest.raises(Exception):  # noqa: B017 - composition error from uno_spec
        Game.new("flip+stacking", 3)


def test_stack_wrong_card_takes_the_stack() -> None:
    """CL.PEN.WRONG-CARD while a penalty is pending: V.STACK.TAKE-ALL too."""
    g = game({0: ["RD2", "R1"], 1: ["Y1", "Y3"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    g.apply(Action.wrong_card(1, C("Y1")))
    assert len(hand(g, 1)) == 2 + 2 + 2 and g.state.stack == 0 and g.state.current == 2


# ---- jump-in -----------------------------------------------------------------------------
def test_V_JUMPIN_IDENTICAL_and_CONTINUES() -> None:
    """V.JUMPIN.IDENTICAL, V.JUMPIN.CONTINUES: the player after the jumper plays next."""
    g = game({0: ["B1"], 1: ["G1"], 2: ["Y1"], 3: ["R5", "G9"]}, ["R5"], DRAW, ruleset=JI,
             current=1)
    assert Action.play(3, C("R5")) in g.legal_actions(3)
    g.apply(Action.play(3, C("R5")))
    assert g.state.current == 0 and hand(g, 3) == ["G9"]


def test_V_JUMPIN_NOT_WILD_and_NOT_MATCHING() -> None:
    """V.JUMPIN.NOT-WILD, V.JUMPIN.NOT-MATCHING: only an identical coloured card."""
    g = game({0: ["B1"], 1: ["G1"], 2: ["B5", "R6", "W"]}, ["R5"], DRAW, ruleset=JI)
    for a in (Action.play(2, C("B5")), Action.play(2, C("R6")), Action.play(2, C("W"), "R")):
        err = refused(g, a)
        assert (err.code, err.rule) == ("not-your-turn", "V.JUMPIN.NOT-MATCHING")
    assert g.legal_actions(2) == []
    g = game({0: ["B1"], 1: ["G1"], 2: ["W"]}, ["W"], DRAW, ruleset=JI, active_color="red")
    assert refused(g, Action.play(2, C("W"), "R")).code == "not-your-turn"


def test_V_JUMPIN_WHO() -> None:
    """V.JUMPIN.WHO (RUL.JUMPIN.WHO): the player of the top card may jump in too."""
    g = game({0: ["G4", "G4", "B8"], 1: ["Y1"], 2: ["R1"]}, ["G6"], DRAW, ruleset=JI)
    g.apply(Action.play(0, C("G4")))
    g.apply(Action.play(0, C("G4")))
    assert g.state.current == 1 and hand(g, 0) == ["B8"]


def test_V_JUMPIN_TIMING() -> None:
    """V.JUMPIN.TIMING (RUL.JUMPIN.TIMING, RUL.VARIANTS.JUMPIN-STACKING)."""
    g = game({0: ["B1"], 1: ["G1"], 2: ["R5", "Y1"]}, ["R5"], ["R9", "B3"], ruleset=JI)
    g.apply(Action.draw(0))
    assert g.state.phase == "play_drawn"
    assert refused(g, Action.play(2, C("R5"))).rule == "V.JUMPIN.TIMING"
    g = game({0: ["RD2", "R1"], 1: ["B1"], 2: ["RD2", "Y1"]}, ["R8"], DRAW,
             ruleset="classic-official+stacking+jump-in")
    g.apply(Action.play(0, C("RD2")))
    assert refused(g, Action.play(2, C("RD2"))).rule == "V.JUMPIN.TIMING"
    assert [a for a in g.legal_actions(2) if a.kind == "play"] == []


def test_V_JUMPIN_EFFECTS() -> None:
    """V.JUMPIN.EFFECTS (RUL.JUMPIN.EFFECTS): skip, draw two and reverse from the jumper."""
    g = game({0: ["B1"], 1: ["G1"], 2: ["Y1"], 3: ["GS", "R9"]}, ["GS"], DRAW, ruleset=JI,
             current=1)
    g.apply(Action.play(3, C("GS")))
    assert g.state.current == 1
    g = game({0: ["B1"], 1: ["G1"], 2: ["Y1"], 3: ["YD2", "R9"]}, ["YD2"], DRAW, ruleset=JI,
             current=2)
    g.apply(Action.play(3, C("YD2")))
    assert len(hand(g, 0)) == 3 and len(hand(g, 2)) == 1 and g.state.current == 1
    g = game({0: ["B1"], 1: ["G1"], 2: ["Y1"], 3: ["BR", "R9"]}, ["BR"], DRAW, ruleset=JI,
             current=1)
    g.apply(Action.play(3, C("BR")))
    assert g.state.current == 2 and g.state.direction == -1


def test_V_JUMPIN_GO_OUT() -> None:
    """V.JUMPIN.GO-OUT: the last card goes out; the second-to-last owes UNO."""
    g = game({0: ["B1", "B2"], 1: ["G3"], 2: ["Y8"]}, ["Y8"], DRAW, ruleset=JI)
    g.apply(Action.play(2, C("Y8")))
    assert g.round_over and g.winner == 2
    g = game({0: ["B1", "B2"], 1: ["G3"], 2: ["Y8", "R2"]}, ["Y8"], DRAW, ruleset=JI)
    assert Action.play(2, C("Y8"), uno=True) in g.legal_actions(2)
    g.apply(Action.play(2, C("Y8")))
    assert Action.catch(1, 2) in g.legal_actions(1)


def test_V_JUMPIN_BASES_and_base_rules() -> None:
    """V.JUMPIN.BASES; CL.PLAY.OUT-OF-TURN without the variant."""
    g = game({0: ["B1"], 1: ["G1"], 2: ["R5", "Y1"]}, ["R5"], DRAW, ruleset="classic-2022+jump-in")
    g.apply(Action.play(2, C("R5")))
    assert g.state.current == 0
    g = game({0: ["B1"], 1: ["G1"], 2: ["R5", "Y1"]}, ["R5"], DRAW)
    g2 = game({0: ["B1"], 1: ["G1"], 2: ["R5", "Y1"]}, ["R5"], DRAW, ruleset="classic-official")
    assert refused(g2, Action.play(2, C("R5"))).rule == "CL.PLAY.OUT-OF-TURN"
    assert refused(g, Action.play(2, C("R5"))).rule == "CL.PLAY.OUT-OF-TURN"


def test_variant_games_round_trip_json() -> None:
    """The stack survives a JSON round trip."""
    g = game({0: ["RD2", "R1"], 1: ["BD2", "Y1"], 2: ["Y2"]}, ["R5"], DRAW)
    g.apply(Action.play(0, C("RD2")))
    again = Game.from_json(g.to_json())
    assert again.state == g.state and again.state.stack == 2
