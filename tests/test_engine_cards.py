"""Cards, notation and decks (CL.DECK.*, CL18.DECK)."""

from __future__ import annotations

from collections import Counter

import pytest

from uno_fsm.cards import Card, CardNotationError, parse
from uno_fsm.deck import build_deck, build_flip_deck
from uno_fsm.params import Params

GOOD = ["R0", "B7", "GS", "YR", "RD2", "W", "W4", "WSH", "WC", "BD1", "RF", "W2", "PD5", "TSE",
        "PF", "WDC", "R5/PD5", "W2/T3", "RF/VF", "W/WDC", "V9", "O1"]
BAD = ["", "R", "X5", "R10", "r5", "W5", "RD3", "R5/", "/PD5", "R5/PD5/T1", "P5/R5",
       "R5/PD2", "W4/W2", " R5", "RS2", "WD4"]


@pytest.mark.parametrize("text", GOOD)
def test_notation_round_trip(text: str) -> None:
    card = parse(text)
    assert card.text == text
    assert parse(card.text) is card  # interned


@pytest.mark.parametrize("text", BAD)
def test_bad_notation_raises(text: str) -> None:
    with pytest.raises(CardNotationError):
        parse(text)


def test_faces_and_kinds() -> None:
    c = parse("R5/PD5")
    assert c.face("light").kind == "number" and c.face("light").number == 5
    assert c.face("dark").kind == "draw5" and c.face("dark").color == "P"
    assert parse("W4").light.is_wild and parse("W4").light.kind == "wd4"
    assert parse("GS").light.kind == "skip" and parse("YR").light.kind == "reverse"
    assert parse("R7").face("dark") is parse("R7").light  # classic: one face
    assert isinstance(parse("WSH"), Card)


def test_classic_deck_108() -> None:
    """CL.DECK.TOTAL, CL.DECK.COLOURS, CL.DECK.NUMBERS, CL.DECK.ACTIONS, CL.DECK.WILDS."""
    deck = build_deck(Params.of("classic-official"))
    assert len(deck) == 108
    kinds = Counter(c.light.kind for c in deck)
    assert kinds == {"number": 76, "skip": 8, "reverse": 8, "draw2": 8, "wild": 4, "wd4": 4}
    colours = Counter(c.light.color for c in deck if c.light.color)
    assert colours == {"R": 25, "Y": 25, "G": 25, "B": 25}
    assert Counter(c.text for c in deck)["R0"] == 1 and Counter(c.text for c in deck)["R9"] == 2


def test_2018_deck_112() -> None:
    """CL18.DECK: the cards-2018 variant adds one Wild Shuffle Hands and three custom Wilds."""
    deck = build_deck(Params.of("classic-official+cards-2018"))
    counts = Counter(c.text for c in deck)
    assert len(deck) == 112 and counts["WSH"] == 1 and counts["WC"] == 3


def test_each_side_shows_its_face() -> None:
    """FL.PLAY.ACTIVE-SIDE: `Card.on` (what `Card.face`, the engine's `Core.face` and its hot
    paths read) is the dark face on the dark side and the light face on the light side; a
    classic card shows its one face on both. Every card of every base deck, and the notation's
    examples."""
    cards = {parse(t) for t in GOOD}
    for ruleset in ("classic-official", "classic-official+cards-2018", "flip"):
        params = Params.of(ruleset)
        cards.update(build_flip_deck(params) if params.game == "flip" else build_deck(params))
    assert any(c.dark is not None for c in cards) and any(c.dark is None for c in cards)
    for c in cards:
        assert c.on == {"light": c.light, "dark": c.light if c.dark is None else c.dark}, c
        assert c.face("light") is c.light and c.face("dark") is c.on["dark"]
        assert c.face() is c.light


def test_a_card_made_directly_shows_its_faces_too() -> None:
    """FL.PLAY.ACTIVE-SIDE holds of a `Card` made without `parse` (not interned: it is no card
    of any hand, which compare by identity), as it did before `Card.on`."""
    light, dark = parse("R5").light, parse("PD5").light
    for card, shown in ((Card(light), light), (Card(light, dark, "R5/PD5"), dark)):
        assert card.on == {"light": light, "dark": shown}
        assert card.face("light") is light and card.face("dark") is shown
        assert card is not parse(card.text or "R5")
