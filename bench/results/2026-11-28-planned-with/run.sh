#!/usr/bin/env bash
# -mat_view's "planned with:" line on a GPU, and the tests that view plans.  run: bash run.sh OUTDIR (carry .petsc-cuda)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build suite=snes_ex19 suite=ksp_ex2 suite=errors
source bench/session.sh "$O"
ex1="-dim 3 -n 32 -mat_type aijtuned -ksp_type cg -pc_type jacobi -mat_view ::ascii_info"
build-cuda/examples/tutorials/ex1 $ex1 > "$out/ex1-own.txt" 2>&1; stamp "ex1, the models folder: exit $?"
mkdir -p /tmp/h100only && cp models/NVIDIA-H100-80GB-HBM3.model /tmp/h100only/
AIJTUNED_MODEL_DIR=/tmp/h100only build-cuda/examples/tutorials/ex1 $ex1 > "$out/ex1-nearest.txt" 2>&1; stamp "ex1, the H100's model alone: exit $?"
build-cuda/examples/tutorials/ex1 $ex1 -mat_aijtuned_planner rules > "$out/ex1-rules.txt" 2>&1; stamp "ex1, the rules: exit $?"
grep -h "planned with\|strip 0:\|norm of error" "$out"/ex1-*.txt | tee -a "$out/run.txt"
