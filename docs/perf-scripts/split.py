"""Where an action's time goes: legal_actions() per phase, apply() per phase and action kind,
over the decisions step.py recorded (the best of 5 runs after a warm-up).

usage: PYTHONPATH=<tree> python split.py RULESET PLAYERS GAMES
"""

import pickle
import sys
import time
from collections import defaultdict

from uno_fsm.game import Game

ruleset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl", "rb") as f:
    decisions = pickle.load(f)
clock = time.perf_counter


def run() -> tuple[dict[str, float], dict[str, int]]:
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for i, taken in enumerate(decisions):
        game = Game.new(ruleset, players=players, seed=1 + i)
        legal_actions, apply, st = game.legal_actions, game.apply, game.state
        for k in taken:
            if st.phase == "round_over":  # the next hand's deal: not timed
                apply(legal_actions()[k])
                continue
            phase = st.phase
            t0 = clock()
            legal = legal_actions()
            t1 = clock()
            action = legal[k]
            apply(action)
            t2 = clock()
            listing, applying = f"list {phase}", f"apply {phase} {action.kind}"
            seconds[listing] += t1 - t0
            seconds[applying] += t2 - t1
            count[listing] += 1
            count[applying] += 1
    return seconds, count


run()
seconds, count = min((run() for _ in range(5)), key=lambda r: sum(r[0].values()))
total = sum(seconds.values())
actions = sum(v for k, v in count.items() if k.startswith("list"))
print(f"total {1e6 * total / actions:.2f} us/action")
for k in sorted(seconds, key=seconds.__getitem__, reverse=True):
    print(f"{k:30} {count[k]:6} {1e6 * seconds[k] / count[k]:6.2f} us each"
          f"  {100 * seconds[k] / total:5.1f}%")
