#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the DENSE kernel compiled for 3 blocks of 512 per
# multiprocessor (40 registers) against 4 (32), by the rule and for every launch it can take, in one
# round of the whole suite: base (build-cuda: 4, the rule), d3rule, d3all, d4all; then base and d3all on
# actor_movie_incidence again, twice, interleaved.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-dp-minblocks/run2.sh OUTDIR
set -uo pipefail
O=${1:?usage: run2.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
build() {
  local v=$1 X= B=build-$1
  case $v in d3rule) X=-DAIJT_DENSE_MINBLOCKS=3 ;; d3all) X="-DAIJT_DENSE_MINBLOCKS=3 -DAIJT_DENSE_THREADS=0" ;; d4all) X=-DAIJT_DENSE_THREADS=0 ;; esac
  [ $v = base ] && B=build-cuda
  MAKEFLAGS=-j5 make BUILD=$B NVFLAGS_EXTRA="$X" $B/bench/bench_spmv > "$R/make-$v.log" 2>&1 || { tail -30 "$R/make-$v.log"; return 1; }
  rm -f "$R/make-$v.log"
}
build base & build d3rule & build d3all & build d4all & wait
stamp "built"
for v in base d3rule d3all d4all; do
  B=build-$v; [ $v = base ] && B=build-cuda
  timeout 110 $B/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv-$v.csv" > "$R/spmv-$v.txt" 2>&1; echo "bench_spmv $v exit $?"
  stamp "spmv $v"
done
A=.bench-data/actor_movie_incidence.mtx.gz
for round in 1 2; do
  for v in base d3all; do
    B=build-$v; [ $v = base ] && B=build-cuda
    timeout 60 $B/bench/bench_spmv -reps 200 -warmup 10 -f $A,$A -csv "$R/actor-$v-$round.csv" > "$R/actor-$v-$round.txt" 2>&1; echo "actor $v $round exit $?"
  done
done
gzip -9 "$R"/*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
