"""Helpers shared by the engine's unit tests: exact positions and refusal checks."""

from __future__ import annotations

from typing import Any

import pytest

from uno_fsm import Action, Game, IllegalAction


def game(hands: dict[int, list[str]], discard: list[str], draw: list[str] | None = None,
         ruleset: str = "classic-official", **kw: Any) -> Game:
    """A `start: turn` position: seat `current` (default 0) to play, dealer the last seat."""
    n = kw.pop("players", len(hands))
    setup = {"players": n, "dealer": kw.pop("dealer", n - 1), "current": kw.pop("current", 0),
             "hands": hands, "discard": discard, "draw": draw or [], **kw}
    return Game.from_setup(ruleset, setup)


def hand(g: Game, seat: int) -> list[str]:
    return [c.text for c in g.state.hands[seat]]


def refused(g: Game, action: Action) -> IllegalAction:
    """Apply an action that must be refused; the state must be exactly as it was."""
    before = g.state.to_dict()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert g.state.to_dict() == before
    return info.value
