#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  events.sh OUTDIR: SNES ex19 with multigrid at scale (bench/run_tutorials.sh's
# ex19_mg, -da_refine 8) once per variant with -log_view -log_view_gpu_time, so that each event's time is its
# own (every event then waits for the GPU): where aijtuned's solve spends what aijcusparse's does not.
# VARIANTS picks among aijcusparse aijtuned tunedops aijtuned_basemult aijtuned_ibase (default: the first four).
set -uo pipefail
O=${1:?usage: events.sh OUTDIR}
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make BUILD=build-cuda lib tests > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
lib=$PWD/build-cuda/lib/libaijtuned.so
ex19="build-cuda/tests/petsc/snes_ex19 -da_refine 8 -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason -dm_vec_type cuda"
declare -A variants=([aijcusparse]="-dm_mat_type aijcusparse" [aijtuned]="-dm_mat_type aijtuned" [tunedops]="-dm_mat_type aijcusparse -mat_type aijtuned" [aijtuned_basemult]="-dm_mat_type aijtuned -mat_aijtuned_gpu_strips 0" [aijtuned_ibase]="-dm_mat_type aijtuned -mat_aijtuned_dm_interpolation base")
V=${VARIANTS:-aijcusparse aijtuned tunedops aijtuned_basemult}
for v in $V; do
  # shellcheck disable=SC2086
  timeout 120 $ex19 ${variants[$v]} -dll_append "$lib" -log_view -log_view_gpu_time > "$out/$v.txt" 2>&1; stamp "$v: exit $?"
done
for v in $V; do
  echo "== $v"; grep -E "^(KSPSolve|PCSetUp|PCApply|MatMult |MatMultAdd|MatMultTranspose|MatResidual|MatConvert|DMCreateInterp|AIJTuned[A-Za-z]*|MatCUSPARSCopyTo|MatInterpolate|MatRestrict|SNESJacobianEval|MatFDColorApply|VecCUDACopyTo|VecCUDACopyFrom|MatGetDiagonal|MatAssemblyEnd|MatAssemblyBegin|VecPointwiseMult|PCSetUp_MG) " "$out/$v.txt" | cut -c1-75
done | tee "$out/events.txt"
