#!/usr/bin/env bash
# H100 session 3 (carry .petsc-cuda, .bench-data): the coded DIA kernel at 32 registers (offsets read
# through L1, as the value kernel does); build, the kernel test, the whole suite, the whole benchmark,
# the regular matrices without codes, and the host planning stages on this machine's CPU.
#   usage: bash bench/results/2026-11-21-h100-diacodes/run3.sh OUTDIR
set -uo pipefail
R=${1:?usage: run3.sh OUTDIR}
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
timeout 30 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,lap3d40 -reps 100 -mat_aijtuned_dia_codes 0 > "$R/regular-uncoded.txt" 2>&1
stamp "regular uncoded exit $?"
make bench-setup > "$R/make-bench-setup.log" 2>&1 && timeout 50 build/bench/bench_setup -model models/NVIDIA-H100-80GB-HBM3.model -reps 3 lap2d lap3d box27 elast rmat circuit random > "$R/bench_setup.txt" 2>&1
stamp "bench_setup exit $?"
grep -E "^\[[a-z0-9:_.]+\] (aijcusparse|aijtuned) +[0-9]" "$R/bench/spmv.txt" "$R/regular-uncoded.txt" | cut -c1-90
grep -E "geomean" "$R/bench/spmv.txt"
grep -E "^(aijcusparse|aijtuned|sellcuda) " "$R/bench/ksp.txt"
cut -c1-175 "$R/bench_setup.txt"
