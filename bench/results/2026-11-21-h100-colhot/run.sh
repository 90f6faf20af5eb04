#!/usr/bin/env bash
# One H100 session (device tool, carry .petsc-cuda and .bench-data): build, the kernel test, the hot-column
# share on R-MAT (each setting in its own bench_spmv process, aijcusparse in the same one), the test suite.
#   usage: bash bench/results/2026-11-21-h100-colhot/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
tail -2 "$R/test_kernels.txt"; stamp "test_kernels"
for v in ${HOT:-natural 0.0625 0.25 1}; do
  if [ "$v" = natural ]; then o=(-mat_aijtuned_col_order natural); else o=(-mat_aijtuned_col_hot "$v"); fi
  timeout "${TIME_RMAT:-80}" build-cuda/bench/bench_spmv -suite "${RMAT:-rmat,rmat:22}" -reps 100 "${o[@]}" -mat_view ::ascii_info > "$R/rmat-$v.txt" 2>&1
  stamp "rmat $v exit $?"
  grep -E "^\[rmat(:22)?\] (aijcusparse|aijtuned) " "$R/rmat-$v.txt"
done
if [ -z "${SKIP_SUITE:-}" ]; then
  timeout "${TIME_SUITE:-170}" python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 12 > "$R/suite.txt" 2>&1
  tail -1 "$R/suite.txt"; stamp "suite"
fi
