#!/bin/bash
# per-plan instructions of the replayed planner (aijt_plan_model_from, REPS=31 minus REPS=0, over 31)
v=$1; mdl=$2; m=$3
ir() { REPS=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no --toggle-collect=aijt_plan_model_from /tmp/replay-$v /work/main/models/NVIDIA-$mdl.model $m 2>&1 | grep "I   refs" | tr -d , | awk '{print $NF}'; }
a=$(ir 0); b=$(ir 31)
echo "$v $mdl $(basename $m) $(( (b - a) / 31 ))"
