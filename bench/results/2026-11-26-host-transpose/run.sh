#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: the transposed products on host vectors (seq/aijtunedbaseops.c):
#   v/   the whole suite at this tree (test_kernels included)
#   before.txt  tests/mat/ops' CUDA forms against the library built with baseops-before.c (b27f5f1's file): the new
#        host-vector check must fail there
#   mffd.txt  PETSc's own types with -mat_type and a matrix-free operator (TS ex15 -Jtype 1, SNES ex5
#        -snes_mf_operator), no aijtuned: PETSc's MatSetFromOptions retypes the MFFD operator
#   s/   tests/sweep_tutorials.py --ref aijcusparse over ../2026-11-26-ts-sweep's SNES groups (6 and 7)
set -uo pipefail
export MAKEFLAGS=-j16
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
H=$(cd "$(dirname "$0")" && pwd)
cd "$H/../../.." || exit 1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
source bench/session.sh "$O"
f=src/mat/impls/tuned/seq/aijtunedbaseops.c
cp $f /tmp/baseops-after.c && cp "$H/baseops-before.c" $f
make BUILD=build-before lib tests > "$O/make-before.log" 2>&1; echo "before build exit $?"
cp /tmp/baseops-after.c $f
timeout 120 python3 tests/run.py --build build-before --mpiexec "mpiexec --oversubscribe --bind-to none" -j 6 ops_cuda-n > "$O/before.txt" 2>&1
tail -1 "$O/before.txt"; grep -E "FAILED|difference" "$O/before.txt" | sort | uniq -c | head
stamp before
make BUILD=build-cuda build-cuda/tutorials/ts/tutorials/ex15 > /dev/null 2>&1
for t in aij aijcusparse; do
  echo "== TS ex15 -Jtype 1 -mat_type $t"; timeout 60 build-cuda/tutorials/ts/tutorials/ex15 -da_grid_x 20 -da_grid_y 20 -boundary 0 -ts_max_steps 10 -ts_monitor -Jtype 1 -mat_type $t 2>&1 | head -4; echo "exit ${PIPESTATUS[0]}"
  echo "== SNES ex5 -snes_mf_operator -mat_type $t"; timeout 60 build-cuda/tests/petsc/snes_ex5 -snes_mf_operator -snes_monitor_short -mat_type $t 2>&1 | head -4; echo "exit ${PIPESTATUS[0]}"
done > "$O/mffd.txt" 2>&1
grep -E "^==|^exit|SEGV|Function norm" "$O/mffd.txt" | head -30
stamp mffd
GROUP_S=${GROUP_S:-170} bash bench/results/2026-11-26-ts-sweep/sweep.sh "$O/s" 6 7 | tail -8
