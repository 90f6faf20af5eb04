#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: build, then bench_spmv over the whole suite with
# run-time tuning on, twice in separate processes: with a new tuning cache (cold: the tuner's trials, its own event
# times in the summary's "tuning beyond the kept parameters") and with the cache the first wrote (warm: no trials).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build > /dev/null || exit 1
source bench/session.sh "$O"
cache="$out/tune-cache"
rm -f "$cache"
for pass in cold warm; do
  timeout 200 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -mat_aijtuned_tune 1 -mat_aijtuned_tune_cache "$cache" -csv "$out/$pass.csv" > "$out/$pass.txt" 2>&1
  stamp "bench_spmv tuning on, $pass cache: exit $?"
  grep -E "tuning beyond|vs aijcusparse  |Correctness" "$out/$pass.txt" | head -4
  gzip -9f "$out/$pass.txt"
done
