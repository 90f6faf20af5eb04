#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data), second session: the committed gather_dot (masked last step,
# 4 slots) against the one before it (confirm.patch reversed), two interleaved rounds of bench_spmv on the
# same matrices as run.sh, and the whole test suite on the GPU with the committed kernels.
#   usage: bash bench/results/2026-11-21-h100-gather-batch/run2.sh OUTDIR
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
here=$(cd "$(dirname "$0")" && pwd)
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old && mkdir /tmp/old && cp -a src include kernels bench tests examples tools makefile config models /tmp/old/
(cd /tmp/old && patch -s -R -p1 < "$here/confirm.patch")
make BUILD=build-cuda all bench > "$R/make-new.log" 2>&1 &
(cd /tmp/old && make BUILD=build-cuda lib bench) > "$R/make-old.log" 2>&1 &
wait
stamp "built"
(cd tests/planner && ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels.txt" 2>&1; echo "test_kernels: $(tail -1 "$R/kernels.txt")"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/tests.log" 2>&1
stamp "tests: $(tail -1 "$R/tests.log")"
grep "^not ok" "$R/tests.log" | head
A="-suite lap3d,elast,rmat,circuit,random,lap3d40 -dir $PWD/.bench-data -reps 100"
for round in 1 2; do
  for v in new old; do
    d=.; [ $v = old ] && d=/tmp/old
    (cd $d && timeout 120 build-cuda/bench/bench_spmv $A) > "$R/spmv-$v-$round.txt" 2>&1
    stamp "$v round $round: exit $?"
  done
done
