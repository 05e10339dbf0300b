"""uno_fsm: the reference UNO engine, an explicit turn-phase state machine over plain game data.

    from uno_fsm import Game, Action, IllegalAction
    g = Game.new("classic-official", players=4, seed=7)
    g.apply(g.legal_actions()[0])
"""

from uno_fsm.actions import Action, Event, Pending
from uno_fsm.cards import Card, Face, parse
from uno_fsm.errors import CardNotationError, IllegalAction
from uno_fsm.game import Game
from uno_fsm.state import State


def compiled() -> bool:
    """Whether the engine runs compiled by mypyc (the optional build: setup.py,
    docs/performance.md) rather than as plain Python."""
    from uno_fsm import game

    return game._COMPILED


__all__ = [
    "Action", "Card", "CardNotationError", "Event", "Face", "Game", "IllegalAction", "Pending",
    "State", "compiled", "parse",
]
