#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  ab.sh OUTDIR ROUNDS: the tree as it is (B) against a copy with
# rest-floor-ell.patch taken back (A), built side by side; then
#  1. the planner's host part replayed on this machine's processor (../2026-11-25-host-classes/replay.c, no GPU),
#     A and B in alternating processes pinned to one core, on the medium files the dynamic program runs for;
#  2. ROUNDS of A and B alternately, each one bench_spmv process pinned to the same core: planning alone
#     (-mat_aijtuned_plan_beside_upload 0, median of 15 assemblies) inside PETSc on those files.
# Everything lands in OUTDIR/ab.tar.gz.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR ROUNDS}; ROUNDS=${2:?}
HERE=bench/results/2026-11-27-rest-floor-ell
CORE=${CORE:-3}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/ab"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
ln -s "$R/.bench-data" $A/.bench-data
(cd $A && patch -s -R -p1 < "$R/$HERE/rest-floor-ell.patch") || exit 1
{ commit_line; echo "A: without $HERE/rest-floor-ell.patch; pinned to core $CORE"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
for v in a b; do
  dir=$R; [ $v = a ] && dir=$A
  (cd $dir && cc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -Isrc/mat/impls/tuned/plan -Ibench/gen -Ibench/common \
     bench/results/2026-11-25-host-classes/replay.c bench/gen/matgen.c src/mat/impls/tuned/plan/*.c -lm -lz -o /tmp/replay-$v) || exit 1
done
rm -f "$out"/make-*.log; stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
FILES="actor_movie_incidence ckt11752_dc_1 memplus wing cage11 GT01R ct2010 soc-Slashdot0902"
paths=$(for f in $FILES; do printf '.bench-data/%s.mtx.gz ' $f; done)
for r in 1 2 3 4 5; do for v in a b; do taskset -c $CORE /tmp/replay-$v $model $paths | sed "s/^/$v /"; done; done > "$out/replay.txt"
stamp replayed
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && taskset -c $CORE timeout 120 build-cuda/bench/bench_spmv -f "$(echo $paths | tr ' ' ',')" -reps 10 -plan_reps 15 -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
python3 "$HERE/summary.py" "$out" | tee "$out/summary.txt"
tar czf "$O/ab.tar.gz" -C "$O" ab && rm -rf "$O/ab"
