#!/bin/bash
# ir.sh TREE LABEL: instructions (valgrind callgrind) per action of 3 replays of the 4 recorded
# classic-official games of 4 players (ir.py 4 times less ir.py once; deals included)
here=$(cd "$(dirname "$0")" && pwd)
ir() { PYTHONPATH=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
         python "$here/ir.py" classic-official 4 4 "$2" 2>&1 | grep "refs" | awk '{print $NF}' | tr -d ,; }
a=$(ir "$1" 1); b=$(ir "$1" 4)
echo "$2 $(( (b - a) / 3 / 1735 )) instructions per action (deals included)"
