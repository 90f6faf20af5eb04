#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): scaling after gather_dot's masked last step, with CUDA's default connections
# (what a user gets without setting anything): Poisson weak and R-MAT rmat:22 on 1, 2 and 4 GPUs,
# aijcusparse and aijtuned, MatMult only; then R-MAT on one GPU again, and the weak problem with
# CUDA_DEVICE_MAX_CONNECTIONS=1.
#   usage: bash bench/results/2026-11-21-h200x4-scaling-v11/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
WEAK=160 STRONG=0 IRREGULAR=rmat:22 DEADLINE=240 TIME_JOB=80 OPTS="-types aijcusparse,aijtuned -ksp 0" bash bench/run_scaling.sh "$R/default" > "$R/default.log" 2>&1
grep -E "^(aijcusparse|aijtuned) |^== |^[0-9]+ s: " "$R/default/run.txt"
WEAK=0 STRONG=0 IRREGULAR=rmat:22 RANKS=1 DEADLINE=60 TIME_JOB=60 OPTS="-types aijcusparse,aijtuned -ksp 0" bash bench/run_scaling.sh "$R/rmat1" > "$R/rmat1.log" 2>&1
grep -E "^(aijcusparse|aijtuned) " "$R/rmat1/run.txt"
CONNECTIONS=1 WEAK=160 STRONG=0 IRREGULAR=none DEADLINE=80 TIME_JOB=40 OPTS="-types aijcusparse,aijtuned -ksp 0" bash bench/run_scaling.sh "$R/one-connection" > "$R/one-connection.log" 2>&1
grep -E "^(aijcusparse|aijtuned) " "$R/one-connection/run.txt"
stamp "done"
