#!/usr/bin/env bash
# H100 session 4 (carry .petsc-cuda, .bench-data): after the review (setup.cuh, codes found from the
# table): build, the kernel test, the whole suite.
#   usage: bash bench/results/2026-11-21-h100-diacodes/run4.sh OUTDIR
set -uo pipefail
R=${1:?usage: run4.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
grep -E "FAIL|GPU build|DIA value codes|CUDA error" "$R/test_kernels.txt" | head -20; tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
timeout 170 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
