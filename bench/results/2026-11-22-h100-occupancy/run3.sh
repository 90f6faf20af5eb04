#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the DENSE rule with slots per thread (spmv.cu's dense_launch:
# 2^19 threads, or 2^17 with 24 slots per thread).  Builds never / always / the rule (build-cuda).  A
# sweep never/always on elast and random sizes around the rule's bounds, then the whole suite never/rule
# in two interleaved rounds (test_kernels in a call of its own after it).  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-occupancy/run3.sh OUTDIR
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
commit_line >> "$R/run.txt"
build() {
  local v=$1 X= B=build-cuda
  case $v in never) X=-DAIJT_DENSE_THREADS=4611686018427387904LL ;; always) X=-DAIJT_DENSE_THREADS=0 ;; esac
  [ $v = rule ] || B=build-$v
  MAKEFLAGS=-j6 make BUILD=$B NVFLAGS_EXTRA="$X" $B/bench/bench_spmv > "$R/make-$v.log" 2>&1 || { tail -30 "$R/make-$v.log"; return 1; }
  rm -f "$R/make-$v.log"
}
build rule & build never & build always & wait
MAKEFLAGS=-j16 make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || tail -20 "$R/make.log"
stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
SWEEP="-suite elast:25,elast:30,elast:40,elast:50,random:100000,random:150000,random:250000,random:400000"
for round in 1 2; do
  for v in never always; do
    timeout 100 build-$v/bench/bench_spmv -reps 100 -warmup 5 $SWEEP -f $A -csv "$R/sweep-$v-$round.csv" > "$R/sweep-$v-$round.txt" 2>&1; echo "sweep $v $round exit $?"
  done
done
stamp "sweep"
for round in 1 2; do
  for v in never rule; do
    B=build-cuda; [ $v = rule ] || B=build-$v
    timeout 150 $B/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv-$v-$round.csv" > "$R/spmv-$v-$round.txt" 2>&1; echo "bench_spmv $v $round exit $?"
    stamp "spmv $v $round"
  done
done
gzip -9 "$R"/*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
