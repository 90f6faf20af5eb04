#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data), after DIA's offsets were looked for from the middle row:
# bench_plan_gpu on an idle GPU, the whole suite (test_kernels among its tests), bench_spmv with tuning on
# (no cache).
# Fewer files under OUTDIR than run2.sh (the device tool brings back a limited count).
#   usage: bash bench/results/2026-11-21-h100-device-skeleton/run5.sh OUTDIR
set -uo pipefail
R=${1:?usage: run5.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu > /dev/null 2>&1; stamp "built"
timeout 150 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
timeout 300 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep -A20 "^not ok" "$R/suite.txt" | head -40; grep "test_kernels" "$R/suite.txt"; tail -1 "$R/suite.txt" >> "$R/run.txt"; rm -f "$R/suite.txt"; stamp "suite"
timeout 120 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv-tune.csv" -mat_aijtuned_tune -mat_aijtuned_tune_cache none > "$R/spmv-tune.txt" 2>&1; echo "bench_spmv (tuning) exit $?"; grep -A50 "^==== results" "$R/spmv-tune.txt" | tail -52; gzip -9 "$R/spmv-tune.txt"; stamp "spmv tune"
rm -rf "$R/setup"
stamp "done"
