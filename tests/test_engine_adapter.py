"""The reference adapter maps scenario actions to engine actions and errors to codes."""

from __future__ import annotations

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.protocol import PROTOCOL, Unsupported

SETUP = {"players": 3, "dealer": 2, "current": 0, "direction": "clockwise",
         "hands": {0: ["B5", "W4", "G1"], 1: ["Y3", "Y7"], 2: ["R2"]},
         "discard": ["R9", "R5"], "active_color": "red",
         "draw": ["B1", "B2", "B3", "B4", "B6", "B7", "G2"]}


def adapter() -> ReferenceAdapter:
    a = ReferenceAdapter()
    assert a.hello()["protocol"] == PROTOCOL
    a.setup({"ruleset": "classic-official", "setup": SETUP, "seed": 0})
    return a


def test_wd4_challenge_through_the_adapter() -> None:
    a = adapter()
    assert a.act({"player": 0, "play": "W4", "color": "green"}) is None
    assert a.observe(["pending"]) == {"pending": {"player": 1, "decision": "challenge"}}
    before = a.observe(["hands", "draw_size", "current"])
    err = a.act({"player": 2, "challenge": True})
    assert err is not None and err["code"] == "not-challengeable"
    assert err["rule"] == "CL.WD4.CHALLENGE.WHO"
    assert a.observe(["hands", "draw_size", "current"]) == before
    assert a.act({"player": 1, "challenge": True}) is None
    obs = a.observe(["hand_sizes", "active_color", "current", "top", "scores", "winner",
                     "round_over", "game_over", "direction", "side", "discard_size"])
    assert obs["hand_sizes"] == {0: 2, 1: 8, 2: 1} and obs["active_color"] == "green"
    assert obs["current"] == 2 and obs["top"] == "W4" and obs["winner"] is None


@pytest.mark.parametrize("action,code", [
    ({"player": 0, "play": "X9"}, "malformed-action"),
    ({"player": 0, "play": "W4", "color": "pink"}, "invalid-color"),
    ({"player": 0, "play": "W4", "color": "mauve"}, "invalid-color"),
    ({"player": 0, "play": "W4"}, "color-required"),
    ({"player": 0, "bogus": 1}, "malformed-action"),
    ({"player": 1, "draw": True}, "not-your-turn"),
    ({"player": 0, "play": "Y3"}, "card-not-in-hand"),
    ({"player": 0, "play": "G1"}, "card-does-not-match"),
    ({"player": 0, "pass": True}, "wrong-decision"),
    ({"player": 0, "uno": True}, "no-uno-window"),
    ({"player": 1, "catch": 2}, "nothing-to-catch"),
    ({"referee": "wrong-card", "player": 1, "card": "Y3"}, "not-your-turn"),
])
def test_errors_come_back_as_codes(action: dict[str, object], code: str) -> None:
    a = adapter()
    err = a.act(action)
    assert err is not None and err["code"] == code


def test_flip_is_supported() -> None:
    a = ReferenceAdapter()
    assert "flip" in a.hello()["rulesets"]
    a.setup({"ruleset": "flip", "seed": 0, "setup": {
        "players": 2, "current": 0, "side": "light", "hands": {0: ["RF/O4"], 1: ["Y3/T7"]},
        "discard": ["B2/T6", "R5/P3"], "draw": ["Y6/P6"]}})
    assert a.act({"player": 0, "play": "RF/O4"}) is None
    assert a.observe(["side", "top", "active_color"]) == {
        "side": "dark", "top": "B2/T6", "active_color": "teal"}


def test_unknown_ruleset_is_unsupported() -> None:
    a = ReferenceAdapter()
    with pytest.raises(Unsupported):
        a.setup({"ruleset": "no-such-ruleset", "setup": {"players": 2}, "seed": 0})


@pytest.mark.parametrize("taken,lookalike", [
    ({"player": 0, "draw": True}, {"player": 0, "draw": 1}),  # `true` is not `1`
    ({"player": 0, "catch": 1}, {"player": 0, "catch": True}),  # a seat is not `true`
    ({"player": 0, "play": "W4", "uno": False, "color": "red"},
     {"player": 0, "play": "W4", "uno": 0, "color": "red"}),
])
def test_a_remembered_action_does_not_stand_for_its_lookalike(
        taken: dict[str, object], lookalike: dict[str, object]) -> None:
    """The adapter remembers each action it converted (the fuzzer's oracle converts the same
    few at every step): an action equal to one of them in Python but not in JSON is still
    refused as malformed."""
    a = adapter()
    a.act(dict(taken))  # converted (and played or refused) first
    a = adapter()
    err = a.act(lookalike)
    assert err is not None and err["code"] == "malformed-action", err
