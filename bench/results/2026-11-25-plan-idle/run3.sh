#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  run3.sh OUTDIR: bench_spmv inside PETSc on the matrices over
# 1M entries, with each format's product also timed after 50 ms of GPU idle (-idle_ms 50), so that
# aijtuned's planning, which follows an assembly's idle, is also given in products after the same idle.
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/idle3"
trap 'gzip -9 -f "$out/spmv.txt"; tar czf "$O/idle3.tar.gz" -C "$O" idle3' EXIT
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib bench > "$out/make.log" 2>&1 || { tail -n 20 "$out/make.log"; exit 1; }
stamp built
timeout 420 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,elast,rmat,circuit,lp,random -f .bench-data/actor_movie_incidence.mtx.gz \
  -reps 50 -plan_reps 15 -idle_ms 50 -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1
stamp "bench_spmv rc $?"
grep -E "planning:|GPU idle|aijtuned's planning|vs aijcusparse" "$out/spmv.txt" | tee "$out/summary.txt"
