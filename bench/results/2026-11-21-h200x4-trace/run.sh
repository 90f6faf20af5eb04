#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda, .bench-data): the timeline of the distributed product (tools/cuptitrace.c) on
# 1, 2 and 4 ranks, the same runs untraced, and actor_movie_incidence's plans on one GPU.
#   usage: bash bench/results/2026-11-21-h200x4-trace/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib bench cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
stamp "built"
S="build-cuda/bench/bench_scaling -weak 160 -strong 0 -irregular none -types aijcusparse,aijtuned -ksp 0 -reps 50 -warmup 10"
T="-x CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so"
for n in 1 2 4; do
  timeout 100 mpiexec --oversubscribe --bind-to none -n $n $S > "$R/plain$n.txt" 2>&1
  timeout 100 mpiexec --oversubscribe --bind-to none -n $n $T -x AIJT_TRACE="$R/trace$n" $S > "$R/trace$n.txt" 2>&1
  timeout 100 mpiexec --oversubscribe --bind-to none -n $n $T -x AIJT_TRACE="$R/kern$n" -x AIJT_TRACE_NO_API=1 $S > "$R/kern$n.txt" 2>&1
  grep -A3 "^format" "$R/plain$n.txt" "$R/trace$n.txt" "$R/kern$n.txt"
  python3 tools/trace_products.py "$R"/trace$n.*.txt > "$R/trace$n-summary.txt" 2>&1
  python3 tools/trace_products.py "$R"/kern$n.*.txt > "$R/kern$n-summary.txt" 2>&1
  stamp "$n ranks"
done
cat "$R"/trace4-summary.txt "$R"/kern4-summary.txt | head -120
gzip -9 "$R"/trace*.[0-9].txt "$R"/kern*.[0-9].txt
A=.bench-data/actor_movie_incidence.mtx.gz
for v in "" "-mat_aijtuned_formats csr" "-mat_aijtuned_formats sell" "-mat_aijtuned_formats csr,long,coo" "-mat_aijtuned_col_order degree" "-mat_aijtuned_sort 0" "-mat_aijtuned_tune 0"; do
  echo "== options: $v" >> "$R/actor.txt"
  timeout 60 build-cuda/bench/bench_spmv -suite none -f $A -reps 300 -mat_view ::ascii_info $v 2>&1 | grep -E "strip|aijtuned|^actor|aijcusparse" >> "$R/actor.txt"
done
grep -E "^== |^actor" "$R/actor.txt"
stamp "actor"
