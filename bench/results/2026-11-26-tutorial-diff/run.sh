#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: the three tutorials ../2026-11-26-ts-sweep/next.sh found still differing
# from PETSc's recording, each under variants that switch one part of aijtuned off at a time (plain aij first, to
# see whether this PETSc build reproduces the recording at all).  Per variant: SAME/DIFFER against the recording
# (words, blanks ignored, "aijtuned" read as "aijcusparse") and the first differing line.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
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
T="-dll_append $lib"
variants=(
  "aij|-mat_type aij -dm_mat_type aij"
  "aijcusparse|-mat_type aijcusparse -dm_mat_type aijcusparse"
  "aijtuned|-mat_type aijtuned -dm_mat_type aijtuned $T"
  "host_strips|-mat_type aijtuned -dm_mat_type aijtuned $T -mat_aijtuned_host_strips"
  "host_build|-mat_type aijtuned -dm_mat_type aijtuned $T -mat_aijtuned_gpu_build 0"
  "dm_only|-dm_mat_type aijtuned $T"
  "mat_only|-mat_type aijtuned $T"
  "cuda_vec_base|-mat_type aijtuned -dm_mat_type aijtuned $T -dm_vec_type cuda -mat_aijtuned_gpu_strips 0"
  "cuda_vec|-mat_type aijtuned -dm_mat_type aijtuned $T -dm_vec_type cuda"
  "aijcusparse_cuda_vec|-mat_type aijcusparse -dm_mat_type aijcusparse -dm_vec_type cuda"
)
words() { tr -s ' \t\n' '\n' < "$1" | sed 's/aijtuned/aijcusparse/g'; }
for key in "${!args[@]}"; do
  IFS=: read -r ex suffix n <<< "$key"
  rec=$E/$(dirname $ex)/output/$(basename $ex)_$suffix.out
  for v in "${variants[@]}"; do
    name=${v%%|*}; extra=${v#*|}
    tag="$(basename $ex)_$suffix $name"
    timeout 120 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tutorials/$ex ${args[$key]} $extra > "$O/out.txt" 2>&1
    first=$(diff <(sed 's/aijtuned/aijcusparse/g' "$O/out.txt" | tr -s ' \t' ' ') <(sed 's/aijtuned/aijcusparse/g' "$rec" | tr -s ' \t' ' ') | grep -m2 '^[<>]' | tr '\n' ' ')
    if diff -q <(words "$O/out.txt") <(words "$rec") > /dev/null; then echo "SAME   $tag"
    else echo "DIFFER $tag :: $first"; fi | tee -a "$O/summary.txt"
    { echo "==== $tag"; cat "$O/out.txt"; } >> "$O/outputs.txt"
  done
done
rm -f "$O/out.txt" "$O/make.log"; gzip -9f "$O/outputs.txt"
