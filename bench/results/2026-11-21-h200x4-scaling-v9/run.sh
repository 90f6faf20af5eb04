#!/usr/bin/env bash
# 4 H200s (nvidia-h200-x4; carry .petsc-cuda): the peer exchange packs on its second stream, now of the highest priority, beside the
# diagonal block.  The scaling job as in v7, then the whole test suite (its multi-rank GPU tests spread
# over the four GPUs).
#   usage: bash bench/results/2026-11-21-h200x4-scaling-v9/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j32
DEADLINE=300 TIME_JOB=110 OPTS="-types aijcusparse,sellcuda,aijtuned" bash bench/run_scaling.sh "$R/scaling" > "$R/scaling.log" 2>&1
source bench/session.sh "$R"
grep -E "^(poisson|rmat)" "$R/scaling/run.txt" | grep -E "aijtuned|aijcusparse"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 16 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
