"""Helpers shared by the engine's unit tests: exact positions and refusal checks."""

from __future__ import annotations

from typing import Any

import pytest

from uno_fsm import Action, Game, IllegalAction
from uno_fsm.invariants import check_rejected


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = "classic-official", **kw: Any) -> Game:
    """A `start: turn` position: seat `current` (default 0) to play, dealer the last seat."""
    n = kw.pop("players", len(hands))
    setup = {"players": n, "dealer": kw.pop("dealer", n - 1), "current": kw.pop("current", 0),
             "hands": hands, "discard": discard, "draw": draw or [], **kw}
    return Game.from_setup(ruleset, setup)


def filler(n: int, *used: list[str] | dict[int, list[str]],
           ruleset: str = "classic-official") -> list[str]:
    """`n` number cards of the ruleset's deck that, beside the cards `used` (hands, piles),
    hold no more copies of a card than the deck (a set-up is checked for it): cards that fill
    a draw pile without a part in the test."""
    from collections import Counter

    from uno_fsm.deck import build_deck
    from uno_fsm.params import Params

    taken = Counter(c for u in used for c in (
        [x for h in u.values() for x in h] if isinstance(u, dict) else u))
    left = Counter(c.text for c in build_deck(Params.of(ruleset))
                   if c.light.number is not None) - taken
    out = list(left.elements())[:n]
    assert len(out) == n, f"the deck holds {len(out)} more number cards, not {n}"
    return out


def hand(g: Game, seat: int) -> list[str]:
    return [c.text for c in g.state.hands[seat]]


def refused(g: Game, action: Action) -> IllegalAction:
    """Apply an action that must be refused: the fuzzer's check of a refusal (one copy,
    uno_fsm.invariants.check_rejected): a code of spec/errors.yaml, a rule of spec/rules, the
    state (RNG included) and the log exactly as they were."""
    before, log_len = g.state.copy(), len(g.log)
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    check_rejected(g, action, before, log_len, info.value)
    assert g.state == before
    return info.value
