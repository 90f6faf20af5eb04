#!/usr/bin/env bash
# 2 H200s (nvidia-h200-x2; carry .petsc-cuda, .bench-data): the whole test suite with the GPU build, its
# multi-rank tests spread over both GPUs, then the kernel test.
#   usage: bash bench/results/2026-11-21-h100-gpubuild/run3.sh OUTDIR
set -uo pipefail
R=${1:?usage: run3.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j32
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
nvidia-smi -L | tee "$R/gpus.txt"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
stamp "built"
timeout 240 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 16 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
(cd tests/planner && timeout 150 ../../build-cuda/tests/kernels/test_kernels > "$R/test_kernels.txt" 2>&1)
grep -E "GPU build|CUDA error" "$R/test_kernels.txt"; tail -1 "$R/test_kernels.txt"; stamp "test_kernels"
