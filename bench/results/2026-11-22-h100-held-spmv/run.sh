#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): bench_spmv paced by the host (as always) and held (-held: every
# method's time on the device alone, and its host time per call), on actor_movie_incidence, three small
# files and lap3d:40, two rounds.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-held-spmv/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
F=.bench-data/actor_movie_incidence.mtx.gz,.bench-data/memplus.mtx.gz,.bench-data/wing.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
for round in 1 2; do
  for mode in paced held; do
    h=; [ $mode = held ] && h=-held
    timeout 120 build-cuda/bench/bench_spmv -reps 200 -warmup 10 -plan_reps 1 -suite lap3d:40 -f $F $h > "$R/spmv-$mode-$round.txt" 2>&1
    echo "== $mode round $round" | tee -a "$R/summary.txt"
    grep -E "^\[[^]]*\] (aijcusparse|sellcuda|aijtuned|csr_alg1) +[0-9.]+ us|held:" "$R/spmv-$mode-$round.txt" | grep -v "^\[lap3d:10\]" | sed 's/   build.*//' | tee -a "$R/summary.txt"
  done
done
gzip -9 "$R"/spmv-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
