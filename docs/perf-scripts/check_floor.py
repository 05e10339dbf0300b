"""The model checker's floor: the release's default configuration of `uno-fsm bench --check`
explored in this process, with every check on (`full`) or with every check off (`bare`: no
invariants, no postconditions, no illegal candidates, no coverage recording: only the
deals, the engine's listing and steps, the state keys and the visited set). Prints the states,
the transitions and the CPU seconds of the fastest of 5 explorations after a warm-up.

usage: python docs/perf-scripts/check_floor.py full|bare

(docs/performance.md, "8 December": why ten times the release's states per CPU second is out
of reach with the checks issue 25 keeps.)
"""

import sys
import time

from uno_fsm.configs import CheckConfig
from uno_fsm.modelcheck import expand, run

mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode not in ("full", "bare"):
    sys.exit(__doc__)
config = CheckConfig(ruleset="classic-official", players=2,
                     deck="colors=red;numbers=1;actions=skip,reverse,draw2;wilds=wild,wd4",
                     hand=2, target=100, depth=5, illegal=2 if mode == "full" else 0)
if mode == "bare":
    expand.check_invariants = lambda *a, **k: None  # type: ignore[assignment]
    expand.oracle.postconditions = lambda *a, **k: None  # type: ignore[assignment]

    class _Untraced:
        def __init__(self, *a: object) -> None:
            pass

        def __enter__(self) -> "_Untraced":
            return self

        def __exit__(self, *a: object) -> bool:
            return False

    expand.traced = _Untraced  # type: ignore[assignment]
run.explore(config)  # warm-up: imports, deals, the engine's caches
best = float("inf")
for _ in range(5):
    t = time.process_time()
    result = run.explore(config)
    best = min(best, time.process_time() - t)
print(f"{mode}: {result.states} states, {result.transitions} transitions, "
      f"{best:.3f} CPU s (fastest of 5), {result.states / best:.0f} states per CPU s")
