#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): the diagonal block queued ahead of the peer exchange (local-first.patch)
# against the tree without it, in the same job: bench_scaling weak on 1, 2, 4 ranks (aijcusparse, aijtuned,
# CG), each version twice, interleaved; the timeline on 4 ranks; the whole suite on the 4 GPUs.
#   usage: bash bench/results/2026-11-21-h200x4-local-first/run1.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
here=$(cd "$(dirname "$0")" && pwd)
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -rf /tmp/old && mkdir /tmp/old && cp -a src include kernels bench tests examples makefile config /tmp/old/ && cp -a build-cuda /tmp/old/
rm -rf /tmp/old/build-cuda/bench; (cd /tmp/old && patch -s -R -p1 < "$here/local-first.patch" && make BUILD=build-cuda lib bench) > "$R/make-old.log" 2>&1 || { tail -30 "$R/make-old.log"; exit 1; }
stamp "built both"
S="-weak 160 -strong 0 -irregular none -types aijcusparse,aijtuned -reps 100 -warmup 10"
for round in 1 2; do
  for n in 1 2 4; do
    for v in new old; do
      d=.; [ $v = old ] && d=/tmp/old
      (cd $d && timeout 100 mpiexec --oversubscribe --bind-to none -n $n build-cuda/bench/bench_scaling $S) > "$R/$v$n-$round.txt" 2>&1
      echo "$v $n ranks, round $round: $(grep -E '^aijtuned' "$R/$v$n-$round.txt")"
    done
  done
done
stamp "scaling"
T="-x CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so -x AIJT_TRACE_NO_API=1"
timeout 100 mpiexec --oversubscribe --bind-to none -n 4 $T -x AIJT_TRACE="$R/kern4" build-cuda/bench/bench_scaling $S -ksp 0 -types aijtuned > "$R/kern4.txt" 2>&1
python3 tools/trace_products.py --kernel aijt "$R"/kern4.*.txt > "$R/kern4-summary.txt" 2>&1
grep -E "==|batch|per call|gap before|^    D |O start|    O  " "$R/kern4-summary.txt"
gzip -9 "$R"/kern4.[0-9].txt
stamp "trace"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
