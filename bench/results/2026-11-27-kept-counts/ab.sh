#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  ab.sh OUTDIR [STEP...]: the tree as it is (B) against a copy
# with counts.patch taken back (A), built side by side; then, alternating A B A B in processes of their own:
#   bench_coo on circuit, rmat, lap3d and the medium files (5 rounds; aijtuned's planning after a GPU assembly),
#   bench_spmv's planning of circuit, rmat and actor_movie_incidence (beside the upload and alone, 5 assemblies);
# then the verify steps given (../2026-11-25-h100-verify/run.sh's) on B.  $ROUNDS (default 2), $COO and $SPMV (bench_coo's
# and bench_spmv's arguments) replace those defaults.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR [STEP...]}; shift
PATCH=bench/results/2026-11-27-kept-counts/counts.patch
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data --exclude=./.bench-data-sub.tar.xz -cf - . | tar -xf - -C $A
ln -s "$R/.bench-data" $A/.bench-data
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; echo "A: without $PATCH"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 lib bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
ROUNDS=${ROUNDS:-2}
COO=${COO:--suite circuit,rmat,lap3d -dir .bench-data -reps 5}
SPMV=${SPMV:--suite circuit,rmat -f .bench-data/actor_movie_incidence.mtx.gz -reps 20 -warmup 2 -values_reps 0 -setup_reps 0 -plan_reps 5}
echo "rounds $ROUNDS; bench_coo $COO; bench_spmv $SPMV" | tee -a "$out/run.txt"
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && timeout 150 build-cuda/bench/bench_coo $COO) > "$out/coo-$v$round.txt" 2>&1
    stamp "coo $v$round exit $?"
    (cd $dir && timeout 150 build-cuda/bench/bench_spmv $SPMV) > "$out/spmv-$v$round.txt" 2>&1
    stamp "spmv $v$round exit $?"
  done
done
for f in "$out"/coo-*.txt; do echo "== $(basename $f)"; grep -E "planning" "$f" | grep -v "lap3d:10" | sed -e 's/aijtuned.s planning (AIJTunedPlan, in the first values and product): median//'; grep "first values and product:" "$f"; done | tee "$out/summary.txt"
for f in "$out"/spmv-*.txt; do echo "== $(basename $f)"; grep -E "planning" "$f" | grep -v "lap3d:10"; done | tee -a "$out/summary.txt"
[ $# -gt 0 ] && bash bench/results/2026-11-25-h100-verify/run.sh "$O/verify" "$@"
