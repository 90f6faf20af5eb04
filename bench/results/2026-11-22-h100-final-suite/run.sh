#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the final code's whole bench_spmv suite (20 matrices), then
# rmat and circuit twice more in one process (planning inside PETSc).  ROUND=2: the suite again, and
# ckt11752_dc_1 twice in a process of its own.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-final-suite/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
timeout 150 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"; stamp "spmv"
grep -A30 "^==== results" "$R/spmv.txt" | tail -32
if [ "${ROUND:-1}" = 2 ]; then
  C=.bench-data/ckt11752_dc_1.mtx.gz
  timeout 60 build-cuda/bench/bench_spmv -reps 200 -warmup 10 -suite none -f $C,$C -csv "$R/ckt.csv" > "$R/ckt.txt" 2>&1; echo "ckt exit $?"
  grep -A4 "^matrix  " "$R/ckt.txt" | tail -3
else timeout 100 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite rmat,circuit,rmat,circuit -csv "$R/twice.csv" > "$R/twice.txt" 2>&1; echo "twice exit $?"
grep -A6 "^matrix  " "$R/twice.txt" | tail -5; fi
gzip -9 "$R"/*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
