#!/usr/bin/env bash
# cuSPARSE's factorizations as seqaijtuned's default, solves with host vectors through the factor's CUDA work
# vectors (aijtunedfactor.c): the suite, then KSP ex2 (PETSc's tutorial, built by the suite) with GMRES + ILU(0):
# with CUDA vectors on an M x M grid, aijtuned against aijcusparse in one process each, alternated, two rounds;
# then with host vectors on an H x H grid, once each.   carry: .petsc-cuda   usage: run.sh OUTDIR [M [H]]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [M [H]]}; M=${2:-600}; H=${3:-$M}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build suite
source bench/session.sh "$O"
ex2=build-cuda/tests/petsc/ksp_ex2
[ -x $ex2 ] || make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda $ex2 > /dev/null 2>&1
lib=$(pwd)/build-cuda/lib/libaijtuned.so
ex2run() { # grid, type, options
  echo "== -m $1 -n $1 -mat_type $2 $3" | tee -a "$out/ilu.txt"
  # shellcheck disable=SC2086
  $ex2 -dll_append $lib -m $1 -n $1 -mat_type $2 $3 -pc_type ilu -ksp_max_it 3000 -ksp_converged_reason -log_view 2>&1 | \
    grep -E "converged|Norm of error|^MatSolve |^MatMult |^KSPSolve |^MatLUFactorNum|^PCSetUp |rror" | tee -a "$out/ilu.txt"
}
for round in 1 2; do
  ex2run $M aijcusparse "-vec_type cuda"
  ex2run $M aijtuned "-vec_type cuda"
  ex2run $M aijtuned "-vec_type cuda -pc_factor_mat_solver_type petsc"
done
ex2run $H aij ""
ex2run $H aijtuned ""
ex2run $H aijtuned "-pc_factor_mat_solver_type petsc"
stamp ilu
