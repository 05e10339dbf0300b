"""The legal actions found once per decision (`Rules.listed`) and shared with `apply`.

`apply` skips re-validating an action only when it is the very object listed for the current
state; everything else is validated (docs/engine.md, "Speed"). Each test here fails if the
list outlives its state or if sharing it changes an outcome.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import game, refused

from uno_fsm import Action, Game
from uno_fsm.cards import parse


def test_an_action_of_a_stale_list_is_validated() -> None:
    """CL.PLAY.OUT-OF-TURN: a play listed for the previous turn is refused once the turn has
    passed, with the state unchanged (the list was forgotten by the first apply)."""
    g = game({0: ["R5", "R7", "G2"], 1: ["B1", "B2"]}, ["R3"])
    old = g.legal_actions()
    g.apply(Action.play(0, parse("R5")))
    stale = next(a for a in old if a.kind == "play" and a.card == parse("R7"))
    err = refused(g, stale)
    assert (err.code, err.rule) == ("not-your-turn", "CL.PLAY.OUT-OF-TURN")


def test_a_direct_state_change_is_announced() -> None:
    """After `state_changed`, a listed play of a card the player no longer holds is refused
    (CL.PLAY.TURN-OPTIONS), not taken from the forgotten list."""
    g = game({0: ["R5", "R7"], 1: ["B1", "B2"]}, ["R3"])
    listed = next(a for a in g.legal_actions() if a.card == parse("R7") and not a.uno)
    g.state.hands[0].remove(parse("R7"))
    g.state.draw.append(parse("R7"))
    g.state_changed()
    err = refused(g, listed)
    assert (err.code, err.rule) == ("card-not-in-hand", "CL.PLAY.TURN-OPTIONS")


def test_listing_first_changes_nothing() -> None:
    """The same games with and without `legal_actions` before each action: the same events
    (CL.DRAW.UNWILLING / CL.DRAW.UNABLE read the listed playable cards) and the same states."""
    for ruleset, players in (("classic-official", 4), ("flip", 3),
                             ("classic-official+stacking+jump-in+seven-o", 4)):
        rng = random.Random(7)
        listed = Game.new(ruleset, players, 5)
        plain = Game.new(ruleset, players, 5)
        for _ in range(600):
            if listed.is_over:
                break
            options = listed.legal_actions()
            a = rng.choice(options)
            # an equal action that is not the listed object goes through `validate`
            copy = Action(a.kind, a.player, a.card, a.color, a.uno, a.target)
            assert copy is not a or a.kind == "next-round"
            assert listed.apply(a) == plain.apply(copy)
            assert listed.state == plain.state


def test_a_jump_in_from_the_list_is_still_validated_for_its_event() -> None:
    """V.JUMPIN.IDENTICAL: a listed out-of-turn play sends `jump_in` (the jumper takes the
    turn), not the turn owner's `play_card`."""
    g = game({0: ["B1", "B2"], 1: ["R3", "G4"], 2: ["Y1", "Y2"]}, ["R3"],
             ruleset="classic-official+jump-in")
    jump = next(a for a in g.legal_actions() if a.player == 1 and a.card == parse("R3"))
    events = g.apply(jump)
    assert [e.kind for e in events][:2] == ["jumped-in", "played"]
    assert g.state.current == 2  # the jumper played: the next seat after the jumper


def test_a_game_lists_through_its_own_rules() -> None:
    """A game's `legal_actions` (as plain Python, the method of its own rules, bound when the
    game is made: one Python call per listing) and the class's `Game.legal_actions` give the
    same actions for the same state, with and without a player, each a list of its own; two
    games played side by side never answer for each other."""
    rng = random.Random(3)
    games = [Game.new("classic-official", 4, 11), Game.new("flip", 3, 12)]
    played = [0, 0]
    for _ in range(400):
        for i, g in enumerate(games):
            if g.is_over:
                continue
            played[i] += 1
            mine, theirs = g.legal_actions(), Game.legal_actions(g)
            assert mine == theirs and mine is not theirs
            for seat in range(g.state.players):
                assert g.legal_actions(seat) == Game.legal_actions(g, seat) == [
                    a for a in mine if a.player == seat]
            mine.clear()  # a copy: the game's own list is untouched
            g.apply(rng.choice(g.legal_actions()))
    assert min(played) > 300  # both games went on, side by side


def test_a_replaced_listing_is_the_one_a_new_game_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game lists with the methods of when it was made: `Game.legal_actions` replaced on the
    class (a planted bug, a subclass's own) is what a new game calls, as is a replaced
    `Rules.legal_actions` (as plain Python: the compiled build's rules are a native class,
    whose methods an assignment does not replace); a game made before keeps the listing it
    was made with."""
    from uno_fsm import compiled
    from uno_fsm.rules import Rules

    before = Game.new("classic-official", 4, 2)
    monkeypatch.setattr(Game, "legal_actions", lambda self, player=None: ["game's"])
    assert Game.new("classic-official", 4, 2).legal_actions() == ["game's"]
    monkeypatch.undo()
    if compiled():  # (nor can an interpreted class inherit from a compiled one)
        return
    monkeypatch.setattr(Rules, "legal_actions", lambda self, player=None: ["rules'"])
    assert Game.new("classic-official", 4, 2).legal_actions() == ["rules'"]
    assert before.legal_actions() != ["rules'"] and before.legal_actions()

    class Mine(Game):
        def legal_actions(self, player: int | None = None) -> list[Action]:
            return []

    monkeypatch.undo()
    assert Mine(before.state.copy(), before.params).legal_actions() == []
