#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): floor.cu (the random matrix's streams and gathers apart),
# then bench_spmv on random and rmat in the same lease.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-gather-floor/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-gather-floor
nvcc -arch=sm_90 -O3 -o /tmp/floor $D/floor.cu && /tmp/floor | tee "$R/floor.txt"
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
timeout 120 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite random,rmat -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
grep -A4 "^matrix  " "$R/spmv.txt"
/tmp/floor | tee "$R/floor2.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
