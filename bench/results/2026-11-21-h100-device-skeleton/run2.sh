#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data), after the device skeleton took plans in natural order too:
# test_kernels, bench_plan_gpu, the whole test suite, bench_spmv on the whole suite with tuning off (as by
# default) and on (no cache: every strip tuned), for the plan and tune columns.
#   usage: bash bench/results/2026-11-21-h100-device-skeleton/run2.sh OUTDIR
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu > "$R/make.log" 2>&1; tail -2 "$R/make.log"; stamp "built"
(cd tests/planner && timeout 240 ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels.txt" 2>&1; echo "test_kernels: $(tail -1 "$R/kernels.txt")"; grep -c "^PASS plan on the GPU" "$R/kernels.txt"; grep -B3 "^FAIL" "$R/kernels.txt" | head -30; stamp "kernels"
timeout 150 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep -A25 "^not ok" "$R/suite.txt" | head -80 > "$R/failures.txt"; head -60 "$R/failures.txt"; tail -3 "$R/suite.txt" > "$R/tail.txt"; rm -f "$R/suite.txt"; stamp "suite"
timeout 120 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"; grep -A40 "^Speedup of" "$R/spmv.txt" | tail -6; stamp "spmv"
timeout 120 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv-tune.csv" -mat_aijtuned_tune -mat_aijtuned_tune_cache none > "$R/spmv-tune.txt" 2>&1; echo "bench_spmv (tuning) exit $?"; grep -A40 "^Speedup of" "$R/spmv-tune.txt" | tail -6; stamp "spmv tune"
for f in spmv spmv-tune; do grep -A22 "setup (calls)" "$R/$f.txt" | tail -21 | awk '{print $1, $(NF-7), $(NF-2), $(NF-1), $NF}'; done
gzip -9 "$R/spmv.txt" "$R/spmv-tune.txt"
stamp "done"
