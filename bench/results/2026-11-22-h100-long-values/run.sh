#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): test_kernels alone, with its dense 1100 x 1100 case (more long
# rows and columns than the statistics list: the planner's second pass), and bench_spmv with run-time
# tuning on (the tuning fingerprints of DIA strips, whose rows are no longer on the device).
#   usage: bash bench/results/2026-11-22-h100-long-values/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
(cd tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"
grep -E "dense_1100" "$R/kernels.txt" | tee "$R/dense.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30; stamp "test_kernels"
timeout 150 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite lap3d,box27,circuit,rmat -f .bench-data/actor_movie_incidence.mtx.gz -mat_aijtuned_tune -mat_aijtuned_tune_cache none -csv "$R/tune.csv" > "$R/tune.txt" 2>&1; echo "bench_spmv exit $?"
grep -A8 "^matrix  " "$R/tune.txt" | tail -7; grep "within\|Correctness" "$R/tune.txt"; stamp "tune"
tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; gzip -9 "$R/kernels.txt"; rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
