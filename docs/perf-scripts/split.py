import sys, pickle, time
from uno_fsm.game import Game
from collections import defaultdict
ruleset, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
decs = pickle.load(open(f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl", "rb"))
clock = time.perf_counter
def run():
    T = defaultdict(float); N = defaultdict(int)
    for i, d in enumerate(decs):
        g = Game.new(ruleset, players=players, seed=1 + i)
        la, ap = g.legal_actions, g.apply; st = g.state
        for k in d:
            if st.phase == "round_over":
                ap(la()[k]); continue
            ph = st.phase
            t0 = clock(); l = la(); t1 = clock(); a = l[k]; ap(a); t2 = clock()
            T["list " + ph] += t1 - t0; T[f"apply {ph} {a.kind}"] += t2 - t1; N["list " + ph] += 1; N[f"apply {ph} {a.kind}"] += 1
    return T, N
run()
best = None
for _ in range(5):
    T, N = run()
    if best is None or sum(T.values()) < sum(best[0].values()): best = (T, N)
T, N = best; tot = sum(T.values()); n = sum(v for k, v in N.items() if k.startswith("list"))
print(f"total {1e6*tot/n:.2f} us/action")
for k in sorted(T, key=T.get, reverse=True):
    print(f"{k:30} {N[k]:6} {1e6*T[k]/N[k]:6.2f} us each  {100*T[k]/tot:5.1f}%")
