#!/usr/bin/env bash
# One GPU (carry .petsc-cuda and .petsc-cuda-dbg).  run.sh OUTDIR: PETSc's TS ex15 with a finite-difference
# Jacobian (-Jtype 1 and 2), the sweep's two regressions, with aijcusparse and aijtuned: under the debug PETSc
# (its stack at the fault), under the optimized one with -info, and under gdb where the machine has it.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MAKEFLAGS=-j16
args="-da_grid_x 20 -da_grid_y 20 -boundary 0 -ts_max_steps 10 -ts_monitor"
for kind in dbg opt; do
  if [ $kind = dbg ]; then P=/opt/petsc-cuda-dbg; B=build-dbg
    PETSC_CUDA_PREFIX=$P PETSC_CUDA_STORE=.petsc-cuda-dbg bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
  else P=/opt/petsc-cuda; B=build-cuda; bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1; fi
  make PETSC_DIR=$P BUILD=$B lib $B/tutorials/ts/tutorials/ex15 > "$O/make-$kind.log" 2>&1 || { tail -20 "$O/make-$kind.log"; exit 1; }
  ex="$B/tutorials/ts/tutorials/ex15 $args -dll_append $PWD/$B/lib/libaijtuned.so"
  for J in 1 2; do for t in aijcusparse aijtuned; do
    echo "== $kind -Jtype $J $t" | tee -a "$O/runs.txt"
    PETSC_DIR=$P timeout 60 $ex -Jtype $J -mat_type $t -dm_mat_type $t >> "$O/runs.txt" 2>&1; echo "exit $?" | tee -a "$O/runs.txt"
  done; done
done
PETSC_DIR=/opt/petsc-cuda timeout 60 build-cuda/tutorials/ts/tutorials/ex15 $args -Jtype 1 -mat_type aijtuned -dll_append $PWD/build-cuda/lib/libaijtuned.so -info > "$O/info.txt" 2>&1
tail -60 "$O/info.txt"
if command -v gdb > /dev/null; then
  PETSC_DIR=/opt/petsc-cuda timeout 120 gdb -batch -ex run -ex bt --args build-cuda/tutorials/ts/tutorials/ex15 $args -Jtype 1 -mat_type aijtuned -dll_append $PWD/build-cuda/lib/libaijtuned.so -no_signal_handler > "$O/gdb.txt" 2>&1
  grep -A30 "SIGSEGV" "$O/gdb.txt" | head -40
else echo "no gdb"; fi
grep -B2 -A40 "== dbg -Jtype 1 aijtuned" "$O/runs.txt" | head -60
