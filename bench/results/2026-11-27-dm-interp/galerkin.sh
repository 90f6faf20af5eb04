#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  galerkin.sh OUTDIR: SNES ex19's forms in the suite (suite=snes_ex19, with
# cuda_mg_galerkin), then ex19 with PCMG's Galerkin coarse operators (-pc_mg_galerkin pmat, -da_refine 5, CUDA
# vectors) under -dm_mat_type aijcusparse and aijtuned on 1 and 2 ranks: the linear iterations and the Newton
# steps' norms side by side.
set -uo pipefail
O=${1:?usage: galerkin.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite=snes_ex19
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
