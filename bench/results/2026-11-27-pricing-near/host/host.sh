#!/usr/bin/env bash
# The model planner's host steps on actor_movie_incidence, timed in two trees: host.sh BASE NEW [FILE] (commits;
# FILE: default .bench-data/actor_movie_incidence.mtx.gz).  No GPU: the host planner (aijt_plan_model) with its
# own passes, each step summed over 300 plannings less the first 10 (host_timing.c); "natural" is the host's pass
# over the natural windows inside "stream", "dp" the dynamic program after the sorted windows' localities.  Three
# rounds, the trees alternating.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../../.."
f=${3:-.bench-data/actor_movie_incidence.mtx.gz}; t=$(mktemp -d)
for side in "$1" "$2"; do
  mkdir -p "$t/$side" && git archive "$side" src/mat/impls/tuned/plan | tar x -C "$t/$side"
  d=$t/$side/src/mat/impls/tuned/plan; python3 "$here/instr.py" "$d"
  cc -std=gnu99 -O3 -I"$d" "$here/host_timing.c" "$d"/*.c -lm -o "$t/h_$side" 2> /dev/null
done
for r in 1 2 3; do for side in "$1" "$2"; do echo "$side $("$t/h_$side" "$f" models/NVIDIA-H100-80GB-HBM3.model 300 | tr '\n' ' ' | tr -s ' ')"; done; done
rm -rf "$t"
