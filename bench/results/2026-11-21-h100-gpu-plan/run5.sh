#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): compute-sanitizer on the GPU planner's kernels, through bench_plan_gpu on
# small suite matrices that take every pass (DIA and its bound, the auto column order, rows of 1024
# entries and more, PANEL, uniform rows): memcheck, then racecheck (shared memory) on smaller ones.
#   usage: bash bench/results/2026-11-21-h100-gpu-plan/run5.sh OUTDIR
set -uo pipefail
R=${1:?usage: run5.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda bench-plan-gpu > "$R/make.log" 2>&1; tail -2 "$R/make.log"
M=models/NVIDIA-H100-80GB-HBM3.model
compute-sanitizer --tool memcheck --leak-check full build-cuda/bench/bench_plan_gpu -model $M -reps 1 lap3d:30 rmat:18 circuit:300000 random:300000 elast:12 lp:512 > "$R/memcheck.txt" 2>&1; echo "memcheck exit $?"; tail -14 "$R/memcheck.txt"
stamp "memcheck"
compute-sanitizer --tool racecheck build-cuda/bench/bench_plan_gpu -model $M -reps 1 lap3d:16 rmat:14 circuit:50000 random:50000 > "$R/racecheck.txt" 2>&1; echo "racecheck exit $?"; tail -8 "$R/racecheck.txt"
stamp "racecheck"
