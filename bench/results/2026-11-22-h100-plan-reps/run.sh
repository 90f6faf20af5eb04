#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): planning inside PETSc as the median of 7 assemblies per matrix
# (bench_spmv -plan_reps 7) over the generated suite and actor_movie_incidence, and a CUPTI timeline with
# runtime calls of circuit's and actor_movie_incidence's plans inside bench_spmv.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-plan-reps/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
timeout 300 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -plan_reps 7 -f $A -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
grep "planning:" "$R/spmv.txt"; sed -n '/^==== results/,$p' "$R/spmv.txt" | tail -24; gzip -9 "$R/spmv.txt"; stamp "spmv"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 120 build-cuda/bench/bench_spmv -reps 50 -warmup 5 -plan_reps 3 -suite circuit -f $A > "$R/t.txt" 2>&1
grep "planning:" "$R/t.txt"; gzip -9 "$R"/t.*.txt; stamp "trace"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
