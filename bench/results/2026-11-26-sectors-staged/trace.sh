#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  trace.sh OUTDIR PATCH: A (PATCH taken back) and B (the tree),
# built side by side; each pass of the GPU planner timed (AIJT_PLAN_GPU_TRACE=1, every pass waited for)
# inside bench_spmv on $SUITE (default circuit) and $FILES (default actor_movie_incidence, memplus, ckt11752_dc_1), A B A B;
# the output whole in OUTDIR/trace-{a,b}{1,2}.txt.gz (passes.py reads it).
set -uo pipefail
O=${1:?usage: trace.sh OUTDIR PATCH}; PATCH=${2:?}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; echo "A: without $PATCH"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
D=$R/.bench-data
FILES=${FILES:-actor_movie_incidence,memplus,ckt11752_dc_1}
flist=$(echo "$FILES" | tr , '\n' | sed "s|.*|$D/&.mtx.gz|" | paste -sd,)
for round in 1 2; do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && AIJT_PLAN_GPU_TRACE=1 timeout 90 build-cuda/bench/bench_spmv -suite ${SUITE:-circuit} -f $flist -reps 5 -plan_reps 9) > "$out/trace-$v$round.txt" 2>&1
    stamp "trace $v$round exit $?"; gzip -9f "$out/trace-$v$round.txt"
  done
done
