#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: the planner's passes one by one
# (AIJT_PLAN_GPU_TRACE=1) inside PETSc for the matrices over 1M entries that plan in more than 5 products,
# and the device's and host's time per call (-held) of the small files.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
[ -x build-cuda/bench/bench_spmv ] || make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
stamp build
AIJT_PLAN_GPU_TRACE=1 timeout 100 build-cuda/bench/bench_spmv -suite ${SUITE:-box27,circuit} -f .bench-data/actor_movie_incidence.mtx.gz -reps 50 -plan_reps 5 > "$out/trace.txt" 2>&1; echo "trace exit $?"
grep -E "aijt_dev_plan_model: (lengths|all)|planning:" "$out/trace.txt" | tail -${TRACE_LINES:-60}
stamp trace
[ -n "${NOHELD:-}" ] && exit 0
timeout 100 build-cuda/bench/bench_spmv -suite lap3d40 -f .bench-data/GT01R.mtx.gz,.bench-data/bcsstk16.mtx.gz,.bench-data/luxembourg_osm.mtx.gz,.bench-data/wing.mtx.gz -reps 100 -held 1 > "$out/held.txt" 2>&1; echo "held exit $?"
grep -E "held:" "$out/held.txt"
stamp held
