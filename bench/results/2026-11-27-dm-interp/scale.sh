#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  scale.sh OUTDIR, after the interpolation's scale came from the converted matrix:
#   v/  the tree built; PETSc's own tutorials in the suite (suite=tests/petsc) and the -help forms (suite=help)
#   t/  SNES ex19 with multigrid at scale, 3 rounds of aijcusparse, aijtuned, aijtuned_ibase and tunedops alternately
set -uo pipefail
O=${1:?usage: scale.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite=tests/petsc suite=help
CASES=ex19_mg ROUNDS=3 VARIANTS="aijcusparse aijtuned aijtuned_ibase tunedops" bash bench/run_tutorials.sh "$O/t" | tail -20
