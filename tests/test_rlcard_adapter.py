"""The RLCard adapter: card and action mapping both ways, exact positions, rejections."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("rlcard", reason="RLCard is not installed (pip install '.[rlcard]')")

from conformance.adapters import resolve  # noqa: E402
from conformance.adapters.rlcard import (  # noqa: E402
    CardError,
    RLCardAdapter,
    action_from_string,
    action_string,
    card_text,
    make_card,
    parse_card,
)
from conformance.protocol import PROTOCOL, AdapterError, Unsupported, check_hello  # noqa: E402


@pytest.mark.parametrize(("text", "expected"), [
    ("R5", ("number", "r", "5")), ("G0", ("number", "g", "0")), ("GS", ("action", "g", "skip")),
    ("YR", ("action", "y", "reverse")), ("BD2", ("action", "b", "draw_2")),
    ("W", ("wild", "r", "wild")), ("W4", ("wild", "r", "wild_draw_4")),
])
def test_card_notation_to_rlcard_and_back(text: str, expected: tuple[str, str, str]) -> None:
    assert parse_card(text) == expected
    card = make_card(text)
    assert (card.type, card.color, card.trait) == expected
    assert card_text(card) == text


@pytest.mark.parametrize("bad", ["", "X5", "R", "R10", "RD4", "WD", "P5"])
def test_bad_cards_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_card(bad)


@pytest.mark.parametrize(("card", "color", "rl"), [
    ("R5", None, "r-5"), ("GS", None, "g-skip"), ("YR", None, "y-reverse"),
    ("BD2", None, "b-draw_2"), ("W", "green", "g-wild"), ("W4", "red", "r-wild_draw_4"),
])
def test_actions_map_both_ways(card: str, color: str | None, rl: str) -> None:
    assert action_string(card, color) == rl
    back = action_from_string(rl)
    assert back["play"] == card
    assert back.get("color") == color
    assert action_from_string("draw") == {"draw": True}


def test_every_rlcard_action_maps_to_ours_and_back() -> None:
    from rlcard.games.uno.utils import ACTION_LIST

    assert len(ACTION_LIST) == 61
    for rl in ACTION_LIST:
        ours = action_from_string(rl)
        if "draw" in ours:
            assert rl == "draw"
        else:
            assert action_string(ours["play"], ours.get("color")) == rl


@pytest.mark.parametrize("bad", ["", "r", "r-", "-5", "q-5", "r-10", "r-wild_draw_2",
                                 "draw-2", "x" * 100_000, None, 5, ["r-5"]])
def test_a_string_that_names_no_rlcard_action_is_refused(bad: Any) -> None:
    with pytest.raises(CardError, match="not an RLCard action"):
        action_from_string(bad)


@pytest.mark.parametrize("listed", [["r-5", "bogus"], ["draw", ""], [None]])
def test_a_malformed_legal_action_of_rlcard_is_an_adapter_error(
        listed: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    a = RLCardAdapter()
    a.setup({"ruleset": "classic-official", "seed": 0, "setup": {
        "players": 2, "dealer": 1, "start": "turn", "current": 0, "direction": "clockwise",
        "hands": {"0": ["R5", "G7"], "1": ["Y3", "R1"]}, "discard": ["R9"],
        "active_color": "red", "draw": ["Y1", "Y2"]}})
    monkeypatch.setattr(a.game, "get_legal_actions", lambda: listed)
    with pytest.raises(AdapterError) as err:
        a.observe(["legal_actions"])
    assert err.value.code == "rlcard-bad-action"
    # what else it observes is still answered
    assert a.observe(["hand_sizes"]) == {"hand_sizes": {0: 2, 1: 2}}


def test_hello_declares_only_what_rlcard_supports() -> None:
    caps = check_hello(RLCardAdapter().hello())
    assert caps["protocol"] == PROTOCOL
    assert caps["rulesets"] == ["classic-official"]
    for missing in ("scoring", "uno-call", "uno-catch", "wd4-challenge", "referee-penalties",
                    "flip", "cards-2018"):
        assert missing not in caps["features"]
    assert "scores" not in caps["observations"] and "side" not in caps["observations"]
    assert resolve("rlcard").implementation == "rlcard"


def _setup(**over: Any) -> RLCardAdapter:
    setup: dict[str, Any] = {
        "players": 3, "dealer": 2, "current": 1, "direction": "counterclockwise",
        "hands": {"0": ["R4", "W"], "1": ["Y9", "B2", "W4"], "2": ["G2"]},
        "discard": ["B3", "Y5"], "active_color": "yellow", "draw": ["B1", "G8", "R3"],
    }
    setup.update(over)
    a = RLCardAdapter()
    a.setup({"ruleset": "classic-official", "setup": setup, "seed": 0})
    return a


def test_exact_position_is_set_in_rlcards_objects() -> None:
    a = _setup()
    g = a.game
    assert [card_text(c) for c in g.players[1].hand] == ["Y9", "B2", "W4"]
    # RLCard draws with deck.pop(): the top of our draw pile is the END of dealer.deck
    assert [card_text(c) for c in g.dealer.deck] == ["R3", "G8", "B1"]
    assert [card_text(c) for c in g.round.played_cards] == ["B3", "Y5"]
    assert card_text(g.round.target) == "Y5"
    assert g.round.current_player == 1 and g.round.direction == -1
    obs = a.observe(["hands", "top", "active_color", "current", "pending", "direction",
                     "draw_size", "discard_size", "round_over", "winner"])
    assert obs == {
        "hands": {0: ["R4", "W"], 1: ["Y9", "B2", "W4"], 2: ["G2"]}, "top": "Y5",
        "active_color": "yellow", "current": 1, "pending": {"player": 1, "decision": "play"},
        "direction": "counterclockwise", "draw_size": 3, "discard_size": 2,
        "round_over": False, "winner": None}


def test_every_card_is_counted_by_its_text_even_one_the_setup_did_not_make() -> None:
    """`card_counts` and `total_cards` count the deck, the discards and the hands; a card put
    in by anything but the set-up (RLCard's own constructor) is named by its fields."""
    a = _setup()
    keys = ["card_counts", "total_cards", "hands"]
    assert a.observe(keys) == {
        "card_counts": {"R3": 1, "G8": 1, "B1": 1, "B3": 1, "Y5": 1, "R4": 1, "W": 1,
                        "Y9": 1, "B2": 1, "W4": 1, "G2": 1},
        "total_cards": 11, "hands": {0: ["R4", "W"], 1: ["Y9", "B2", "W4"], 2: ["G2"]}}
    a.game.dealer.deck.insert(0, make_card("R4"))
    a.game.players[2].hand.append(make_card("GS"))
    obs = a.observe(keys)
    assert obs["card_counts"]["R4"] == 2 and obs["card_counts"]["GS"] == 1
    assert obs["total_cards"] == 13 and obs["hands"][2] == ["G2", "GS"]


def test_wild_on_top_carries_the_active_colour() -> None:
    a = _setup(discard=["B3", "W"], active_color="green")
    assert a.game.round.target.color == "g"
    assert a.observe(["top", "active_color"]) == {"top": "W", "active_color": "green"}


def test_play_and_draw_go_through_rlcard() -> None:
    a = _setup()
    assert a.act({"player": 1, "play": "Y9"}) is None
    assert a.observe(["top", "current"]) == {"top": "Y9", "current": 0}
    assert a.act({"player": 0, "play": "W", "color": "blue"}) is None
    assert a.observe(["top", "active_color", "current"]) == {
        "top": "W", "active_color": "blue", "current": 2}
    # seat 2 holds G2 only: RLCard offers nothing but 'draw'; B1 (top of the pile) is blue,
    # the active colour, so RLCard's _perform_draw_action plays it at once
    assert a.act({"player": 2, "draw": True}) is None
    assert a.observe(["top", "hand_sizes", "current"]) == {
        "top": "B1", "hand_sizes": {0: 1, 1: 2, 2: 1}, "current": 1}


def test_rejections_leave_rlcards_state_alone() -> None:
    a = _setup()
    keys = ["hands", "top", "current", "draw_size", "discard_size"]
    before = a.observe(keys)
    assert a.act({"player": 0, "play": "R4"})["code"] == "not-your-turn"  # type: ignore[index]
    assert a.act({"player": 1, "play": "G7"})["code"] == "card-not-in-hand"  # type: ignore[index]
    assert a.act({"player": 1, "play": "B2"})["code"] == "card-does-not-match"  # type: ignore[index]
    # RLCard lists a Wild Draw Four only when nothing else is playable (Y9 is)
    assert a.act({"player": 1, "play": "W4", "color": "red"})["code"] == "card-does-not-match"  # type: ignore[index]
    # RLCard lists 'draw' only when nothing is playable
    assert a.act({"player": 1, "draw": True})["code"] == "wrong-decision"  # type: ignore[index]
    assert a.act({"player": 1, "pass": True})["code"] == "wrong-decision"  # type: ignore[index]
    assert a.act({"player": 1, "play": "Z9"})["code"] == "malformed-action"  # type: ignore[index]
    assert a.observe(keys) == before


def test_wild_colour_checks() -> None:
    a = _setup(current=0, direction="clockwise")
    assert a.act({"player": 0, "play": "W"})["code"] == "color-required"  # type: ignore[index]
    assert a.act({"player": 0, "play": "W", "color": "pink"})["code"] == "invalid-color"  # type: ignore[index]
    b = _setup(current=2, hands={"0": ["R4"], "1": ["Y9"], "2": ["W"]})
    assert b.act({"player": 2, "play": "W"}) is None  # last card: the colour does not matter
    assert b.observe(["round_over", "game_over", "winner", "current", "pending"]) == {
        "round_over": True, "game_over": True, "winner": 2, "current": None,
        "pending": {"player": None, "decision": "none"}}
    assert b.act({"player": 0, "play": "R4"})["code"] == "game-over"  # type: ignore[index]


def test_actions_rlcard_lacks_are_unsupported() -> None:
    a = _setup()
    for action in ({"player": 1, "play": "Y9", "uno": True}, {"player": 0, "catch": 1},
                   {"player": 1, "challenge": True},
                   {"referee": "hint", "player": 0}, {"player": 1, "swap": 0}):
        with pytest.raises(Unsupported):
            a.act(action)


def test_accepting_a_wild_draw_four_is_a_no_op_for_its_victim_only() -> None:
    # RLCard has no challenge: its Wild Draw Four hits the next player at once, so the victim's
    # `challenge: false` is answered as done; anyone else's has nothing to accept.
    keys = ["hands", "current", "draw_size", "discard_size", "active_color"]
    a = _setup(hands={"0": ["R4", "W"], "1": ["B2", "W4"], "2": ["G2"]})
    before = a.observe(keys)
    assert a.act({"player": 0, "challenge": False})["code"] == "not-challengeable"  # type: ignore[index]
    assert a.observe(keys) == before
    assert a.act({"player": 1, "play": "W4", "color": "green"}) is None
    after = a.observe(keys)
    assert len(after["hands"][0]) == 6 and after["current"] == 2  # seat 0 drew 4, was skipped
    assert a.act({"player": 2, "challenge": False})["code"] == "not-challengeable"  # type: ignore[index]
    assert a.observe(keys) == after  # a refused action changes nothing
    assert a.act({"player": 0, "challenge": False}) is None
    assert a.observe(keys) == after
    assert a.act({"player": 0, "challenge": False})["code"] == "not-challengeable"  # type: ignore[index]


def test_unsupported_setups() -> None:
    a = RLCardAdapter()
    with pytest.raises(Unsupported):
        a.setup({"ruleset": "classic-2022", "setup": {"players": 2}, "seed": 0})
    with pytest.raises(Unsupported):
        _setup(scores={"0": 100, "1": 0, "2": 0})


def test_start_of_round_maps_the_seat_left_of_the_dealer_to_rlcard_player_0() -> None:
    a = RLCardAdapter()
    a.setup({"ruleset": "classic-official", "seed": 0, "setup": {
        "players": 3, "dealer": 0, "start": "round",
        "hands": {"0": ["R1"], "1": ["G1"], "2": ["B1"]}, "draw": ["GS", "Y1", "Y2"]}})
    assert a.to_rl(1) == 0 and a.to_seat(0) == 1
    # RLCard's perform_top_card: a Skip first skips its player 0 (seat 1); seat 2 plays
    assert a.observe(["top", "current", "draw_size", "discard_size"]) == {
        "top": "GS", "current": 2, "draw_size": 2, "discard_size": 1}


def test_the_seed_controls_rlcards_randomness() -> None:
    def drawn_wild_colour(seed: int) -> str:
        a = RLCardAdapter()
        a.setup({"ruleset": "classic-official", "seed": seed, "setup": {
            "players": 2, "dealer": 1, "current": 0, "hands": {"0": ["G1"], "1": ["B1"]},
            "discard": ["R5"], "active_color": "red", "draw": ["W", "Y1"]}})
        assert a.act({"player": 0, "draw": True}) is None
        return str(a.observe(["active_color"])["active_color"])

    assert len({drawn_wild_colour(7) for _ in range(3)}) == 1
    assert len({drawn_wild_colour(s) for s in range(20)}) > 1
