#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  next.sh OUTDIR: the three tutorials README.md leaves unexplained, each with the DM's host
# vectors as the sweep ran them, with PETSc's factorization instead of cuSPARSE's, and with CUDA vectors (aijtuned and
# aijcusparse); each output compared with PETSc's recording (words, blanks ignored).  Not yet run.
set -uo pipefail
O=${1:?usage: next.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
E=/opt/petsc-cuda/share/petsc/examples/src
make BUILD=build-cuda lib build-cuda/tutorials/snes/tutorials/ex35 build-cuda/tutorials/snes/tutorials/ex9 build-cuda/tutorials/ts/tutorials/ex46 > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
lib=$PWD/build-cuda/lib/libaijtuned.so
declare -A args=(
  [snes/tutorials/ex35:8:1]="-da_refine 2 -snes_monitor_short -snes_type fas -fas_levels_snes_monitor_short -fas_coarse_snes_type newtonls -fas_coarse_pc_type lu -fas_coarse_ksp_type preonly -snes_type fas -snes_rtol 1.e-5"
  [snes/tutorials/ex9:6:2]="-snes_grid_sequence 2 -pc_type mg -snes_monitor_short -ksp_converged_reason"
  [ts/tutorials/ex46:2d_q2q1_r1:1]="-dm_plex_simplex 0 -dm_refine 1 -vel_petscspace_degree 2 -pres_petscspace_degree 1 -ts_type beuler -ts_max_steps 10 -ts_dt 0.1 -ts_monitor -dmts_check -snes_monitor_short -snes_converged_reason -ksp_monitor_short -ksp_converged_reason -pc_type fieldsplit -pc_fieldsplit_type schur -pc_fieldsplit_schur_fact_type full -fieldsplit_velocity_pc_type lu -fieldsplit_pressure_ksp_rtol 1.0e-10 -fieldsplit_pressure_pc_type jacobi"
)
declare -A petsc_lu=([snes/tutorials/ex35]="-fas_coarse_pc_factor_mat_solver_type petsc" [snes/tutorials/ex9]="-mg_coarse_pc_factor_mat_solver_type petsc -mg_coarse_redundant_pc_factor_mat_solver_type petsc" [ts/tutorials/ex46]="-fieldsplit_velocity_pc_factor_mat_solver_type petsc")
for key in "${!args[@]}"; do
  IFS=: read -r ex suffix n <<< "$key"
  rec=$E/$(dirname $ex)/output/$(basename $ex)_$suffix.out
  for v in "aijtuned|" "aijtuned|${petsc_lu[$ex]}" "aijtuned|-dm_vec_type cuda" "aijcusparse|-dm_vec_type cuda"; do
    t=${v%%|*}; extra=${v#*|}
    tag="$(basename $ex)_$suffix $t $extra"
    timeout 120 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tutorials/$ex ${args[$key]} -mat_type $t -dm_mat_type $t -dll_append $lib $extra > "$O/out.txt" 2>&1
    if diff -q <(tr -s ' \t\n' '\n' < "$O/out.txt" | sed 's/aijtuned/aijcusparse/g') <(tr -s ' \t\n' '\n' < "$rec" | sed 's/aijtuned/aijcusparse/g') > /dev/null; then echo "SAME   $tag"
    else echo "DIFFER $tag"; fi | tee -a "$O/summary.txt"
    { echo "==== $tag"; cat "$O/out.txt"; } >> "$O/outputs.txt"
  done
done
rm -f "$O/out.txt" "$O/make.log"; gzip -9f "$O/outputs.txt"
