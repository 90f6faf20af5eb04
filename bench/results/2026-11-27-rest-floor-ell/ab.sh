#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  ab.sh OUTDIR ROUNDS: the tree as it is (B) against a copy with
# rest-floor-ell.patch taken back (A), built side by side; then
#  1. the planner's host part replayed on this machine's processor (../2026-11-25-host-classes/replay.c, no GPU),
#     A and B in alternating processes pinned to one core (CORE, default 3), on the medium files the dynamic
#     program runs for (FILES); REPLAY=0 skips it;
#  2. ROUNDS of A and B alternately, each one bench_spmv process: planning alone (-mat_aijtuned_plan_beside_upload
#     0, median of 15 assemblies) inside PETSc on those files, pinned to CORE where SPMV_CORE=1 (one core made a
#     process of the 8 files take 120 s).
# Everything lands in OUTDIR/ab.tar.gz, also when the call's time runs out (a device call returns 8 files).
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
FILES=${FILES:-actor_movie_incidence ckt11752_dc_1 memplus wing cage11 GT01R ct2010 soc-Slashdot0902}
paths=$(for f in $FILES; do printf '.bench-data/%s.mtx.gz ' $f; done)
trap 'python3 "$R/$HERE/summary.py" "$out" > "$out/summary.txt" 2>&1; tar czf "$O/ab.tar.gz" -C "$O" ab && rm -rf "$O/ab"' EXIT
: > "$out/replay.txt"
if [ "${REPLAY:-1}" = 1 ]; then
  for r in 1 2 3 4 5; do for v in a b; do taskset -c $CORE /tmp/replay-$v $model $paths | sed "s/^/$v /"; done; done > "$out/replay.txt"
  stamp replayed
fi
pin=""; [ "${SPMV_CORE:-0}" = 1 ] && pin="taskset -c $CORE"
trap 'exit 143' TERM INT
for round in $(seq 1 "$ROUNDS"); do
  [ $(( $(date +%s) - start )) -lt "${STOP_S:-450}" ] || { stamp "stopped before round $round (STOP_S)"; break; }
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && $pin timeout 120 build-cuda/bench/bench_spmv -suite none -f "$(echo $paths | tr ' ' ',')" -reps 10 -plan_reps 15 -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
python3 "$HERE/summary.py" "$out"
