#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  swap.sh OUTDIR, after the DMDA makes the interpolation as under aijcusparse (3818f6f):
#   v/  the tree built; PETSc's tutorials in the suite (suite=tests/petsc) and the -help forms (suite=help)
#   t/  SNES ex19 with multigrid at scale, 3 rounds of aijcusparse, aijtuned, aijtuned_ibase and tunedops alternately
#   g/  ex19 with Galerkin coarse operators, aijcusparse against aijtuned on 1 and 2 ranks (as galerkin.sh)
set -uo pipefail
O=${1:?usage: swap.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite=tests/petsc suite=help
CASES=ex19_mg ROUNDS=3 VARIANTS="aijcusparse aijtuned aijtuned_ibase tunedops" bash bench/run_tutorials.sh "$O/t" | tail -20
source bench/session.sh "$O/g"
lib=$PWD/build-cuda/lib/libaijtuned.so
for n in 1 2; do
  for t in aijcusparse aijtuned; do
    timeout 60 mpiexec --oversubscribe --bind-to none -n $n build-cuda/tests/petsc/snes_ex19 -da_refine 5 -dm_vec_type cuda -dm_mat_type $t \
      -pc_type mg -pc_mg_galerkin pmat -snes_monitor -ksp_converged_reason -dll_append "$lib" > "$out/$t-$n.txt" 2>&1
    stamp "$t on $n ranks: exit $?"
  done
  paste "$out/aijcusparse-$n.txt" "$out/aijtuned-$n.txt" | head -12
done
