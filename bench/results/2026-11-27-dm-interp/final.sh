#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  final.sh OUTDIR:
#   v/  the tree built and the whole suite (bench/results/2026-11-25-h100-verify/run.sh build suite)
#   t/  SNES ex19 with multigrid at scale, 3 rounds of aijcusparse, aijtuned (interpolations aijtuned), aijtuned_ibase
#       (interpolations aijcusparse) and tunedops, alternately (bench/run_tutorials.sh)
#   b/  ex19 once with -mat_aijtuned_gpu_strips 0 and -log_view_gpu_time: MatMult by the base's kernel on the GPU
set -uo pipefail
O=${1:?usage: final.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
CASES=ex19_mg ROUNDS=3 VARIANTS="aijcusparse aijtuned aijtuned_ibase tunedops" bash bench/run_tutorials.sh "$O/t" | tail -20
source bench/session.sh "$O/b"
timeout 120 build-cuda/tests/petsc/snes_ex19 -da_refine 8 -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason -dm_vec_type cuda -dm_mat_type aijtuned -mat_aijtuned_gpu_strips 0 -dll_append "$PWD/build-cuda/lib/libaijtuned.so" -log_view -log_view_gpu_time > "$out/basemult.txt" 2>&1
stamp "basemult: exit $?"
grep -E "^(KSPSolve|PCApply|MatMult |MatMultAdd|MatResidual) " "$out/basemult.txt" | cut -c1-75
