#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run4.sh OUTDIR: aijtuned products' results of the first operand's type (aijtuned), checked:
# tests/mat/galerkin on 1-3 ranks on aijtuned's own and on host vectors, with this tree and with the product file
# before the change (product-before.c, built in a copy); SNES ex9 6 against PETSc's recording and aij with several
# smoothers on 1 and 2 ranks; then the whole suite.
set -uo pipefail
O=${1:?usage: run4.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
R=$(cd "$(dirname "$0")" && pwd)
cd "$R/../../.." || exit 1
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all build-cuda/tutorials/snes/tutorials/ex9 > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
rm -rf /tmp/before && mkdir /tmp/before && tar --exclude='./build*' --exclude='./.petsc*' --exclude='./.bench*' --exclude=./bench -cf - . | tar xf - -C /tmp/before
cp "$R/product-before.c" /tmp/before/src/mat/impls/tuned/aijtunedproduct.c
(cd /tmp/before && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib build-cuda/tests/mat/galerkin > "$O/make-before.log" 2>&1) || { tail -20 "$O/make-before.log"; exit 1; }
stamp build
for tree in /tmp/before $PWD; do for n in 1 2 3; do for h in 0 1; do
  r=$(cd $tree && timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tests/mat/galerkin -host_vectors $h 2>&1)
  echo "galerkin $( [ $tree = /tmp/before ] && echo before || echo after ) n=$n host_vectors=$h: $(echo "$r" | grep -c ' ok$') ok, $(echo "$r" | grep -c FAILED) FAILED $(echo "$r" | grep FAILED | tr -s ' ' | tr '\n' ';')"
done; done; done | tee "$O/galerkin.txt"
lib=$PWD/build-cuda/lib/libaijtuned.so
rec=/opt/petsc-cuda/share/petsc/examples/src/snes/tutorials/output/ex9_6.out
words() { tr -s ' \t\n' '\n' < "$1" | sed 's/aijtuned/aijcusparse/g'; }
for v in "aij|-mat_type aij -dm_mat_type aij" "aijtuned|-mat_type aijtuned -dm_mat_type aijtuned -dll_append $lib" "dm_only|-dm_mat_type aijtuned -dll_append $lib" "cuda_vec|-mat_type aijtuned -dm_mat_type aijtuned -dm_vec_type cuda -dll_append $lib" "host_strips|-mat_type aijtuned -dm_mat_type aijtuned -mat_aijtuned_host_strips -dll_append $lib"; do
  name=${v%%|*}; extra=${v#*|}
  timeout 60 mpiexec --oversubscribe --bind-to none -n 2 build-cuda/tutorials/snes/tutorials/ex9 -snes_grid_sequence 2 -pc_type mg -snes_monitor_short -ksp_converged_reason $extra > "$O/out.txt" 2>&1
  if diff -q <(words "$O/out.txt") <(words "$rec") > /dev/null; then echo "SAME as recording  ex9_6 $name"; else echo "DIFFER from recording ex9_6 $name: $(grep errors "$O/out.txt")"; fi
  { echo "==== ex9_6 $name"; cat "$O/out.txt"; } >> "$O/ex9.txt"
done | tee "$O/ex9_summary.txt"
base="-snes_grid_sequence 2 -snes_monitor_short -ksp_converged_reason -pc_type mg"
for n in 1 2; do for pc in "" "-mg_levels_ksp_type richardson -mg_levels_pc_type sor" "-mg_levels_pc_type jacobi" "-mg_levels_pc_type none" "-dm_vec_type cuda"; do
  for t in aij aijtuned; do timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tutorials/snes/tutorials/ex9 $base $pc -mat_type $t -dm_mat_type $t -dll_append $lib > "$O/ex9_$t.txt" 2>&1; done
  if cmp -s "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt"; then echo "SAME as aij n=$n $pc"; else echo "DIFFER from aij n=$n $pc"; diff "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt" | head -6; fi
  { echo "==== n=$n $pc aij"; cat "$O/ex9_aij.txt"; echo "==== n=$n $pc aijtuned"; cat "$O/ex9_aijtuned.txt"; } >> "$O/ex9.txt"
done; done | tee -a "$O/ex9_summary.txt"
stamp ex9
timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$O/suite.txt" 2>&1
tail -1 "$O/suite.txt"; grep -A12 "^not ok" "$O/suite.txt" | head -60
stamp suite
rm -f "$O/out.txt" "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt" "$O/make.log" "$O/make-before.log"; gzip -9f "$O/ex9.txt" "$O/suite.txt"
