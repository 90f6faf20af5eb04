#!/usr/bin/env bash
# One H200 (carry .petsc-cuda): rmat:22 (the scaling job's irregular matrix) in bench_spmv with run-time
# tuning off (the default) and on, each run with its own aijcusparse and raw cuSPARSE.
#   usage: bash bench/results/2026-11-21-h200-rmat-tune/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
stamp "built"
for t in 0 1; do
  timeout 150 build-cuda/bench/bench_spmv -suite rmat:22 -reps 100 -mat_aijtuned_tune $t -mat_aijtuned_tune_cache none -mat_view ::ascii_info > "$R/tune$t.txt" 2>&1
  echo "tune $t:"; grep -E "^rmat|strip [0-9]+:" "$R/tune$t.txt" | head -12
done
stamp "done"
