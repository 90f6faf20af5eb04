#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): where planning's time goes, in bench_plan_gpu and inside PETSc.
# Per-pass times (AIJT_PLAN_GPU_TRACE=1) and CUPTI timelines (tools/cuptitrace.c) of the planning of
# lap2d, lap3d, box27, circuit and actor_movie_incidence, and bench_spmv's plan column untraced.
#   usage: bash bench/results/2026-11-22-h100-plan-trace/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
T=$PWD/build-cuda/tools/libcuptitrace.so
A=.bench-data/actor_movie_incidence.mtx.gz
P="build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model"
timeout 120 $P -reps 9 lap2d lap3d box27 circuit rmat > "$R/plan_gpu.txt" 2>&1; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
AIJT_PLAN_GPU_TRACE=1 timeout 120 $P -reps 3 lap2d lap3d box27 circuit > "$R/plan_gpu_passes.txt" 2>&1; stamp "passes"
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/tplan" timeout 120 $P -reps 3 lap3d box27 circuit > "$R/tplan.txt" 2>&1; stamp "traced plan_gpu"
S="build-cuda/bench/bench_spmv -reps 50 -warmup 5 -suite lap2d,lap3d,box27,circuit -f $A"
timeout 150 $S -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; stamp "spmv"
AIJT_PLAN_GPU_TRACE=1 timeout 150 $S -csv "$R/spmv_passes.csv" > "$R/spmv_passes.txt" 2>&1; stamp "spmv passes"
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/tspmv" timeout 150 $S -csv "$R/tspmv.csv" > "$R/tspmv.txt" 2>&1; stamp "traced spmv"
CUDA_MODULE_LOADING=EAGER timeout 150 $S -csv "$R/spmv_eager.csv" > "$R/spmv_eager.txt" 2>&1; stamp "spmv eager"
grep -E "^(lap2d|lap3d|box27|circuit|actor)" "$R"/spmv*.txt
for f in "$R"/tplan.*.txt "$R"/tspmv.*.txt; do gzip -9 "$f"; done
rm -rf "$R/setup"; ls -la "$R"; stamp "done"
