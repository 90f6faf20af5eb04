#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  ab.sh OUTDIR: the planner before the fused launch (A, the patch
# reversed in a copy of the tree) against the tree as it is (B), built side by side and run alternately
# (A B A B) so that neither gains from running second on a warm GPU.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
R=$PWD; P=$R/bench/results/2026-11-25-pending-plan-fuse/plan-fuse.patch
A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
(cd $A && patch -s -R -p1 < "$P") || exit 1
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in 1 2; do
  for v in a b; do
    dir=$PWD; [ $v = a ] && dir=$A
    (cd $dir && build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 lap2d lap3d box27 lp rmat) > "$out/plan_gpu-$v$round.txt" 2>&1
    (cd $dir && timeout 150 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,circuit,lp,rmat -f "$R/.bench-data/actor_movie_incidence.mtx.gz" \
       -f "$R/.bench-data/soc-Slashdot0902.mtx.gz" -reps 50 -plan_reps 9 -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v: $(grep -c planning: "$out/spmv-$v$round.txt") planned"
  done
done
# where the time of a plan inside PETSc goes: box27 under the CUPTI tracer
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda cuptitrace > /dev/null 2>&1 &&
  CUDA_INJECTION64_PATH=$R/build-cuda/tools/libcuptitrace.so AIJT_TRACE=$out/trace \
  build-cuda/bench/bench_spmv -suite box27 -reps 50 -plan_reps 5 > "$out/trace-spmv.txt" 2>&1; stamp traced
gzip -9 "$out"/spmv-*.txt "$out"/trace.*.txt
