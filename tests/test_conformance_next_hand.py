"""Issue 24 item 3: a fixed deal for the hand after `next_round` (its hands, draw pile and first
card, optionally its dealer), validated like a set-up by the loader and by the engine
(`Game.next_round_dealt`)."""

from __future__ import annotations

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.scenario import ScenarioError, parse_text
from uno_fsm import Action, Game
from uno_fsm.cards import parse, parse_many
from uno_fsm.errors import IllegalAction

SCENARIO = """\
id: mine.next-hand
title: t
ruleset: classic-official
cites: [classic-br:end-of-hand:6]
rules: [CL.END.NEW-HAND]
features: [basic-play, first-card, scoring, two-player, next-hand-deal]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R1], 1: [B9, G5]}
  discard: [R7]
  draw: [RD2, Y1, Y2, Y3]
steps:
  - act: {player: 0, play: R1}
  - act:
      next_round: true
      deal: DEAL
"""
GOOD = "{dealer: 1, hands: {0: [R1, Y1], 1: [B9, G5]}, draw: [Y2, RD2, R7, Y3]}"


def test_a_good_deal_loads_and_is_sent_as_written() -> None:
    sc = parse_text(SCENARIO.replace("DEAL", GOOD), "s.yaml")[0]
    assert sc.steps[1].act == {"next_round": True, "deal": {
        "dealer": 1, "hands": {"0": ["R1", "Y1"], "1": ["B9", "G5"]},
        "draw": ["Y2", "RD2", "R7", "Y3"]}}


@pytest.mark.parametrize(("deal", "message"), [
    ("{hands: {0: [R1, Y1, Y2]}, draw: [RD2, R7, Y3, B9, G5]}", "no hand given for seat(s) [1]"),
    ("{hands: {0: [R1, Y1], 1: [B9, G5], 2: []}, draw: [Y2, RD2, R7, Y3]}",
     "seat 2 does not exist with 2 players"),
    ("{dealer: 4, hands: {0: [R1, Y1], 1: [B9, G5]}, draw: [Y2, RD2, R7, Y3]}",
     "seat 4 does not exist with 2 players"),
    ("{hands: {0: [R1, Y1], 1: [B9, G5]}, draw: [Y2, RD2, R7]}",
     "the deal must hold exactly the cards of the game (its set-up's hands, discard and draw "
     "piles): missing: Y3"),
    ("{hands: {0: [R1, Y1], 1: [B9, G5]}, draw: [Y2, RD2, R7, Y3, B1]}",
     "not in the game: B1"),
    ("{hands: {0: [R1, Y1], 1: [B9, G5]}, draw: [Y2, RD2, R7, PD5]}", "PD5"),
    ("{hands: {0: [R1, Y1], 1: [B9, G5]}}", "steps[1].act"),
])
def test_a_bad_deal_is_one_error(deal: str, message: str) -> None:
    with pytest.raises(ScenarioError) as exc:
        parse_text(SCENARIO.replace("DEAL", deal), "s.yaml")
    assert message in exc.value.message, exc.value.message
    assert 16 <= exc.value.line <= 18


def test_a_deal_needs_next_round() -> None:
    text = SCENARIO.replace("      next_round: true\n", "      player: 0\n      draw: true\n")
    with pytest.raises(ScenarioError):
        parse_text(text.replace("DEAL", GOOD), "s.yaml")


def _over() -> Game:
    g = Game.from_setup("classic-official", {
        "players": 2, "dealer": 1, "current": 0, "hands": {"0": ["R1"], "1": ["B9", "G5"]},
        "discard": ["R7"], "draw": ["RD2", "Y1", "Y2", "Y3"]})
    g.apply(Action.play(0, parse("R1")))
    assert g.round_over
    return g


def test_the_engine_refuses_a_deal_of_other_cards_unchanged() -> None:
    g = _over()
    before = g.state.to_dict()
    with pytest.raises(IllegalAction) as exc:
        g.next_round_dealt([parse_many(["R1", "Y1"]), parse_many(["B9", "G5"])],
                           parse_many(["Y2", "RD2", "R7", "B1"]))
    assert exc.value.code == "malformed-action"
    assert g.state.to_dict() == before


def test_the_engine_refuses_a_dealer_not_at_the_table() -> None:
    g = _over()
    for dealer in (2, -1, True):
        with pytest.raises(IllegalAction) as exc:
            g.next_round_dealt([parse_many(["R1", "Y1"]), parse_many(["B9", "G5"])],
                               parse_many(["Y3", "RD2", "R7", "Y2"]), dealer=dealer)
        assert exc.value.code == "malformed-action"


def test_the_engine_deals_as_given() -> None:
    g = _over()
    g.next_round_dealt([parse_many(["R1", "Y1"]), parse_many(["B9", "G5"])],
                       parse_many(["Y3", "RD2", "R7", "Y2"]), dealer=0)
    st = g.state
    assert st.dealer == 0 and st.discard[-1].text == "Y3"
    assert [[c.text for c in h] for h in st.hands] == [["R1", "Y1"], ["B9", "G5"]]
    assert [c.text for c in reversed(st.draw)] == ["RD2", "R7", "Y2"]
    assert g.pending is not None and g.pending.player == 1


def test_the_adapter_answers_a_malformed_deal() -> None:
    a = ReferenceAdapter()
    a.setup({"ruleset": "classic-official", "seed": 0, "setup": {
        "players": 2, "dealer": 1, "current": 0, "hands": {"0": ["R1"], "1": ["B9", "G5"]},
        "discard": ["R7"], "draw": ["RD2", "Y1", "Y2", "Y3"]}})
    assert a.act({"player": 0, "play": "R1"}) is None
    for deal in ({"hands": {"0": []}}, {"hands": {"0": [], "2": []}, "draw": []},
                 {"hands": {"0": ["X"], "1": []}, "draw": []}, "deal",
                 {"hands": {"0": [], "1": []}, "draw": [], "dealer": True}):
        refused = a.act({"next_round": True, "deal": deal})
        assert refused is not None and refused["code"] == "malformed-action", deal
    assert a.observe(["round_over"]) == {"round_over": True}


def test_a_seat_out_of_the_game_is_dealt_nothing() -> None:
    g = Game.from_setup("classic-official+desafio", {
        "players": 3, "dealer": 2, "current": 0, "hands": {"0": ["R1"], "1": ["B9"], "2": ["Y1"]},
        "discard": ["R7"], "active_color": "red", "draw": ["B1", "B2", "B3"],
        "scores": {"1": 491}})
    g.apply(Action.play(0, parse("R1")))
    assert g.state.eliminated == [1]
    before = g.state.to_dict()
    for hands, dealer in (([["R1"], ["B1"], ["Y1", "B9"]], None),  # cards for seat 1
                          ([["R1", "B1"], [], ["Y1", "B9"]], 1)):  # seat 1 dealing
        with pytest.raises(IllegalAction) as exc:
            g.next_round_dealt([parse_many(h) for h in hands], parse_many(["R7", "B2", "B3"]),
                               dealer)
        assert exc.value.code == "eliminated"
        assert g.state.to_dict() == before
