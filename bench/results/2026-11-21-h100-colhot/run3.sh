#!/usr/bin/env bash
# H200 session (nvidia-h200; carry .petsc-cuda, .bench-data): build, the kernel test, the whole test suite, then
# R-MAT with hot columns of degree >= 2 (the default) and >= 0 (all), each in its own bench_spmv process.
#   usage: bash bench/results/2026-11-21-h100-colhot/run3.sh OUTDIR
set -uo pipefail
R=${1:?usage: run3.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
timeout 170 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 12 > "$R/suite.txt" 2>&1
tail -1 "$R/suite.txt"; stamp "suite"
for d in 2 0; do
  timeout 75 build-cuda/bench/bench_spmv -suite rmat,rmat:22 -reps 100 -mat_aijtuned_col_hot_degree $d -mat_view ::ascii_info > "$R/rmat-degree$d.txt" 2>&1
  stamp "rmat degree >= $d exit $?"
  grep -E "^\[rmat(:22)?\] (aijcusparse|aijtuned) +[0-9]|columns by degree" "$R/rmat-degree$d.txt"
done
