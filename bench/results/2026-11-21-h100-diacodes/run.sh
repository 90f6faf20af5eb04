#!/usr/bin/env bash
# H100 session (carry .petsc-cuda, .bench-data): build, the kernel test (DIA value codes checked against
# the host's values after every upload, build and refresh), the whole test suite, the whole benchmark
# (DIA value codes on: the default), then the regular matrices and the KSP benchmark again with
# -mat_aijtuned_dia_codes 0, each against aijcusparse in its own process.
#   usage: bash bench/results/2026-11-21-h100-diacodes/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
grep -E "FAIL|GPU build|DIA value codes|CUDA error" "$R/test_kernels.txt" | head -20; tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
timeout 150 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
TIME_SPMV=130 TIME_KSP=50 bash bench/run_bench.sh "$R/bench" > "$R/bench.log" 2>&1
stamp "bench"
timeout 40 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,lap3d40 -reps 100 -mat_aijtuned_dia_codes 0 > "$R/regular-uncoded.txt" 2>&1
stamp "regular uncoded exit $?"
timeout 50 build-cuda/bench/bench_ksp -n 160 -mat_aijtuned_dia_codes 0 > "$R/ksp-uncoded.txt" 2>&1
stamp "ksp uncoded exit $?"
grep -E "^\[[a-z0-9:]+\] (aijcusparse|aijtuned) +[0-9]" "$R/bench/spmv.txt" "$R/regular-uncoded.txt" | head -40
grep -iE "KSPSolve|speedup|aijtuned|aijcusparse" "$R/bench/ksp.txt" "$R/ksp-uncoded.txt" | head -30
