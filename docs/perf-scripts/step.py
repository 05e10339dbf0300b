"""Paired stepping timer: replay RLCard-policy decisions, time legal_actions()+apply() only.

usage: PYTHONPATH=<tree> python step.py RULESET PLAYERS GAMES REPS [LABEL]

The first run records the decisions (indices into the legal actions, RLCard's policy) in
/tmp/uno-fsm-dec-RULESET-PLAYERS-GAMES.pkl; every later run, from any tree, replays them.
"""

import gc
import hashlib
import os
import pickle
import random
import sys
import time

from uno_cli.bench_games import _rlcard_policy
from uno_fsm.game import Game

ruleset, players, games, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
label = sys.argv[5] if len(sys.argv) > 5 else ""
path = f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl"


def record() -> list[list[int]]:
    rng = random.Random(1)
    decisions = []
    for i in range(games):
        game = Game.new(ruleset, players=players, seed=1 + i)
        taken = []
        while not game.is_over:
            legal = game.legal_actions()
            action = _rlcard_policy(game, legal, rng)
            taken.append(legal.index(action))
            game.apply(action)
        decisions.append(taken)
    return decisions


if not os.path.exists(path):
    with open(path, "wb") as f:
        pickle.dump(record(), f)
with open(path, "rb") as f:
    decisions = pickle.load(f)


def run() -> tuple[float, int, str]:
    """CPU seconds of the actions (deals of later hands excluded), actions, a hash of the end
    states (the same on every tree that plays the same rules)."""
    clock = time.process_time
    total, n, digest = 0.0, 0, hashlib.sha1()
    for i, taken in enumerate(decisions):
        game = Game.new(ruleset, players=players, seed=1 + i)
        legal_actions, apply, st = game.legal_actions, game.apply, game.state
        t0 = clock()
        for k in taken:
            if st.phase == "round_over":  # the next hand's deal: not timed
                total += clock() - t0
                apply(legal_actions()[k])
                t0 = clock()
                continue
            apply(legal_actions()[k])
            n += 1
        total += clock() - t0
        digest.update(game.to_json().encode())
    return total, n, digest.hexdigest()[:12]


run()
run()
runs = []
for _ in range(reps):
    gc.collect()
    runs.append(run())
times = sorted(t for t, _, _ in runs)
_, actions, end = runs[0]
print(f"{label} min {1e6 * times[0] / actions:.3f} med {1e6 * times[len(times) // 2] / actions:.3f}"
      f" us/action n={actions} hash={end}")
