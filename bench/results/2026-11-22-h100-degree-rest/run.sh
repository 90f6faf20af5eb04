#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the column order's whole degree count after the auto test
# adds only the rows the test's sample left out (plan_gpu.cu, gpu_columns): the degree kernel's CUPTI
# times, bench_plan_gpu, then the whole suite and test_kernels.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-degree-rest/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
T=$PWD/build-cuda/tools/libcuptitrace.so
P="build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model"
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/k" AIJT_TRACE_NO_API=1 timeout 100 $P -reps 3 circuit rmat > "$R/k.txt" 2>&1
echo "degree_kernel us: $(zcat -f "$R"/k.*.txt | awk '$1=="K" && /degree_kernel/ {printf "%.1f ", ($3-$2)/1e3}')" | tee -a "$R/run.txt"
gzip -9 "$R"/k.*.txt
for round in 1 2; do timeout 120 $P -reps 9 circuit rmat random elast > "$R/plan_gpu-$round.txt" 2>&1; echo "bench_plan_gpu $round exit $?"; cat "$R/plan_gpu-$round.txt"; done; stamp "plan_gpu"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
gzip -9 "$R/suite.txt"; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
