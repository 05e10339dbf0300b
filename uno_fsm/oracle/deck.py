"""The deck, written from the rules (CL.DECK.*, FL.DECK.*), independent of the engine's deck
builder; the cards a variant adds are its oracle's (`Oracle.deck`), for the variants the
ruleset's params play (`Facts`)."""

from __future__ import annotations

from collections import Counter

from uno_fsm.cards import Card
from uno_fsm.oracle.base import CLASSIC_COLORS, DARK_COLORS, Facts, check


def expected_deck(facts: Facts) -> Counter[str] | None:
    """The deck by card text; None when only the size is known (Flip pairs faces by a
    shuffle)."""
    if facts.flip:
        return None
    deck: Counter[str] = Counter()
    for c in CLASSIC_COLORS:  # CL.DECK.COLOURS
        deck[f"{c}0"] += 1  # CL.DECK.NUMBERS: one 0, two of 1..9 per colour
        for d in range(1, 10):
            deck[f"{c}{d}"] += 2
        for r in ("S", "R", "D2"):  # CL.DECK.ACTIONS: two of each per colour
            deck[c + r] += 2
    deck["W"] += 4  # CL.DECK.WILDS
    deck["W4"] += 4
    for o in facts.oracles:  # the variants' cards
        o.deck(facts, deck)
    return deck


def expected_faces(facts: Facts) -> tuple[Counter[str], Counter[str]] | None:
    """Flip: the light faces and the dark faces of the 112 cards (FL.DECK.*), whatever the
    pairing; None for classic rulesets."""
    if not facts.flip:
        return None
    light: Counter[str] = Counter()
    dark: Counter[str] = Counter()
    for lc, dc in zip(CLASSIC_COLORS, DARK_COLORS, strict=True):
        for d in range(1, 10):  # two of 1..9 per colour, no 0
            light[f"{lc}{d}"] += 2
            dark[f"{dc}{d}"] += 2
        for r in ("D1", "R", "S", "F"):
            light[lc + r] += 2
        for r in ("D5", "R", "SE", "F"):
            dark[dc + r] += 2
    light["W"] += 4
    light["W2"] += 4
    dark["W"] += 4
    dark["WDC"] += 4
    return light, dark


def deck_size(facts: Facts) -> int:
    """108 classic (CL.DECK.TOTAL) and the cards of the variants played (`Oracle.deck`), 112
    Flip (FL.DECK.*)."""
    deck = expected_deck(facts)
    return 112 if deck is None else sum(deck.values())


def check_deck(facts: Facts, cards: list[Card]) -> None:
    """The cards of a new game are the deck of the rules (CL.DECK.TOTAL, FL.DECK.SIZE,
    FL.DECK.PAIRING)."""
    want = expected_deck(facts)
    faces = expected_faces(facts)
    got = Counter(c.text for c in cards)
    check(want is None or got == want, "CL.DECK.TOTAL",
          f"the deck differs from the rules: missing {dict((want or got) - got)}, "
          f"extra {dict(got - (want or got))}")
    check(len(cards) == deck_size(facts),
          "FL.DECK.SIZE" if faces is not None else "CL.DECK.TOTAL",
          f"{len(cards)} cards, expected {deck_size(facts)}")
    if faces is not None:
        light = Counter(c.light.text for c in cards)
        dark = Counter(c.dark.text for c in cards if c.dark is not None)
        check((light, dark) == faces, "FL.DECK.PAIRING",
              f"Flip faces differ: light {dict(light)}, dark {dict(dark)}")
