#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): the final code's scaling figures on 1, 2 and 4 GPUs: Poisson weak (4.1M rows
# per GPU) and strong (16.8M rows) scaling with aijcusparse, sellcuda and aijtuned, MatMult and CG + Jacobi;
# then R-MAT (4.2M rows, MatMult only, aijcusparse and aijtuned) while time is left.  Results are written as
# they come (OUTDIR/weak-strong, OUTDIR/rmat).   usage: bash bench/results/2026-11-22-h200x4-parts-scaling/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
export MAKEFLAGS=-j16
env WEAK=160 STRONG=256 IRREGULAR=none RANKS="1 2 4" DEADLINE=200 TIME_JOB=60 OPTS="-types aijcusparse,sellcuda,aijtuned" bash bench/run_scaling.sh "$O/weak-strong" > "$O/weak-strong.log" 2>&1
grep -E "^poisson" "$O/weak-strong/run.txt" | grep -v "^problem"
env WEAK=0 STRONG=0 IRREGULAR=rmat:22 RANKS="1 2 4" DEADLINE=90 TIME_JOB=40 OPTS="-types aijcusparse,aijtuned -ksp 0" bash bench/run_scaling.sh "$O/rmat" > "$O/rmat.log" 2>&1
grep -E "^rmat" "$O/rmat/run.txt"
