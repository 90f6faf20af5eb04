#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: build, then the GPU planner's passes inside
# PETSc (AIJT_PLAN_GPU_TRACE=1: each pass waited for and timed) on circuit and actor_movie_incidence, 5
# assemblies each, and the same untraced for the planning figures.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp build
args="-suite circuit,lap3d -f .bench-data/actor_movie_incidence.mtx.gz -reps 20 -warmup 5 -plan_reps 5"
AIJT_PLAN_GPU_TRACE=1 timeout 150 build-cuda/bench/bench_spmv $args > "$out/traced.txt" 2>&1; echo "traced exit $?"
timeout 150 build-cuda/bench/bench_spmv $args > "$out/plain.txt" 2>&1; echo "plain exit $?"
grep -E "planning:|aijt_dev_plan_model" "$out/traced.txt" | head -80
grep -E "planning:" "$out/plain.txt"
stamp done
