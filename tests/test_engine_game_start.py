"""Game.from_setup with `start: game` (docs/contracts.md) and the challenger's `shown` view."""

from __future__ import annotations

import pytest

from uno_fsm import Action, Game
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.errors import IllegalAction
from uno_fsm.params import Params

NUMBERS = [f"{c}{n}" for c in "RYGB" for n in range(1, 10)]


def start(ruleset: str, players: int, draw: list[str] | None = None, **extra: object) -> Game:
    setup: dict[str, object] = {"players": players, "start": "game", **extra}
    if draw is not None:
        setup["draw"] = draw
    return Game.from_setup(ruleset, setup)


def test_dealer_is_the_highest_of_the_top_cards_in_seat_order() -> None:
    g = start("classic-official", 3, ["R3", "G5", "B9", *NUMBERS])
    assert g.state.dealer == 2
    assert [len(h) for h in g.state.hands] == [7, 7, 7]
    assert len(g.state.all_cards()) == 39  # CL.DEALER.RETURN: the drawn cards went back
    assert g.pending is not None and g.pending.player == 0


def test_action_cards_count_zero_and_only_the_tied_redraw() -> None:
    assert start("classic-official", 3, ["RD2", "G1", "W4", *NUMBERS]).state.dealer == 1
    # seats 0 and 1 tie on 7; they draw Y2 and G5; seat 2 never sees the B9
    g = start("classic-official", 3, ["R7", "B7", "G3", "Y2", "G5", "B9", *NUMBERS])
    assert g.state.dealer == 1


def test_flip_uses_light_faces() -> None:
    # the light faces decide; the dark faces are the deck's own (a set-up holds no more copies
    # of a face than the deck)
    flip = [c.text for c in build_deck(Params.of("flip"))]
    deck = ["R3/P9", "BS/O9", "G2/V1"] + [
        next(t for t in flip if t.startswith(f"{c}/") and t not in ("R3/P9", "G2/V1"))
        for c in NUMBERS]
    assert start("flip", 3, deck).state.dealer == 0


def test_a_deck_that_cannot_break_a_tie_is_refused() -> None:
    with pytest.raises(IllegalAction):
        start("classic-official", 2, ["R5", "Y5", "G5", "B5"] * 2)  # every card a 5


def test_classic_2022_dealer_is_random_but_a_seat() -> None:
    seen = {start("classic-2022", 3, list(NUMBERS), seed=s).state.dealer for s in range(12)}
    assert seen <= {0, 1, 2} and len(seen) > 1


def test_without_draw_the_ruleset_deck_is_used() -> None:
    assert len(start("classic-official", 4).state.all_cards()) == 108
    assert len(start("flip", 2).state.all_cards()) == 112


@pytest.mark.parametrize("key,value", [("hands", {0: [], 1: []}), ("discard", ["R1"]),
                                       ("current", 0), ("dealer", 1), ("active_color", "red")])
def test_start_game_takes_no_position(key: str, value: object) -> None:
    with pytest.raises(IllegalAction):
        start("classic-official", 2, None, **{key: value})


def test_the_challenger_alone_sees_the_shown_hand_and_it_survives_json() -> None:
    g = Game.from_setup("classic-official", {
        "players": 3, "current": 0, "hands": {0: ["W4", "R2", "B5"], 1: ["Y5"], 2: ["G4"]},
        "discard": ["R7"], "draw": ["B1", "G6", "Y2", "B3", "G8", "Y9"]})
    g.apply(Action.play(0, parse("W4"), "B"))
    assert g.view(1)["shown"] == {}
    g.apply(Action.challenge(1))
    assert g.view(1)["shown"] == {0: ["R2", "B5"]}
    assert g.view(2)["shown"] == {} and g.view(0)["shown"] == {}
    again = Game.from_json(g.to_json())
    assert again.view(1)["shown"] == {0: ["R2", "B5"]}
