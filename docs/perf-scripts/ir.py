import sys, pickle
from uno_fsm.game import Game
ruleset, players, games, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
decs = pickle.load(open(f"/tmp/uno-fsm-dec-{ruleset}-{players}-{games}.pkl", "rb"))
def run():
    for i, d in enumerate(decs):
        g = Game.new(ruleset, players=players, seed=1 + i)
        la, ap = g.legal_actions, g.apply
        for k in d:
            ap(la()[k])
for _ in range(reps): run()
