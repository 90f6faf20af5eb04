#!/usr/bin/env bash
# H100 session (carry .petsc-cuda, .bench-data): build, the kernel test (with the GPU build against the
# host build), the whole test suite, the whole benchmark, then four large matrices with the host build
# (-mat_aijtuned_gpu_build 0) for the setup columns.
#   usage: bash bench/results/2026-11-21-h100-gpubuild/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
grep -E "FAIL|GPU build|CUDA error" "$R/test_kernels.txt" | head -20; tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 12 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
TIME_SPMV=150 TIME_KSP=55 bash bench/run_bench.sh "$R/bench" > "$R/bench.log" 2>&1
stamp "bench"
timeout 100 build-cuda/bench/bench_spmv -suite lap3d,elast,rmat,random -reps 50 -mat_aijtuned_gpu_build 0 > "$R/host-build.txt" 2>&1
stamp "host build exit $?"
grep -E "^\[[a-z0-9:]+\] (aijcusparse|aijtuned) +[0-9]" "$R/bench/spmv.txt" "$R/host-build.txt"
