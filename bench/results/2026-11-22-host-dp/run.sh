#!/usr/bin/env bash
# The model planner's dynamic program (aijt_model_split) alone, on this machine's CPU, before (OLD, a
# commit) and after (the working tree): the same buckets, the minimum and mean of 300 calls.
#   usage: bash bench/results/2026-11-22-host-dp/run.sh OLD [model]     (from the repository root)
set -euo pipefail
OLD=${1:?usage: run.sh OLD-COMMIT [model]}
M=${2:-models/NVIDIA-H100-80GB-HBM3.model}
D=bench/results/2026-11-22-host-dp
T=$(mktemp -d)
P=src/mat/impls/tuned/plan
mkdir -p "$T/old"
for f in $P/*.c $P/*.h; do git show "$OLD:$f" > "$T/old/$(basename "$f")"; done
for v in old new; do
  d=$T/old; [ $v = new ] && d=$P
  cc -std=c99 -O3 -w -D_POSIX_C_SOURCE=200809L -DAIJT_MODEL_DIR='"x"' -I$d -I$D -Ibench/gen -Ibench/common $D/dpbench.c bench/gen/matgen.c $d/*.c -lm -o "$T/dp_$v"
done
F="../shared/matrices/medium/actor_movie_incidence.mtx.gz ../shared/matrices/medium/soc-Slashdot0902.mtx.gz ../shared/matrices/medium/cage11.mtx.gz rmat circuit"
for round in 1 2 3; do for v in old new; do echo "# $v, round $round"; "$T/dp_$v" "$M" $F; done; done
rm -rf "$T"
