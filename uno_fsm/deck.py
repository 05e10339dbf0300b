"""Decks built from a ruleset's `deck` parameters."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from uno_fsm.cards import COLOR_LETTERS, KIND_RANKS, Card, parse, rank_of
from uno_fsm.params import Params, _get


def build_deck(params: Params) -> list[Card]:
    """Every card of the ruleset's deck, in a fixed order (shuffle it with the game's RNG).

    Classic: `deck.numbers` (copies per colour of each number), `deck.actions` (copies per
    colour of skip / reverse / draw2) and `deck.wilds` (count of each Wild kind) over
    `deck.colors`: 108 cards (CL.DECK.TOTAL), and the Wilds a variant adds (its `cards`).
    """
    if params.game == "flip":
        return build_flip_deck(params)
    if params.game != "classic":
        raise NotImplementedError(f"deck of game {params.game!r}")
    deck = _get(params.raw, "deck", {})
    cards: list[Card] = []
    for color in params.colors:  # CL.DECK.COLOURS
        for number, copies in (deck.get("numbers") or {}).items():  # CL.DECK.NUMBERS
            cards.extend([parse(f"{color}{number}")] * int(copies))
        for kind, copies in (deck.get("actions") or {}).items():  # CL.DECK.ACTIONS
            cards.extend([parse(color + KIND_RANKS[str(kind)])] * int(copies))
    for kind, copies in (deck.get("wilds") or {}).items():  # CL.DECK.WILDS, a variant's
        rank = rank_of(str(kind))
        if rank is None:
            raise NotImplementedError(f"wild kind {kind!r} has no card notation yet")
        cards.extend([parse(rank)] * int(copies))
    return cards


def _faces(side: Mapping[str, Any]) -> list[str]:
    """The faces of one side of a Flip deck, in a fixed order (FL.DECK.*)."""
    out: list[str] = []
    for name in side.get("colors") or ():  # FL.DECK.LIGHT.COLOURS, FL.DECK.DARK.COLOURS
        color = COLOR_LETTERS[str(name)]
        # FL.DECK.LIGHT.NUMBERS, FL.DECK.DARK.NUMBERS, FL.DECK.NO-ZERO
        for number, copies in (side.get("numbers") or {}).items():
            out.extend([f"{color}{number}"] * int(copies))
        # FL.DECK.LIGHT.DRAW-ONE, FL.DECK.LIGHT.REVERSE, FL.DECK.LIGHT.SKIP, FL.DECK.LIGHT.FLIP,
        # FL.DECK.DARK.DRAW-FIVE, FL.DECK.DARK.REVERSE, FL.DECK.DARK.SKIP-EVERYONE (8, not 81:
        # RUL.FLIP.PASS-ALL-COUNT), FL.DECK.DARK.FLIP; FL.DARK.HARSHER: the dark side's own
        # action kinds (Draw Five, Skip Everyone, Wild Draw Colour) come from its own list
        for kind, copies in (side.get("actions") or {}).items():
            out.extend([color + KIND_RANKS[str(kind)]] * int(copies))
    # FL.DECK.LIGHT.WILD, FL.DECK.LIGHT.WILD-DRAW-TWO, FL.DECK.DARK.WILD,
    # FL.DECK.DARK.WILD-DRAW-COLOUR
    for kind, copies in (side.get("wilds") or {}).items():
        out.extend([KIND_RANKS[str(kind)]] * int(copies))
    return out


def build_flip_deck(params: Params) -> list[Card]:
    """FL.DECK.SIZE: 112 double-faced cards. FL.DECK.PAIRING (RUL.FLIP.FACE-PAIRING): the dark
    faces are shuffled once against the light faces with the ruleset's `deck.pairing.seed`, so
    every game of the ruleset has the same pairing."""
    deck = _get(params.raw, "deck", {})
    light = _faces(deck.get("light") or {})
    dark = _faces(deck.get("dark") or {})
    if len(light) != len(dark):
        raise ValueError(f"Flip deck: {len(light)} light faces, {len(dark)} dark faces")
    pairing = deck.get("pairing") or {}
    method = pairing.get("method", "shuffled")
    if method == "shuffled":
        random.Random(int(pairing.get("seed", 0))).shuffle(dark)
    elif method != "in-order":
        raise NotImplementedError(f"deck.pairing.method {method!r}")
    return [parse(f"{lf}/{df}") for lf, df in zip(light, dark, strict=True)]
