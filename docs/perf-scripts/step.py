"""Paired stepping timer: replay RLCard-policy decisions, time legal_actions()+apply() only.
usage: PYTHONPATH=<tree> python step.py RULESET PLAYERS GAMES REPS"""
import sys, time, random, hashlib, pickle, os, gc
from uno_fsm.game import Game
from uno_cli.bench_games import _rlcard_policy
ruleset, players, games, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
path = f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl"
if not os.path.exists(path):
    rng = random.Random(1); decs = []
    for i in range(games):
        g = Game.new(ruleset, players=players, seed=1 + i); d = []
        while not g.is_over:
            la = g.legal_actions(); a = _rlcard_policy(g, la, rng); d.append(la.index(a)); g.apply(a)
        decs.append(d)
    pickle.dump(decs, open(path, "wb"))
decs = pickle.load(open(path, "rb"))
def run():
    clock = time.process_time; tot = 0.0; n = 0; h = hashlib.sha1()
    for i, d in enumerate(decs):
        g = Game.new(ruleset, players=players, seed=1 + i)
        la, ap = g.legal_actions, g.apply
        st = g.state
        t0 = clock()
        for k in d:
            if st.phase == "round_over":
                tot += clock() - t0; ap(la()[k]); t0 = clock(); continue
            ap(la()[k]); n += 1
        tot += clock() - t0
        h.update(g.to_json().encode())
    return tot, n, h.hexdigest()[:12]
run(); run()
best = []
for _ in range(reps):
    gc.collect(); best.append(run())
ts = sorted(t for t, _, _ in best)
print(f"{sys.argv[5] if len(sys.argv)>5 else ''} min {1e6*ts[0]/best[0][1]:.3f} med {1e6*ts[len(ts)//2]/best[0][1]:.3f} us/action n={best[0][1]} hash={best[0][2]}")
