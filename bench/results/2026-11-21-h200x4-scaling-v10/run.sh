#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): the scaling job with the diagonal block queued ahead of the peer exchange,
# under CUDA_DEVICE_MAX_CONNECTIONS=1 (all three problems, three formats, CG/GMRES), then the weak problem
# again under CUDA's default in the same lease, then the whole suite under CUDA_DEVICE_MAX_CONNECTIONS=1.
#   usage: bash bench/results/2026-11-21-h200x4-scaling-v10/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
CONNECTIONS=1 DEADLINE=260 TIME_JOB=100 OPTS="-types aijcusparse,sellcuda,aijtuned" bash bench/run_scaling.sh "$R/scaling" > "$R/scaling.log" 2>&1
grep -E "^(aijcusparse|sellcuda|aijtuned) |^== " "$R/scaling/run.txt"
stamp "scaling, one connection"
WEAK=160 STRONG=0 IRREGULAR=none DEADLINE=80 TIME_JOB=40 OPTS="-types aijcusparse,aijtuned" bash bench/run_scaling.sh "$R/scaling-default" > "$R/scaling-default.log" 2>&1
grep -E "^(aijcusparse|aijtuned) " "$R/scaling-default/run.txt"
stamp "weak, CUDA's default connections"
CUDA_DEVICE_MAX_CONNECTIONS=1 timeout 170 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
