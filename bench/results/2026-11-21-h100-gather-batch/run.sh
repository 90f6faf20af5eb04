#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data): gather_dot with a masked last step, 4 and 8 slots per step,
# against the committed kernels (4 slots per step and a loop of single slots for the rest), on the
# matrices whose strips use it (CSR, LONG, ELL, SELL) and every real matrix: bench_spmv for each build,
# each with its own aijcusparse; test_kernels for the new builds.
#   old: the tree with batch.patch reversed; b4: the tree; b8: the tree with -DAIJT_GATHER_BATCH=8
#   usage: bash bench/results/2026-11-21-h100-gather-batch/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
here=$(cd "$(dirname "$0")" && pwd)
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old /tmp/b8
for d in old b8; do mkdir /tmp/$d && cp -a src include kernels bench tests examples tools makefile config models /tmp/$d/; done
(cd /tmp/old && patch -s -R -p1 < "$here/batch.patch")
make BUILD=build-cuda lib bench tests > "$R/make-b4.log" 2>&1 &
(cd /tmp/old && make BUILD=build-cuda lib bench) > "$R/make-old.log" 2>&1 &
(cd /tmp/b8 && make BUILD=build-cuda NVFLAGS_EXTRA=-DAIJT_GATHER_BATCH=8 lib bench tests) > "$R/make-b8.log" 2>&1 &
wait
for v in old b4 b8; do tail -2 "$R/make-$v.log"; done
stamp "built"
(cd tests/planner && ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels-b4.txt" 2>&1; echo "b4 test_kernels: $(tail -1 "$R/kernels-b4.txt")"
(cd tests/planner && /tmp/b8/build-cuda/tests/kernels/test_kernels) > "$R/kernels-b8.txt" 2>&1; echo "b8 test_kernels: $(tail -1 "$R/kernels-b8.txt")"
A="-suite lap3d,elast,rmat,circuit,random,lap3d40 -dir $PWD/.bench-data -reps 100"
for round in 1; do
  for v in old b4 b8; do
    d=.; [ $v != b4 ] && d=/tmp/$v
    (cd $d && timeout 170 build-cuda/bench/bench_spmv $A) > "$R/spmv-$v.txt" 2>&1
    stamp "$v: exit $?"
  done
done
for v in old b4 b8; do echo "== $v"; sed -n '/^Speedup of/,$p' "$R/spmv-$v.txt" | head -6; done
