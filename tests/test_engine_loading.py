"""Hostile inputs, third round (issue 26): the engine's state loading.

`Game.from_json` checked nothing (10^6 players, `current` 99 then an IndexError, 12 Wild Draw
Fours, 300 cards, phase `teleport`, colour `purple`, NaN scores, a Flip card in a classic
pile; garbage met by a bare TypeError, KeyError, AttributeError or RecursionError), and a seed
NaN was saved as a bare `NaN`. Now every field is checked against the ruleset
(uno_fsm.state_checks) and anything wrong is one `InvalidState` naming the field; a
Hypothesis property feeds mutated saved games and checks that nothing else is ever raised and
that a state the invariants (uno_fsm.invariants) reject is never accepted.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uno_fsm
from uno_fsm import errors as E
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.game import Game
from uno_fsm.invariants import check_invariants
from uno_fsm.oracle.base import Facts
from uno_fsm.params import Params
from uno_fsm.phase_table import PHASES

RULESETS = ("classic-official", "flip", "classic-official+stacking", "classic-official+partners",
            "classic-official+desafio", "classic-official+seven-o+jump-in")


def _played(ruleset: str, players: int, seed: int, moves: int) -> Game:
    g = Game.new(ruleset, players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    return g


# Saved games of every kind of position: a fresh deal, mid-hand, and late in a game.
POSITIONS = [_played(r, 4, seed, moves) for r in RULESETS for seed, moves in
             ((1, 0), (2, 25), (3, 120))]
DOCS = [json.loads(g.to_json()) for g in POSITIONS]


def _load(doc: Any) -> E.InvalidState:
    with pytest.raises(E.InvalidState) as info:
        Game.from_json(doc if isinstance(doc, str) else json.dumps(doc))
    return info.value


def _mutated(i: int, **state: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(DOCS[i]))
    doc["state"].update(state)
    return doc


def test_a_saved_game_loads_back_whole() -> None:
    for g, doc in zip(POSITIONS, DOCS, strict=True):
        h = Game.from_json(json.dumps(doc))
        assert h.state == g.state and h.to_json() == g.to_json()


@pytest.mark.parametrize(("state", "field", "message", "rule"), [
    ({"players": 10**6}, "state.players", "a whole number from 2 to 10, not 1000000",
     "CL.PLAY.TURN-OPTIONS"),
    ({"current": 99}, "state.current", "99 is not a seat of 4 players", "CL.DECK.PLAYERS"),
    ({"dealer": -1}, "state.dealer", "-1 is not a seat of 4 players", "CL.DECK.PLAYERS"),
    ({"current": True}, "state.current", "true is not a seat of 4 players", "CL.DECK.PLAYERS"),
    ({"phase": "teleport"}, "state.phase", "\"teleport\" is not a phase a game can be saved in "
     "(play, play_drawn, choose_color, challenge, swap, round_over, game_over)",
     "CL.PLAY.TURN-OPTIONS"),
    ({"phase": "dealing"}, "state.phase", "\"dealing\" is not a phase a game can be saved in "
     "(play, play_drawn, choose_color, challenge, swap, round_over, game_over)",
     "CL.PLAY.TURN-OPTIONS"),
    ({"active_color": "purple"}, "state.active_color", "\"purple\" is not a colour of the "
     "light side (R, Y, G, B)", "CL.WILD.FOUR-COLOURS"),
    ({"active_color": "P"}, "state.active_color", "\"P\" is not a colour of the light side "
     "(R, Y, G, B)", "CL.WILD.FOUR-COLOURS"),
    ({"side": "dark"}, "state.side", "\"dark\" is not a side of a classic game",
     "CL.DECK.COLOURS"),
    ({"direction": 2}, "state.direction", "1 (clockwise) or -1, not 2",
     "CL.PLAY.DIRECTION-START"),
    ({"scores": [0, 0, 0, 1.5]}, "state.scores[3]", "a whole number from 0 to 1000000000, not "
     "1.5", "CL.SCORE.ACCUMULATE"),
    ({"scores": [0, 0, 0, 10**12]}, "state.scores[3]", "a whole number from 0 to 1000000000, "
     "not 1000000000000", "CL.SCORE.ACCUMULATE"),
    ({"scores": [0]}, "state.scores", "1 scores for 4 players", "CL.PLAY.TURN-OPTIONS"),
    ({"hands": 5}, "state.hands", "a list, not an integer", "CL.PLAY.TURN-OPTIONS"),
    ({"hands": [[], [], []]}, "state.hands", "3 hands for 4 players", "CL.DECK.PLAYERS"),
    ({"draw": [{"card": "R5"}]}, "state.draw[0]", "a card is written as a string, not an "
     "object", "CL.PLAY.TURN-OPTIONS"),
    ({"discard": ["R55"]}, "state.discard[0]", "\"R55\" is not a card (unknown rank '55')",
     "CL.PLAY.TURN-OPTIONS"),
    ({"round": 0}, "state.round", "a whole number from 1 to 1000000, not 0",
     "CL.PLAY.TURN-OPTIONS"),
    ({"stack": 4}, "state.stack", "draw penalties pending in a stack: 4, but classic-official "
     "plays no variant with them", "V.STACK.WHO"),
    ({"eliminated": [1]}, "state.eliminated", "seats out of the game: [1], but "
     "classic-official plays no variant with them", "DESAFIO.ELIMINATED-OUT"),
    ({"winners": [0, 0]}, "state.winners", "a seat given twice", "CL.PLAY.TURN-OPTIONS"),
    ({"challenge_legal": "yes"}, "state.challenge_legal", "true or false, not \"yes\"",
     "CL.PLAY.TURN-OPTIONS"),
    ({"rng": {"version": 3}}, "state.rng", "not the state of a random.Random: 'mt19937'",
     "CL.PLAY.TURN-OPTIONS"),
    ({"format": "uno-fsm/state/9"}, "state.format", "\"uno-fsm/state/9\": not a "
     "uno-fsm/state/2 document (nor uno-fsm/state/1)", "CL.PLAY.TURN-OPTIONS"),
    ({"teleport": 1}, "state.teleport", "unknown field of a game state", "CL.PLAY.TURN-OPTIONS"),
])
def test_each_impossible_field_is_named(state: dict[str, Any], field: str, message: str,
                                        rule: str) -> None:
    err = _load(_mutated(1, **state))
    assert (err.code, err.field, err.message, err.rule) == ("malformed-action", field,
                                                            f"{field}: {message}", rule)


def test_cards_the_deck_does_not_hold_are_refused() -> None:
    """Twelve Wild Draw Fours; 300 cards; a Flip card in a classic pile; a card lost."""
    doc = _mutated(1)
    doc["state"]["hands"][0] += ["W4"] * 12
    err = _load(doc)
    assert (err.field, err.rule) == ("state", "CL.DECK.TOTAL")
    assert err.message == ("state: the cards in play are not those of the game: missing none, "
                           "extra {'W4': 12}")
    doc = _mutated(1)
    doc["state"]["draw"] += ["R1"] * 300
    assert _load(doc).message.endswith("extra {'R1': 300}")
    doc = _mutated(1)
    doc["state"]["discard"].append("R5/PD5")
    err = _load(doc)
    assert (err.field, err.message) == (
        f"state.discard[{len(doc['state']['discard']) - 1}]",
        f"state.discard[{len(doc['state']['discard']) - 1}]: R5/PD5 is not a card of "
        "classic UNO")
    doc = _mutated(1)
    lost = doc["state"]["draw"].pop()
    assert _load(doc).message == (f"state: the cards in play are not those of the game: "
                                  f"missing {{'{lost}': 1}}, extra none")


@pytest.mark.parametrize(("text", "field", "message"), [
    ("[" * 100_000 + "]" * 100_000, "json", "not a saved game: arrays and objects nested deeper "
     "than 100 levels (line 1)"),
    ("1" * 5000, "json", "not a saved game: an integer of 5000 digits (at most 4000) (line 1)"),
    ("{\"state\": NaN}", "json", "not a saved game: NaN is not JSON (RFC 8259) (line 1)"),
    ("[]", "json", "a saved game is an object, not a list"),
    ("{}", "state", "missing"),
    ("{\"state\": 1}", "state", "an object, not an integer"),
    ("{\"state\": {}, \"x\": 1}", "x", "unknown field of a saved game (state, origin, log)"),
    ("{\"state\": {\"ruleset\": 5}}", "state.ruleset", "a ruleset name, not 5"),
    ("{\"state\": {\"ruleset\": \"teleport\"}}", "state.ruleset", "\"teleport\": unknown "
     "ruleset 'teleport'"),
    ("not json", "json", "not a saved game: Expecting value (column 1) (line 1)"),
])
def test_garbage_is_one_typed_error(text: str, field: str, message: str) -> None:
    err = _load(text)
    assert (err.field, err.message[len(field) + 2:][:len(message)]) == (field, message)
    assert err.message.startswith(f"{field}: ")


def test_a_non_string_is_refused() -> None:
    for value in (None, 5, ["{}"], {"state": {}}):
        with pytest.raises(E.InvalidState) as info:
            Game.from_json(value)  # type: ignore[arg-type]
        assert info.value.field == "json"


def test_a_position_the_invariants_reject_is_refused() -> None:
    """Each field valid alone, the whole impossible: a Desafio state eliminating a seat that
    still holds cards, a round over with a card drawn, a pending penalty of a draw that is
    not stackable."""
    i = RULESETS.index("classic-official+partners") * 3 + 1
    doc = _mutated(i)
    doc["state"]["scores"] = [0, 10, 0, 0]  # partners 1 and 3 hold one total (PARTNERS.TARGET)
    err = _load(doc)
    assert (err.field, err.rule) == ("state", "PARTNERS.TARGET")
    assert err.message == "state: partners' totals differ: [0, 10, 0, 0]"


def test_the_log_is_checked_too() -> None:
    doc = _mutated(1)
    doc["log"] = {"actions": ["play," + "9" * 40], "order": [0]}
    err = _load(doc)
    assert err.field == "log[0]" and err.message == \
        f"log[0]: seat {'9' * 40} is not a seat of 4 players"
    doc["log"] = {"actions": ["teleport,0"], "order": [0]}
    assert _load(doc).field == "log"
    doc["log"] = {"actions": [], "order": [3]}
    assert _load(doc).message == "log: 3 is not the index of one of its 0 actions"


def test_a_seed_is_a_whole_number_and_a_saved_game_stays_json() -> None:
    """`seed` NaN was written as a bare `NaN`, which is not JSON. (The compiled build refuses
    a seed that is not an `int` in the signature itself, with a TypeError, and reads `True`
    as the int 1.)"""
    for seed in (math.nan, math.inf, 1.0, "1", 10**4000, *(() if uno_fsm.compiled() else
                                                            (True,))):
        typed = isinstance(seed, int) or not uno_fsm.compiled()
        with pytest.raises(E.InvalidState if typed else TypeError) as info:
            Game.new("classic-official", 4, seed=seed)  # type: ignore[arg-type]
        assert not typed or info.value.field == "seed"  # type: ignore[attr-defined]
        with pytest.raises(E.InvalidState if typed else TypeError) as info:
            Game.from_setup("classic-official", {"players": 2, "discard": ["R5"],
                                                 "hands": {0: ["R1"], 1: ["B2"]}},
                            seed=seed)  # type: ignore[arg-type]
        assert not typed or info.value.field == "seed"  # type: ignore[attr-defined]
    with pytest.raises(E.InvalidState) as info:
        Game.from_setup("classic-official", {"players": 2, "discard": ["R5"], "note": math.nan})
    assert (info.value.field, info.value.message) == (
        "setup", "setup: not JSON data (Out of range float values are not JSON compliant)")
    big = Game.new("classic-official", 4, seed=10**100)  # any whole number seeds a game
    assert Game.from_json(big.to_json()).state == big.state
    doc = json.loads(POSITIONS[0].to_json())
    doc["origin"]["new"]["seed"] = "NaN"
    assert _load(doc).field == "origin.new.seed"


@pytest.mark.parametrize(("setup", "field", "rule"), [
    ({"dealer": 5}, "setup.dealer", "CL.DECK.PLAYERS"),
    ({"current": -1}, "setup.current", "CL.DECK.PLAYERS"),
    ({"scores": {0: 10**12}}, "setup.scores", "CL.SCORE.ACCUMULATE"),
    ({"hands": {0: ["W4"] * 5, 1: ["B2"]}}, "setup", "CL.DECK.TOTAL"),
    ({"draw": ["R1"] * 3}, "setup", "CL.DECK.TOTAL"),
])
def test_from_setup_refuses_what_the_ruleset_cannot_hold(setup: dict[str, Any], field: str,
                                                         rule: str) -> None:
    base = {"players": 2, "discard": ["R5"], "hands": {0: ["R1"], 1: ["B2"]}} | setup
    with pytest.raises(E.InvalidState) as info:
        Game.from_setup("classic-official", base)
    assert (info.value.code, info.value.field, info.value.rule) == ("malformed-action", field,
                                                                    rule)


def test_flip_setup_and_flip_state_hold_their_own_deck() -> None:
    with pytest.raises(E.InvalidState) as info:
        Game.from_setup("flip", {"players": 2, "discard": ["R1/V1"] * 3,  # two R1, two V1
                                 "hands": {0: ["R2/T4"], 1: ["R2/V2"]}})
    assert (info.value.rule, info.value.message) == (
        "FL.DECK.SIZE", "setup: more copies than the deck holds: R1 x1 too many, V1 x1 too many")
    Game.from_setup("flip", {"players": 2, "discard": ["R1/V1", "R1/V1"],  # faces paired anew
                             "hands": {0: ["R2/T4"], 1: ["R2/V2"]}})
    i = RULESETS.index("flip") * 3 + 1
    err = _load(_mutated(i, active_color="R", side="dark"))
    assert (err.field, err.rule) == ("state.active_color", "CL.WILD.FOUR-COLOURS")


# ---- the property: mutated saved games ------------------------------------------------------
CARD_TEXTS = sorted({c.text for r in RULESETS for c in build_deck(Params.of(r))})
LEAF = (st.none() | st.booleans() | st.integers(-2, 12) | st.integers()
        | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=6)
        | st.sampled_from(CARD_TEXTS) | st.sampled_from(PHASES)
        | st.sampled_from(["R", "P", "red", "light", "dark", "uno-fsm/state/2"]))
VALUE = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
FIELDS = sorted(DOCS[0]["state"])
PILES = ("draw", "discard")


def _mutate(data: st.DataObject, doc: dict[str, Any]) -> None:
    state = doc["state"]
    op = data.draw(st.sampled_from(["set", "delete", "card", "swap-cards", "seat", "number",
                                    "phase", "drawn", "flag", "doc"]))
    if not isinstance(state, dict) or op == "doc":
        doc[data.draw(st.sampled_from(["origin", "log", "state"]))] = data.draw(VALUE)
    elif op == "set":
        state[data.draw(st.sampled_from(FIELDS))] = data.draw(VALUE)
    elif op == "delete":
        state.pop(data.draw(st.sampled_from(FIELDS)), None)
    elif op == "card":  # a card added, dropped or replaced in a hand or a pile
        place = _place(data, state)
        if place and data.draw(st.booleans()):
            card = data.draw(st.sampled_from(CARD_TEXTS))
            place[data.draw(st.integers(0, len(place) - 1))] = card
        elif place and data.draw(st.booleans()):
            place.pop(data.draw(st.integers(0, len(place) - 1)))
        else:
            place.append(data.draw(st.sampled_from(CARD_TEXTS)))
    elif op == "swap-cards":  # a card moved from one place to another: the deck is whole
        a, b = _place(data, state), _place(data, state)
        if a:
            b.append(a.pop(data.draw(st.integers(0, len(a) - 1))))
    elif op == "seat":
        key = data.draw(st.sampled_from(["current", "dealer", "uno_window", "challenge_by",
                                         "round_winner", "winner"]))
        state[key] = data.draw(st.none() | st.integers(-1, 11))
    elif op == "phase":  # every phase, whatever the position: what each phase needs
        state["phase"] = data.draw(st.sampled_from(PHASES))
    elif op == "drawn":
        hand = _place(data, state)
        state["drawn"] = data.draw(st.none() | st.sampled_from(hand or CARD_TEXTS))
    elif op == "flag":
        key = data.draw(st.sampled_from(["first_color", "challenge_legal"]))
        state[key] = not state.get(key)
    elif op == "number":
        key = data.draw(st.sampled_from(["stack", "round", "players", "direction"]))
        state[key] = data.draw(st.integers(-2, 12))


def _place(data: st.DataObject, state: dict[str, Any]) -> list[Any]:
    hands = state.get("hands")
    choices: list[list[Any]] = [state[p] for p in PILES if isinstance(state.get(p), list)]
    if isinstance(hands, list):
        choices += [h for h in hands if isinstance(h, list)]
    return data.draw(st.sampled_from(choices)) if choices else []


@settings(max_examples=int(os.environ.get("UNO_LOADING_EXAMPLES", 300)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_saved_games_raise_one_typed_error_or_hold_every_invariant(
        data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(DOCS) - 1))
    doc = json.loads(json.dumps(DOCS[i]))
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(data, doc)
    text = json.dumps(doc, allow_nan=True)
    try:
        g = Game.from_json(text)
    except E.InvalidState:
        return
    # accepted: every invariant of a reachable position holds, with the ruleset's whole deck
    # (or, for a game its origin says was set up, the cards of that set-up)
    ruleset = RULESETS[i // 3]
    deck = Counter(c.text for c in build_deck(Params.of(ruleset)))
    setup = g.origin.get("setup")
    if isinstance(setup, dict):
        hands = setup.get("hands") or []
        listed = [*(setup.get("draw") or []), *(setup.get("discard") or []),
                  *(c for h in (hands.values() if isinstance(hands, dict) else hands)
                    for c in h)]
        deck = Counter(listed) or deck
    check_invariants(g, Facts.of(ruleset), deck)
    rnd = random.Random(data.draw(st.integers(0, 2**16)))
    for _ in range(6):  # and it plays on like any game
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
        check_invariants(g, Facts.of(ruleset), deck)
    assert Game.from_json(g.to_json()).state == g.state


def test_every_card_text_parses() -> None:
    assert all(parse(t).text == t for t in CARD_TEXTS)
