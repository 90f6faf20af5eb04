#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda), second session: the same A/B as run1.sh with the old tree's models/ (without
# it the old library planned by the rules: run1's "old" figures are not the old code's), each version
# twice, interleaved; then the new code with CUDA_DEVICE_MAX_CONNECTIONS=32 and =1 (whether the back-to-back
# gap before the diagonal block comes from streams sharing a hardware queue); the timeline with the host's
# runtime calls on 4 ranks.
#   usage: bash bench/results/2026-11-21-h200x4-local-first/run2.sh OUTDIR
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
here=$(cd "$(dirname "$0")" && pwd)
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib bench cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -rf /tmp/old && mkdir /tmp/old && cp -a src include kernels bench tests examples makefile config models /tmp/old/ && cp -a build-cuda /tmp/old/
rm -rf /tmp/old/build-cuda/bench; (cd /tmp/old && patch -s -R -p1 < "$here/local-first.patch" && make BUILD=build-cuda lib bench) > "$R/make-old.log" 2>&1 || { tail -30 "$R/make-old.log"; exit 1; }
stamp "built both"
S="-weak 160 -strong 0 -irregular none -types aijcusparse,aijtuned -reps 100 -warmup 10"
for round in 1 2; do
  for n in 1 4; do
    for v in new old; do
      d=.; [ $v = old ] && d=/tmp/old
      (cd $d && timeout 100 mpiexec --oversubscribe --bind-to none -n $n build-cuda/bench/bench_scaling $S) > "$R/$v$n-$round.txt" 2>&1
      echo "$v $n ranks, round $round: $(grep -E '^aijtuned' "$R/$v$n-$round.txt")"
    done
  done
done
stamp "A/B"
for c in 32 1; do
  for n in 1 4; do
    timeout 100 mpiexec --oversubscribe --bind-to none -n $n -x CUDA_DEVICE_MAX_CONNECTIONS=$c build-cuda/bench/bench_scaling $S -ksp 0 > "$R/conn$c-$n.txt" 2>&1
    echo "connections $c, $n ranks: $(grep -E '^aijtuned' "$R/conn$c-$n.txt")"
  done
done
stamp "connections"
T="-x CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so"
timeout 100 mpiexec --oversubscribe --bind-to none -n 4 $T -x AIJT_TRACE="$R/trace4" build-cuda/bench/bench_scaling $S -ksp 0 -types aijtuned > "$R/trace4.txt" 2>&1
python3 tools/trace_products.py --kernel aijt "$R"/trace4.*.txt > "$R/trace4-summary.txt" 2>&1
gzip -9 "$R"/trace4.[0-9].txt
stamp "trace"
