"""The uno-game adapter (conformance/adapters/unogame.py): uno-game's callbacks inverted into
the protocol, its hang stopped, its threads and its patched deck cleaned up."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uno", reason="uno-game is not installed (pip install '.[uno-game]')")

import uno._game  # noqa: E402
import uno._player  # noqa: E402

from conformance.adapters.unogame import UnoGameAdapter  # noqa: E402
from conformance.protocol import AdapterError, Unsupported  # noqa: E402

ORIGINAL_DRAW = uno._player.draw


@pytest.fixture
def adapter(monkeypatch: pytest.MonkeyPatch) -> Iterator[UnoGameAdapter]:
    monkeypatch.setenv("UNO_GAME_HANG_SECONDS", "0.3")
    a = UnoGameAdapter()
    yield a
    a.close()
    assert uno._player.draw is ORIGINAL_DRAW and uno._game.draw is ORIGINAL_DRAW
    assert not [t for t in threading.enumerate() if t.name == "uno-game"]


def _turn(hands: dict[int, list[str]], discard: list[str], draw: list[str],
          current: int = 0, **kw: Any) -> dict[str, Any]:
    setup = {"players": len(hands), "dealer": len(hands) - 1, "current": current,
             "hands": hands, "discard": discard, "draw": draw}
    setup.update(kw)
    return {"ruleset": "classic-official", "setup": setup, "seed": 1}


def _obs(a: UnoGameAdapter) -> dict[str, Any]:
    return a.observe(["hands", "top", "active_color", "current", "pending", "direction"])


def test_hello_declares_the_draw_pile_it_deals_from_and_no_discards_or_scores(
        adapter: UnoGameAdapter) -> None:
    h = adapter.hello()
    assert h["name"] == "uno-game" and h["version"] == "1.1.0"
    assert "draw_size" in h["observations"]  # the scenario's pile, all the deck uno-game has
    assert not {"discard_size", "scores"} & set(h["observations"])
    assert not {"reshuffle", "deal", "scoring", "uno-call"} & set(h["features"])


def test_a_play_runs_uno_games_turn_and_the_next_seat_is_asked(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["R1", "G2"], 1: ["B3", "Y4"], 2: ["G5"]}, ["R5"], ["B9"]))
    assert adapter.act({"player": 0, "play": "R1"}) is None
    assert _obs(adapter) == {"hands": {0: ["G2"], 1: ["B3", "Y4"], 2: ["G5"]}, "top": "R1",
                             "active_color": "red", "current": 1,
                             "pending": {"player": 1, "decision": "play"},
                             "direction": "clockwise"}


def test_a_card_uno_game_refuses_changes_nothing(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["R1", "G2"], 1: ["B3"]}, ["R5"], ["B9"]))
    before = _obs(adapter)
    rejected = adapter.act({"player": 0, "play": "G2"})
    assert rejected is not None and rejected["code"] == "card-does-not-match"
    assert "can_play_card" in rejected["message"]
    assert _obs(adapter) == before
    assert adapter.act({"player": 0, "play": "R1"}) is None  # the same turn goes on
    assert adapter.observe(["current"]) == {"current": 1}


def test_a_draw_while_able_to_play_is_refused_by_uno_game(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["R1", "G2"], 1: ["B3"]}, ["R5"], ["B9"]))
    before = _obs(adapter)
    rejected = adapter.act({"player": 0, "draw": True})
    assert rejected is not None and rejected["code"] == "wrong-decision"
    assert _obs(adapter) == before


def test_a_stuck_player_draws_a_playable_card_and_must_play(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["G2", "B4"], 1: ["B3"]}, ["R5"], ["R7", "Y1"]))
    assert adapter.act({"player": 0, "draw": True}) is None
    assert adapter.observe(["hands", "pending"]) == {
        "hands": {0: ["G2", "B4", "R7"], 1: ["B3"]},
        "pending": {"player": 0, "decision": "play-drawn"}}
    rejected = adapter.act({"player": 0, "pass": True})
    assert rejected is not None and rejected["code"] == "wrong-decision"
    assert adapter.act({"player": 0, "play": "R7"}) is None
    assert adapter.observe(["top", "current"]) == {"top": "R7", "current": 1}


def test_an_unplayable_draw_passes_by_itself(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["G2"], 1: ["B3"]}, ["R5"], ["Y7"]))
    assert adapter.act({"player": 0, "draw": True}) is None
    assert adapter.observe(["hands", "current"]) == {"hands": {0: ["G2", "Y7"], 1: ["B3"]},
                                                     "current": 1}


def test_a_draw_beyond_the_pile_is_unsupported(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["G2"], 1: ["B3"]}, ["R5"], []))
    with pytest.raises(Unsupported, match="uno-game's deck is endless"):
        adapter.act({"player": 0, "draw": True})


def test_a_wild_draw_four_asks_its_victim(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["W4", "G2"], 1: ["B3"], 2: ["Y1"]}, ["R5"],
                        ["B1", "B2", "B4", "B5", "B6", "B7"]))
    assert adapter.act({"player": 0, "play": "W4", "color": "blue"}) is None
    assert adapter.observe(["pending", "active_color"]) == {
        "pending": {"player": 1, "decision": "challenge"}, "active_color": "blue"}
    rejected = adapter.act({"player": 2, "challenge": True})
    assert rejected is not None and rejected["code"] == "not-challengeable"
    assert adapter.act({"player": 1, "challenge": False}) is None
    assert adapter.observe(["hand_sizes", "current"]) == {"hand_sizes": {0: 1, 1: 5, 2: 1},
                                                          "current": 2}


def test_the_last_card_ends_the_game(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["W"], 1: ["B3"]}, ["R5"], []))
    assert adapter.act({"player": 0, "play": "W"}) is None  # no colour needed: uno-game ends
    assert adapter.observe(["game_over", "round_over", "winner", "current", "pending"]) == {
        "game_over": True, "round_over": True, "winner": 0, "current": None,
        "pending": {"player": None, "decision": "none"}}
    rejected = adapter.act({"player": 1, "play": "B3"})
    assert rejected is not None and rejected["code"] == "game-over"


FIRST_WILD = {"ruleset": "classic-official", "seed": 0, "setup": {
    "players": 2, "dealer": 1, "start": "round", "hands": {0: ["R1"], 1: ["R2"]},
    "draw": ["W", "R5"]}}


def test_a_wild_turned_first_loops_and_is_stopped_by_its_count_of_calls(
        adapter: UnoGameAdapter, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop is found by the Python calls the game thread makes without asking anything
    (`HANG_CALLS`), not by the time it takes: it is stopped long before the time limit (20 s
    here), and the adapter is usable again."""
    monkeypatch.setenv("UNO_GAME_HANG_SECONDS", "20")
    started = time.monotonic()
    with pytest.raises(AdapterError) as err:
        adapter.setup(FIRST_WILD)
    assert time.monotonic() - started < 10
    assert str(err.value) == ("uno-game-hung: uno-game's game thread made 20000 calls without "
                              "asking a player or ending: it loops")
    assert adapter.thread is not None and not adapter.thread.is_alive()
    adapter.setup(_turn({0: ["R1"], 1: ["B3"]}, ["R5"], []))
    assert adapter.observe(["current"]) == {"current": 0}
    # a turn's calls are counted from its own request: a long game is not a loop
    adapter.setup(_turn({0: ["R1", "R2", "R3"], 1: ["B3", "B4", "R7"]}, ["R5"], []))
    for act in ({"player": 0, "play": "R1"}, {"player": 1, "play": "R7"},
                {"player": 0, "play": "R2"}):
        assert adapter.act(act) is None
    assert adapter.bridge.calls.calls < 1000


def test_a_loop_the_count_misses_is_stopped_by_the_time_limit(
        adapter: UnoGameAdapter, monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO_GAME_HANG_CALLS=0: calls are not counted; the time limit (0.3 s here) stops the
    same loop, as a loop that makes no Python call would be."""
    monkeypatch.setenv("UNO_GAME_HANG_CALLS", "0")
    with pytest.raises(AdapterError) as err:
        adapter.setup(FIRST_WILD)
    assert err.value.code == "uno-game-hung"
    assert "within 0.3 s: it loops" in str(err.value) and "could not" not in str(err.value)
    assert adapter.thread is not None and not adapter.thread.is_alive()
    adapter.setup(_turn({0: ["R1"], 1: ["B3"]}, ["R5"], []))
    assert adapter.observe(["current"]) == {"current": 0}


def test_setup_of_a_new_scenario_unwinds_the_waiting_game(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["R1"], 1: ["B3"]}, ["R5"], []))
    first = adapter.thread
    adapter.setup(_turn({0: ["R1"], 1: ["B3"]}, ["R5"], []))
    assert first is not None and not first.is_alive()


@pytest.mark.parametrize("action, code", [
    ({"player": 1, "play": "B3"}, "not-your-turn"),
    ({"player": 0, "play": "Y9"}, "card-not-in-hand"),
    ({"player": 0, "play": "W"}, "color-required"),
    ({"player": 0, "play": "W", "color": "pink"}, "invalid-color"),
    ({"player": 0, "play": "X"}, "malformed-action"),
    ({"player": 7, "play": "R1"}, "malformed-action"),
    ({"player": 0, "challenge": True}, "not-challengeable"),
])
def test_rejections_change_nothing(adapter: UnoGameAdapter, action: dict[str, Any],
                                   code: str) -> None:
    adapter.setup(_turn({0: ["R1", "W"], 1: ["B3"]}, ["R5"], ["G1"]))
    before = _obs(adapter)
    rejected = adapter.act(action)
    assert rejected is not None and rejected["code"] == code
    assert _obs(adapter) == before


def test_the_uno_call_is_unsupported(adapter: UnoGameAdapter) -> None:
    adapter.setup(_turn({0: ["R1", "G2"], 1: ["B3"]}, ["R5"], []))
    with pytest.raises(Unsupported, match="no UNO call"):
        adapter.act({"player": 0, "play": "R1", "uno": True})


@pytest.mark.parametrize("value", ["abc", "-5", "1e9", "２０", "9" * 19, "1.5"])
def test_a_hang_budget_that_is_no_whole_number_is_refused_before_anything_changes(
        adapter: UnoGameAdapter, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    adapter.setup(_turn({0: ["R1"], 1: ["B3"]}, ["R5"], []))
    monkeypatch.setenv("UNO_GAME_HANG_CALLS", value)
    with pytest.raises(AdapterError) as err:
        adapter.setup(_turn({0: ["G1"], 1: ["B3"]}, ["G5"], []))
    assert err.value.code == "bad-environment"
    assert str(err.value) == ("bad-environment: UNO_GAME_HANG_CALLS must be a whole number of "
                              f"calls (0: not counted), not {value[:40]!r}")
    assert adapter.observe(["hands", "current"]) == {"hands": {0: ["R1"], 1: ["B3"]},
                                                     "current": 0}  # the game before it
    monkeypatch.setenv("UNO_GAME_HANG_CALLS", " 500 ")  # blanks around a number are fine
    adapter.setup(_turn({0: ["G1"], 1: ["B3"]}, ["G5"], []))
    assert adapter.bridge.calls.budget == 500
