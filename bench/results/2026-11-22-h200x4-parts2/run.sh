#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): the product in parts, its off-diagonal block checked after the first launch
# (mpi/cuda/multparts.c), against the whole product (aijtuned+whole: -mat_aijtuned_edge_rows 0) in the same jobs: Poisson weak scaling (4.1M rows per GPU) on 1
# and 4 GPUs, MatMult only, five rounds with CUDA's default connections and two with
# CUDA_DEVICE_MAX_CONNECTIONS=1, interleaved; one round with the CG solves; then the whole suite with its
# multi-rank tests spread over the 4 GPUs.  OUTDIR/r.tgz.   usage: bash bench/results/2026-11-22-h200x4-parts2/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
run() { # name, extra environment, deadline, options
  env WEAK=160 STRONG=0 IRREGULAR=none RANKS="1 4" DEADLINE=${3:-60} TIME_JOB=40 OPTS="-types aijcusparse,aijtuned,aijtuned+whole ${4:--ksp 0}" $2 bash bench/run_scaling.sh "$R/$1" > "$R/$1.log" 2>&1
  echo "== $1"; grep -E "^poisson-weak +aijtuned" "$R/$1/run.txt"
}
run default-1 "" 200
run one-1 CONNECTIONS=1
run default-2 ""
run default-3 ""
run one-2 CONNECTIONS=1
run default-4 ""
run default-5 ""
run ksp "" 120 "-ksp 1"
grep -E "^poisson-weak" "$R/ksp/run.txt"
source bench/session.sh "$R"
stamp "scaling done"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"
timeout 240 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
gzip -9 "$R/suite.txt"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
