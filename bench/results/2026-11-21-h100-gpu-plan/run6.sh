#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): after the review's mending (one helper for the structure's upload, one for
# the diagonals' launch): test_kernels, bench_plan_gpu on the suite, the whole test suite.
#   usage: bash bench/results/2026-11-21-h100-gpu-plan/run6.sh OUTDIR
set -uo pipefail
R=${1:?usage: run6.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench-plan-gpu > "$R/make.log" 2>&1; tail -2 "$R/make.log"
(cd tests/planner && ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels.txt" 2>&1; echo "test_kernels: $(tail -1 "$R/kernels.txt")"; grep -c "^PASS plan on the GPU" "$R/kernels.txt"; grep "^FAIL" "$R/kernels.txt" | head
timeout 200 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"
python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep "^not ok" "$R/suite.txt" | head
stamp "done"
