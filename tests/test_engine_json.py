"""The JSON form of a game (uno_fsm/state.py, uno_fsm/game.py): compact, exact, and strict.

Format 2 writes the RNG as its packed Mersenne Twister state in base64 and the log as a table
of distinct actions (compact text) with the indexes of the log; format 1 (the RNG as 625
integers, the log as a list of actions) is still read."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

from uno_fsm import Action, Game
from uno_fsm import errors as E
from uno_fsm.bots import basic_bot
from uno_fsm.cards import parse
from uno_fsm.state import FORMAT, FORMAT_1, State, rng_from_json, rng_to_json


def _played(ruleset: str = "classic-official", players: int = 4, seed: int = 7,
            actions: int = 120) -> Game:
    g = Game.new(ruleset, players, seed)
    rng = random.Random(seed)
    while len(g.log) < actions and not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


def _format_1(text: str) -> str:
    """The same game as format 1 wrote it: the RNG as [version, [625 ints], gauss_next], the
    log as the list of its actions."""
    d = json.loads(text)
    state = d["state"]
    rng = rng_from_json(state["rng"])
    version, internal, gauss = rng.getstate()
    state["format"] = FORMAT_1
    state["rng"] = [version, list(internal), gauss]
    d["log"] = [a.to_dict() for a in Game.from_json(text).log]
    return json.dumps(d)


def _plays_on_identically(g: Game, h: Game, rounds: int = 2) -> None:
    """Both games take the same actions (the basic bot's) and stay equal through `rounds` new
    deals: each deal shuffles the whole deck with the RNG restored from the JSON."""
    rng = random.Random(1)
    until = g.state.round + rounds
    for _ in range(20_000):
        if g.is_over or g.state.round >= until:
            break
        legal = g.legal_actions()
        assert legal == h.legal_actions()
        a = basic_bot(g, legal, rng)
        assert g.apply(a) == h.apply(a)
        assert g.state == h.state
    assert g.is_over or g.state.round >= until


def test_the_round_trip_is_exact_and_shuffles_the_same() -> None:
    g = _played()
    text = g.to_json()
    h = Game.from_json(text)
    assert h.state == g.state and h.log == g.log and h.to_json() == text
    assert h.state.rng.getstate() == g.state.rng.getstate()
    _plays_on_identically(g, h, 3)


def test_the_rng_is_packed_and_exact() -> None:
    rng = random.Random(11)
    rng.gauss(0, 1)  # sets gauss_next: kept too
    rng.shuffle(list(range(50)))
    d = rng_to_json(rng)
    assert set(d) == {"version", "mt19937", "gauss_next"} and d["gauss_next"] is not None
    assert len(base64.b64decode(d["mt19937"])) == 625 * 4  # 624 words and the position
    back = rng_from_json(json.loads(json.dumps(d)))
    assert back.getstate() == rng.getstate()
    assert [back.random() for _ in range(5)] == [rng.random() for _ in range(5)]


def test_the_log_is_a_table_of_distinct_actions() -> None:
    g = _played(actions=200)
    log = json.loads(g.to_json())["log"]
    assert set(log) == {"actions", "order"} and len(log["order"]) == len(g.log) == 200
    assert len(log["actions"]) == len(set(g.log)) < 200  # each distinct action once
    assert all(type(a) is str for a in log["actions"])  # the compact form (below)
    assert Game.from_json(g.to_json()).log == g.log


@pytest.mark.parametrize("action,text", [
    (Action.draw(0), "draw,0"),
    (Action.play(1, parse("W4"), "r", uno=True), "play,1,W4,r,uno"),
    (Action.play(2, parse("R5/PD5")), "play,2,R5/PD5"),
    (Action.catch(2, 0), "catch,2,,,,0"),
    (Action.hint(3), "hint,,,,,3"),
    (Action.wrong_card(1, parse("B7")), "wrong-card,,B7,,,1"),
    (Action.next_round(), "next-round"),
])
def test_the_compact_action_form(action: Action, text: str) -> None:
    g = _played(actions=0)
    g.log = [action, action]
    d = json.loads(g.to_json())
    assert d["log"] == {"actions": [text], "order": [0, 0]}
    assert Game.from_json(g.to_json()).log == [action, action]


@pytest.mark.parametrize("ruleset,players,seed", [
    ("classic-official", 4, 7), ("flip", 3, 2), ("classic-official+stacking+jump-in", 4, 3)])
def test_format_1_is_still_read(ruleset: str, players: int, seed: int) -> None:
    g = _played(ruleset, players, seed, 80)
    old = _format_1(g.to_json())
    assert json.loads(old)["state"]["format"] == FORMAT_1 != FORMAT
    h = Game.from_json(old)
    assert h.state == g.state and h.log == g.log
    assert h.to_json() == g.to_json()  # written back in format 2
    _plays_on_identically(g, h)


def _tampered(change: Any) -> str:
    d = json.loads(_played(actions=30).to_json())
    change(d)
    return json.dumps(d)


@pytest.mark.parametrize("change,message", [
    (lambda d: d["state"]["rng"].update(mt19937="AAAA"), "3 bytes, not 2500"),
    (lambda d: d["state"]["rng"].update(mt19937="not base64!"), "not the state of a random"),
    (lambda d: d["state"]["rng"].update(version=4), "not the state of a random"),
    (lambda d: d["state"]["rng"].pop("gauss_next"), "not the state of a random"),
    (lambda d: d["state"].update(rng=[3, [0] * 10, None]), "not the state of a random"),
    (lambda d: d["state"].update(format="uno-fsm/state/9"), "not a uno-fsm/state/2 document"),
])
def test_a_broken_rng_is_a_value_error(change: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.from_json(_tampered(change))


def test_an_rng_index_out_of_range_is_refused() -> None:
    words = bytearray(base64.b64decode(rng_to_json(random.Random(1))["mt19937"]))
    words[-4:] = (625).to_bytes(4, "little")  # the position: at most 624
    bad = {"version": 3, "mt19937": base64.b64encode(bytes(words)).decode(), "gauss_next": None}
    with pytest.raises(ValueError, match="not the state of a random"):
        rng_from_json(bad)


@pytest.mark.parametrize("change,message", [
    (lambda d: d["log"]["order"].append(True), "True is not the index"),
    (lambda d: d["log"]["order"].append(-1), "-1 is not the index"),
    (lambda d: d["log"]["order"].append(len(d["log"]["actions"])), "is not the index of one"),
    (lambda d: d["log"]["order"].append("0"), "'0' is not the index"),
    (lambda d: d["log"]["order"].append(1.0), "1.0 is not the index"),
    (lambda d: d["log"].pop("order"), "a log is"),
    (lambda d: d.update(log="draw"), "a log is"),
    (lambda d: d["log"]["actions"].__setitem__(0, "draw,x"), "player 'x' is not a seat"),
    (lambda d: d["log"]["actions"].__setitem__(0, "draw,01"), "player '01' is not a seat"),
    (lambda d: d["log"]["actions"].__setitem__(0, "draw,-1"), "player '-1' is not a seat"),
    (lambda d: d["log"]["actions"].__setitem__(0, "draw,0,,,,,"), "is not kind,player"),
    (lambda d: d["log"]["actions"].__setitem__(0, "play,0,R5,,yes"), "'yes' where uno"),
    (lambda d: d["log"]["actions"].__setitem__(0, "play,0,ZZ"), "'ZZ' is not a card"),
    (lambda d: d["log"]["actions"].__setitem__(0, "fly,0"), "unknown or missing action kind"),
    (lambda d: d["log"]["actions"].__setitem__(0, "draw,0,R5"), "draw: card"),
    (lambda d: d["log"]["actions"].__setitem__(0, {"kind": "draw", "player": True}),
     "player True"),
    (lambda d: d["log"]["actions"].__setitem__(0, 5), "a mapping"),
])
def test_a_broken_log_is_a_malformed_action(change: Any, message: str) -> None:
    with pytest.raises(E.MalformedAction, match=message):
        Game.from_json(_tampered(change))


def test_an_action_the_compact_form_cannot_hold_is_written_in_full() -> None:
    odd = Action("play", 0, parse("W"), "r,g")  # well formed (a string colour), never legal
    g = _played(actions=0)
    g.log = [odd]
    assert json.loads(g.to_json())["log"]["actions"] == [odd.to_dict()]
    assert Game.from_json(g.to_json()).log == [odd]


def test_a_state_alone_round_trips() -> None:
    st = _played(actions=50).state
    back = State.from_dict(json.loads(json.dumps(st.to_dict())))
    assert back == st and back.rng.getstate() == st.rng.getstate()
