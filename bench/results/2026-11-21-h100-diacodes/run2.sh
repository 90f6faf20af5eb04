#!/usr/bin/env bash
# H100 session 2 (carry .petsc-cuda, .bench-data): DIA codes row by row (one load a row); build, the
# kernel test, the spmv and KSP tests, then the regular matrices with codes and without
# (-mat_aijtuned_dia_codes 0) and the KSP benchmark with codes.
#   usage: bash bench/results/2026-11-21-h100-diacodes/run2.sh OUTDIR
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
grep -E "FAIL|GPU build|DIA value codes|CUDA error" "$R/test_kernels.txt" | head -20; tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
timeout 120 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 spmv ex1 ksp > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite (spmv, ex1, ksp)"
timeout 40 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,lap3d40 -reps 100 > "$R/regular-coded.txt" 2>&1
stamp "regular coded exit $?"
timeout 40 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,lap3d40 -reps 100 -mat_aijtuned_dia_codes 0 > "$R/regular-uncoded.txt" 2>&1
stamp "regular uncoded exit $?"
timeout 50 build-cuda/bench/bench_ksp -n 160 > "$R/ksp-coded.txt" 2>&1
stamp "ksp coded exit $?"
grep -E "^\[[a-z0-9:]+\] (aijcusparse|aijtuned) +[0-9]" "$R/regular-coded.txt" "$R/regular-uncoded.txt"
grep -E "^(aijcusparse|aijtuned|sellcuda) " "$R/ksp-coded.txt"
