#!/usr/bin/env bash
# mpiaijtuned's summary line on the GPU (8faca18): the demo on two ranks, and the tests that run two-rank views.
# run: bash mpi.sh OUTDIR (carry .petsc-cuda)
set -uo pipefail
O=${1:?usage: mpi.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build suite=room suite=snes_ex19 suite=ksp_ex2
source bench/session.sh "$O"
mpiexec --oversubscribe --bind-to none -n 2 build-cuda/examples/tutorials/ex1 -dim 3 -n 32 -mat_type aijtuned -ksp_type cg -pc_type jacobi -mat_view ::ascii_info > "$out/ex1-np2.txt" 2>&1; stamp "ex1 on 2 ranks: exit $?"
sed -n '/aijtuned plans/,/norm of error/p' "$out/ex1-np2.txt" | tee -a "$out/run.txt"
