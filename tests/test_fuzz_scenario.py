"""The conformance scenario printed with a fuzzer failure parses as a corpus scenario and sets
up the position before the failing action."""

from __future__ import annotations

import pytest

from conformance.scenario import parse_text
from uno_fsm import Game, fuzz
from uno_fsm.actions import Action
from uno_fsm.export import act_dict
from uno_fsm.rules import Rules


def _scenario_of(failure: fuzz.FuzzFailure) -> str:
    text = str(failure)
    marker = "(paste and finish):\n"
    assert marker in text
    return text.split(marker, 1)[1]


def test_failure_scenario_is_a_valid_corpus_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Rules.give

    def give(self: Rules, seat: int, n: int, rule: str) -> object:
        return original(self, seat, 1 if rule == "CL.D2.EFFECT" else n, rule)  # BUG

    monkeypatch.setattr(Rules, "give", give)
    with pytest.raises(fuzz.FuzzFailure) as info:
        fuzz.run(fuzz.make_machine("classic-official", (3, 4)), "ci")
    text = _scenario_of(info.value)
    [scenario] = parse_text(text, "fuzz-found.yaml")
    assert list(scenario.rules) == ["CL.D2.EFFECT"] and scenario.cites
    assert "TODO(human)" in text and "- expect:" not in text
    monkeypatch.setattr(Rules, "give", original)
    setup = scenario.setup
    g = Game.from_setup(scenario.ruleset, setup)
    assert g.pending is not None and g.pending.decision == "play"


def test_scenario_without_a_turn_position_falls_back_to_the_log() -> None:
    g = Game.new("classic-official", players=3, seed=4)
    legal = g.legal_actions()
    text = fuzz.scenario_yaml("classic-official", 3, 4, None, [], legal[0], "[ENGINE.JSON] x")
    assert "setup: {players: 3}" in text and "Game.replay" in text


def test_act_vocabulary() -> None:
    from uno_fsm.cards import parse

    assert act_dict(Action.play(0, parse("W4"), "G", uno=True)) == {
        "player": 0, "play": "W4", "color": "green", "uno": True}
    assert act_dict(Action.accept(1)) == {"player": 1, "challenge": False}
    assert act_dict(Action.catch(2, 0)) == {"player": 2, "catch": 0}
    assert act_dict(Action.wrong_card(1, parse("R7"))) == {
        "referee": "wrong-card", "player": 1, "card": "R7"}
