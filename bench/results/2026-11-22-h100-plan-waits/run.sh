#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): planning after its waits were cut (no identity at planning,
# the diagonal test by warps, long values listed with the statistics, the dynamic program's table reads):
# bench_plan_gpu, bench_spmv on the whole suite, a CUPTI timeline of three plannings inside PETSc, then
# test_kernels and the whole test suite.  Everything lands in OUTDIR/r.tgz (the device tool returns few files).
#   usage: bash bench/results/2026-11-22-h100-plan-waits/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
timeout 120 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
timeout 200 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"; stamp "spmv"
grep -A40 "^matrix  " "$R/spmv.txt" | tail -45
T=$PWD/build-cuda/tools/libcuptitrace.so
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/tspmv" timeout 100 build-cuda/bench/bench_spmv -reps 50 -suite lap2d,lap3d,circuit -f .bench-data/actor_movie_incidence.mtx.gz -csv "$R/tspmv.csv" > "$R/tspmv.txt" 2>&1; stamp "traced"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
rm -f "$R/suite.txt"; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"; rm -rf "$R/setup"; stamp "done"
gzip -9 "$R"/tspmv.*.txt 2>/dev/null
(cd "$O" && tar czf r.tgz r && rm -rf r)
