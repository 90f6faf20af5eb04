#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run3.sh OUTDIR: SNES ex9 6 (VI + PCMG) narrowed: tests/mat/galerkin (submatrices of
# a DMDA operator and interpolation on inactive sets, then P^T A P, against AIJ) on 1-3 ranks; then ex9 6's options
# on 1 and 2 ranks with aij and aijtuned with other smoothers on PCMG's levels, each output compared with aij's.
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
make BUILD=build-cuda lib build-cuda/tests/mat/galerkin build-cuda/tutorials/snes/tutorials/ex9 > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
lib=$PWD/build-cuda/lib/libaijtuned.so
for n in 1 2 3; do for extra in "" "-dm_vec_type cuda"; do
  echo "== galerkin n=$n $extra"; timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tests/mat/galerkin $extra 2>&1 | grep -v " ok$" | head -20
done; done | tee "$O/galerkin.txt"
base="-snes_grid_sequence 2 -snes_monitor_short -ksp_converged_reason"
for n in 2 1; do for pc in "-pc_type mg -mg_levels_ksp_type richardson -mg_levels_pc_type sor" "-pc_type mg -mg_levels_pc_type jacobi" "-pc_type mg -mg_levels_pc_type none" "-pc_type mg -mg_levels_ksp_chebyshev_esteig 0,0.1,0,1.1 -mg_levels_ksp_chebyshev_esteig_steps 0 -mg_levels_ksp_chebyshev_eigenvalues 0.2,2" "-pc_type mg -mat_aijtuned_host_strips" "-pc_type mg -dm_vec_type cuda"; do
  for t in aij aijtuned; do
    timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tutorials/snes/tutorials/ex9 $base $pc -mat_type $t -dm_mat_type $t -dll_append $lib > "$O/ex9_$t.txt" 2>&1
  done
  if cmp -s "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt"; then echo "SAME   n=$n $pc"; else echo "DIFFER n=$n $pc"; diff "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt" | head -6; fi
  { echo "==== n=$n $pc aij"; cat "$O/ex9_aij.txt"; echo "==== n=$n $pc aijtuned"; cat "$O/ex9_aijtuned.txt"; } >> "$O/ex9.txt"
done; done | tee "$O/ex9_summary.txt"
for n in 1 2; do for t in aij aijtuned; do echo "==== n=$n $t"
  timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tutorials/snes/tutorials/ex9 $base -pc_type mg -mat_type $t -dm_mat_type $t -dll_append $lib -mg_levels_ksp_view_eigenvalues -ksp_view_eigenvalues -info :pc 2>&1
done; done > "$O/ex9_view.txt"
rm -f "$O/ex9_aij.txt" "$O/ex9_aijtuned.txt" "$O/make.log"; gzip -9f "$O/ex9.txt" "$O/ex9_view.txt"
