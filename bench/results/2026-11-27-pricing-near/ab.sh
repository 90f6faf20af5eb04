#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz: git archive of the base tree).
# ab.sh OUTDIR [ROUNDS]: build the base and this tree, then alternate their planning, ROUNDS times (default 3):
# bench_spmv's planning beside the upload and alone (-plan_reps 9) on circuit, box27 and actor_movie_incidence, and
# bench_coo's planning after a GPU assembly (-reps 5) on the same three.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR [ROUNDS]}; R=${2:-3}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1; } | tee -a "$O/run.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/ab-base.tgz -C /tmp/base
(cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > make.log 2>&1) || { tail -20 /tmp/base/make.log; exit 1; }
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
rm -f "$O/make.log"; stamp built
F=.bench-data/actor_movie_incidence.mtx.gz
for r in $(seq 1 "$R"); do
  for side in base new; do
    d=build-cuda/bench; [ $side = base ] && d=/tmp/base/build-cuda/bench
    timeout 100 $d/bench_spmv -suite circuit,box27 -f $F -plan_reps 9 -values_reps 0 -setup_reps 0 -reps 50 -copy_mib 64 > "$O/spmv-$side-$r.txt" 2>&1; echo "$side spmv round $r exit $?" | tee -a "$O/run.txt"
    timeout 60 $d/bench_coo -suite circuit,box27 -f $F -reps 5 > "$O/coo-$side-$r.txt" 2>&1; echo "$side coo round $r exit $?" | tee -a "$O/run.txt"
  done
done
for side in base new; do
  echo "== $side"; grep -hE "aijtuned +planning|planning before" "$O"/spmv-$side-*.txt | sort -s -k1,1
  grep -hiE "planning" "$O"/coo-$side-*.txt | sort -s -k1,1
done | tee "$O/summary.txt"
gzip -9f "$O"/spmv-*.txt "$O"/coo-*.txt
# added after the recorded run, where five of the six bench_spmv outputs and summary.txt did not come back (a call
# returns at most 8 files): one archive of them all
(cd "$O" && tar czf raw.tgz spmv-*.txt.gz coo-*.txt.gz && rm -f spmv-*.txt.gz coo-*.txt.gz)
stamp ab
