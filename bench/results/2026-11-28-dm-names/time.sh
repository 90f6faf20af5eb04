#!/usr/bin/env bash
# time.sh TAG: SNES ex19 (4 fields, PCMG, its levels from -da_refine 6, CUDA vectors) on one rank under each of aijtuned's names and
# aijcusparse, twice each; prints SNESSolve's, KSPSolve's and PCApply's times from -log_view and whether the interpolations went to the GPU.
# Run after run.sh's build (build-cuda/).
set -u
export PETSC_OPTIONS="-use_gpu_aware_mpi 0" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
L=$PWD/build-cuda/lib/libaijtuned.so
X=build-cuda/tests/petsc/snes_ex19
for round in 1 2; do
  for t in aijcusparse aijtuned seqaijtuned; do
    o=$($X -dll_append $L -dm_mat_type $t -dm_vec_type cuda -da_refine 6 -pc_type mg -snes_converged_reason -log_view -info :mat 2>&1)
    echo "$1 round $round $t: SNESSolve $(echo "$o" | awk '/^SNESSolve /{print $4 " s"}'), KSPSolve $(echo "$o" | awk '/^KSPSolve /{print $4 " s"}'), PCApply $(echo "$o" | awk '/^PCApply /{print $4 " s"}'), $(echo "$o" | grep -c "interpolation of 4 fields made aijtuned") interpolations made aijtuned, $(echo "$o" | grep -m1 "Nonlinear solve")"
  done
done
