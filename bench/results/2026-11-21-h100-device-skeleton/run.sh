#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data): the skeleton made on the device and the set-up figures from
# aijtuned's own clocks.  test_kernels (device skeleton against the host's), bench_plan_gpu (planning with
# the order copied back and the host skeleton, against the order kept on the device), the whole test
# suite, bench_spmv on the whole suite (plan and tune columns) and bench_ksp.
#   usage: bash bench/results/2026-11-21-h100-device-skeleton/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu > "$R/make.log" 2>&1; tail -2 "$R/make.log"; stamp "built"
(cd tests/planner && timeout 240 ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels.txt" 2>&1; echo "test_kernels: $(tail -1 "$R/kernels.txt")"; grep -c "^PASS plan on the GPU" "$R/kernels.txt"; grep -B3 "^FAIL" "$R/kernels.txt" | head -30; stamp "kernels"
timeout 150 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep -A25 "^not ok" "$R/suite.txt" | head -80 > "$R/suite-failures.txt"; head -60 "$R/suite-failures.txt"; tail -3 "$R/suite.txt" > "$R/suite-tail.txt"; rm -f "$R/suite.txt"; stamp "suite"
timeout 150 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"; grep -A40 "^Speedup of" "$R/spmv.txt"; stamp "spmv"
timeout 60 build-cuda/bench/bench_ksp -n 160 -f .bench-data/ckt11752_dc_1.mtx.gz > "$R/ksp.txt" 2>&1; echo "bench_ksp exit $?"; tail -15 "$R/ksp.txt"; stamp "ksp"
gzip -9 "$R/spmv.txt"
stamp "done"
