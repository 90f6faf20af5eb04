#!/usr/bin/env bash
# Builds the probe from the repository root, without PETSc: the planner's C sources and the kernels.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=bench/results/2026-11-25-h100-stream-probe
B=${1:-/tmp/probe-build}
mkdir -p "$B"
P=src/mat/impls/tuned/plan
objs=()
for f in $P/*.c bench/gen/matgen.c; do o=$B/$(basename "$f" .c).o; cc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -I$P -c "$f" -o "$o" & objs+=("$o"); done
for f in kernels/*.cu; do o=$B/k_$(basename "$f" .cu).o; nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -I$P -c "$f" -o "$o" & objs+=("$o"); done
wait
nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -I$P -Ibench/gen -Ibench/common $D/probe.cu "${objs[@]}" -lcusparse -o "$B/probe"
echo "built $B/probe"
