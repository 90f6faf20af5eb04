#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): actor_movie_incidence (0.95-0.97x aijcusparse) under other
# plans, two interleaved rounds, each run its own process with the file twice: the default, rows in
# natural order (the rules), natural order CSR only, sorted CSR only, the column order, run-time tuning.
# Then planning's passes (AIJT_PLAN_GPU_TRACE=1) for actor_movie_incidence and circuit, each twice in a
# process.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-dp-minblocks/run3.sh OUTDIR
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}
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
}
for round in 1 2; do
  run default
  run natural -mat_aijtuned_sort 0
  run natural_csr -mat_aijtuned_sort 0 -mat_aijtuned_formats csr
  run sorted_csr -mat_aijtuned_formats csr
  run colorder -mat_aijtuned_col_order degree
  run tune -mat_aijtuned_tune
done
stamp "actor"
round=1; run view_default -mat_view ::ascii_info; run view_natural -mat_aijtuned_sort 0 -mat_view ::ascii_info
AIJT_PLAN_GPU_TRACE=1 timeout 60 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite circuit,circuit -f $A,$A -csv "$R/trace.csv" > "$R/trace.txt" 2>&1; echo "trace exit $?"
grep "aijt_dev_plan_model" "$R/trace.txt" | head -40
gzip -9 "$R"/*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
