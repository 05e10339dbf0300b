"""Decks built from a ruleset's `deck` parameters."""

from __future__ import annotations

from uno_fsm.cards import KIND_RANKS, Card, parse
from uno_fsm.params import Params, _get


def build_deck(params: Params) -> list[Card]:
    """Every card of the ruleset's deck, in a fixed order (shuffle it with the game's RNG).

    Classic: `deck.numbers` (copies per colour of each number), `deck.actions` (copies per
    colour of skip / reverse / draw2) and `deck.wilds` (count of each Wild kind) over
    `deck.colors`: 108 cards (CL.DECK.TOTAL), 112 with the 2018 special Wilds (CL18.DECK).
    """
    if params.game != "classic":
        raise NotImplementedError(f"deck of game {params.game!r} (Flip is not built yet)")
    deck = _get(params.raw, "deck", {})
    cards: list[Card] = []
    for color in params.colors:  # CL.DECK.COLOURS
        for number, copies in (deck.get("numbers") or {}).items():  # CL.DECK.NUMBERS
            cards.extend([parse(f"{color}{number}")] * int(copies))
        for kind, copies in (deck.get("actions") or {}).items():  # CL.DECK.ACTIONS
            cards.extend([parse(color + KIND_RANKS[str(kind)])] * int(copies))
    for kind, copies in (deck.get("wilds") or {}).items():  # CL.DECK.WILDS, CL18.DECK
        rank = KIND_RANKS.get(str(kind))
        if rank is None:
            raise NotImplementedError(f"wild kind {kind!r} has no card notation yet")
        cards.extend([parse(rank)] * int(copies))
    return cards
