#!/bin/bash
# pair.sh MAIN_TREE BRANCH_TREE N RULESET PLAYERS GAMES: CPU us per action of the recorded games
# (step.py), the two trees alternating N times (run from a virtual environment with the engine's
# dependencies; step.py records the decisions under RLCard's policy on its first run)
here=$(cd "$(dirname "$0")" && pwd)
for i in $(seq "$3"); do
  PYTHONPATH=$1 python "$here/step.py" "$4" "$5" "$6" 5 main
  PYTHONPATH=$2 python "$here/step.py" "$4" "$5" "$6" 5 branch
done
uptime
