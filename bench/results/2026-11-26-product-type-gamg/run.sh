#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: what products' results of the first operand's type (748d4cf) cost or
# save where products are hot: KSP ex45's CG + GAMG at 161^3 (bench/run_tutorials.sh, 2 rounds, aijcusparse /
# aijtuned / tunedops alternating) with this tree, then with the product file before the change
# (../2026-11-26-tutorial-diff/product-before.c, built in a copy).  Also the new suite test snes_ex9 on this tree.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
R=$(cd "$(dirname "$0")" && pwd)
cd "$R/../../.." || exit 1
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
rm -rf /tmp/before && mkdir /tmp/before && tar --exclude='./build*' --exclude='./.petsc*' --exclude='./.bench*' -cf - . | tar xf - -C /tmp/before
cp bench/results/2026-11-26-tutorial-diff/product-before.c /tmp/before/src/mat/impls/tuned/aijtunedproduct.c
CASES=ex45_cg_gamg ROUNDS=2 bash bench/run_tutorials.sh "$O/after" > "$O/after.log" 2>&1
(source bench/session.sh "$O/after" > /dev/null; timeout 60 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" snes_ex9 | tail -3) | tee "$O/snes_ex9.txt"
(cd /tmp/before && CASES=ex45_cg_gamg ROUNDS=2 bash bench/run_tutorials.sh "$O/before" > "$O/before.log" 2>&1)
for d in after before; do echo "== $d"; cat "$O/$d/summary.txt"; for t in aijcusparse aijtuned tunedops; do
  echo "-- $t round 1: event count time(s)"; tar xzOf "$O/$d/logs.tar.gz" ./ex45_cg_gamg-$t-1.txt | grep -E "^(PCSetUp|MatPtAPNumeric|MatPtAPSymbolic|MatMult|KSPSolve) " | awk '{print $1, $2, $4}'
done; done
