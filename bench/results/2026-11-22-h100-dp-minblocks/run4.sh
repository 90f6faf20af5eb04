#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): actor_movie_incidence as SELL-C-sigma with rows in natural
# order (the rules, -mat_aijtuned_sort 0 -mat_aijtuned_formats sell) at several sorting windows sigma,
# against the default plan, two interleaved rounds, each run its own process with the file twice.
#   usage: bash bench/results/2026-11-22-h100-dp-minblocks/run4.sh OUTDIR      (OUTDIR/r.tgz)
set -uo pipefail
O=${1:?usage: run4.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
S="build-cuda/bench/bench_spmv -reps 200 -warmup 10 -suite none -f $A,$A"
run() { # name options...
  local n=$1; shift
  timeout 40 $S "$@" -csv "$R/$n-$round.csv" > "$R/$n-$round.txt" 2>&1; echo "$n $round exit $?"
  grep -h "^actor" "$R/$n-$round.csv" | cut -d, -f6,8,16 | tr '\n' ' '; echo
}
for round in 1 2; do
  run default
  for s in 1 32 256 4096; do run sell_sigma$s -mat_aijtuned_sort 0 -mat_aijtuned_formats sell -mat_aijtuned_sell_sigma $s; done
done
round=1; run view_sigma256 -mat_aijtuned_sort 0 -mat_aijtuned_formats sell -mat_aijtuned_sell_sigma 256 -mat_view ::ascii_info
gzip -9 "$R"/*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
