"""Replays the decisions step.py recorded, REPS times, deals included (for callgrind: ir.sh).

usage: PYTHONPATH=<tree> python ir.py RULESET PLAYERS GAMES REPS
"""

import pickle
import sys

from uno_fsm.game import Game

ruleset, players, games, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl", "rb") as f:
    decisions = pickle.load(f)


def run() -> None:
    for i, taken in enumerate(decisions):
        game = Game.new(ruleset, players=players, seed=1 + i)
        legal_actions, apply = game.legal_actions, game.apply
        for k in taken:
            apply(legal_actions()[k])


for _ in range(reps):
    run()
