#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): after the review's aijt_dev_skeleton and shared workspace (same behaviour):
# bench_plan_gpu on an idle GPU, then the whole test suite with test_kernels beside it.
#   usage: bash bench/results/2026-11-21-h100-device-skeleton/run6.sh OUTDIR
set -uo pipefail
R=${1:?usage: run6.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench-plan-gpu > /dev/null 2>&1; stamp "built"
timeout 150 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A6 "^not ok" "$R/suite.txt" | head -30; echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
rm -f "$R/suite.txt" "$R/kernels.txt"; rm -rf "$R/setup"; stamp "done"
