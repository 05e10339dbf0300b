"""One test (at least) per rule ID of the Swap Hands variant (V.SWAP.*); each names its rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from engine_helpers import game as base_game
from engine_helpers import hand, refused

from uno_fsm import Action, Game
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.params import Params
from uno_spec.rulesets import load_ruleset

C = parse
SW = "classic-official+swap-hands"
SW22 = "classic-2022+swap-hands"


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = SW, **kw: Any) -> Game:
    return base_game(hands, discard, draw, ruleset, **kw)


@pytest.mark.parametrize("ruleset,base", [(SW, 108), (SW22, 108)])
def test_V_SWAP_CARD(ruleset: str, base: int) -> None:
    """V.SWAP.CARD (RUL.SWAP.CARD): one Wild Swap Hands, notation WSW, added to the deck."""
    deck = build_deck(Params.of(ruleset))
    assert len(deck) == base + 1 and Counter(c.text for c in deck)["WSW"] == 1
    assert C("WSW").light.is_wild and C("WSW").text == "WSW"
    assert Game.new(ruleset, 4, 3).state.all_cards().count(C("WSW")) == 1


def test_V_SWAP_WILD() -> None:
    """V.SWAP.WILD: playable on any card while holding the colour; a colour is named."""
    g = game({0: ["WSW", "R1"], 1: ["G1", "G2"], 2: ["Y1"]}, ["R5"])
    plays = [a for a in g.legal_actions() if a.card == C("WSW") and not a.uno]
    assert sorted(a.color or "" for a in plays) == ["B", "G", "R", "Y"]
    assert refused(g, Action.play(0, C("WSW"))).code == "color-required"
    g.apply(Action.play(0, C("WSW"), "Y"))
    assert g.state.active_color == "Y" and g.pending.decision == "swap"


def test_V_SWAP_EFFECT_and_V_SWAP_NEXT() -> None:
    """V.SWAP.EFFECT: whole hands exchanged with the chosen player; V.SWAP.NEXT: then the next
    player in the direction of play, on the named colour."""
    g = game({0: ["WSW", "B3", "B4"], 1: ["G1", "G2"], 2: ["Y5"]}, ["R4"])
    g.apply(Action.play(0, C("WSW"), "G"))
    events = g.apply(Action.swap(0, 2))
    assert hand(g, 0) == ["Y5"] and hand(g, 2) == ["B3", "B4"] and hand(g, 1) == ["G1", "G2"]
    assert any(e.rule == "V.SWAP.EFFECT" for e in events)
    assert g.state.current == 1 and g.state.active_color == "G" and g.pending.decision == "play"


def test_V_SWAP_NEXT_counterclockwise() -> None:
    """V.SWAP.NEXT: counterclockwise, the player to the right follows."""
    g = game({0: ["Y1"], 1: ["WSW", "G7"], 2: ["R1"], 3: ["B8", "B9"]}, ["G4"], current=1,
             direction="counterclockwise")
    g.apply(Action.play(1, C("WSW"), "B"))
    g.apply(Action.swap(1, 3))
    assert g.state.current == 0 and hand(g, 1) == ["B8", "B9"] and hand(g, 3) == ["G7"]


def test_V_SWAP_TARGET() -> None:
    """V.SWAP.TARGET: another player, chosen by the player of the card, before anything else."""
    g = game({0: ["WSW", "R1", "R3"], 1: ["G1", "G2"], 2: ["B1"]}, ["Y2"], ["R5"])
    g.apply(Action.play(0, C("WSW"), "B"))
    err = refused(g, Action.swap(0, 0))
    assert err.code == "no-swap-pending" and err.rule == "V.SWAP.TARGET"
    err = refused(g, Action.swap(1, 2))
    assert err.code == "not-your-turn" and err.rule == "V.SWAP.TARGET"
    assert refused(g, Action.draw(0)).code == "wrong-decision"
    assert refused(g, Action.play(1, C("G1"))).code == "not-your-turn"
    assert {a.target for a in g.legal_actions() if a.kind == "swap"} == {1, 2}


@pytest.mark.parametrize("ruleset", [SW, SW22])
def test_V_SWAP_LAST_CARD(ruleset: str) -> None:
    """V.SWAP.LAST-CARD (RUL.VARIANTS.SWAP-ON-LAST-CARD): going out with it ends the round."""
    g = game({0: ["WSW"], 1: ["Y1", "Y2"], 2: ["GS", "B8"]}, ["R3"], ruleset=ruleset)
    g.apply(Action.play(0, C("WSW")))
    assert g.round_over and g.winner == 0 and hand(g, 1) == ["Y1", "Y2"]
    assert g.scores[0] == 31


@pytest.mark.parametrize("ruleset", [SW, SW22])
def test_V_SWAP_POINTS(ruleset: str) -> None:
    """V.SWAP.POINTS (RUL.SWAP.POINTS): 50 in both bases."""
    assert Params.of(ruleset).points_of("wild_swap_hands", None) == 50
    g = game({0: ["R7"], 1: ["WSW", "Y2"]}, ["R3"], ruleset=ruleset)
    g.apply(Action.play(0, C("R7")))
    assert g.scores[0] == 52


def test_V_SWAP_FIRST_CARD() -> None:
    """V.SWAP.FIRST-CARD (RUL.SWAP.FIRST-CARD): turned first, a plain Wild of the base: the
    first player names the colour (classic-official) / it is ignored (classic-2022)."""
    hands = {0: ["Y1"], 1: ["G5", "Y2"], 2: ["R3"]}
    g = Game.from_setup(SW, {"players": 3, "dealer": 0, "start": "round", "hands": hands,
                             "draw": ["WSW", "R1"]})
    assert g.pending.decision == "color" and g.state.current == 1 and hand(g, 1) == ["G5", "Y2"]
    g = Game.from_setup(SW22, {"players": 3, "dealer": 0, "start": "round", "hands": hands,
                               "draw": ["WSW", "R6", "R1"]})
    assert g.state.discard[-1] == C("R6") and g.pending.decision == "play"


def test_V_SWAP_BASES() -> None:
    """V.SWAP.BASES: the variant composes with the classic bases only."""
    assert load_ruleset("classic-official+swap-hands").id
    with pytest.raises(Exception):  # noqa: B017 - any composition error
        load_ruleset("flip+swap-hands")
