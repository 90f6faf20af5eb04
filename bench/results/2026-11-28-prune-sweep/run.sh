#!/usr/bin/env bash
# One GPU, carrying .petsc-cuda:  bash bench/results/2026-11-28-prune-sweep/run.sh OUTDIR
# The tree built and its whole suite; then PETSc's own tests that eliminate a Jacobian's zeros before its coloring
# (SNES tests ex1 -prune_jacobian: SNESPruneJacobianColor; TS tests ex5 -prune_jacobian: TSPruneIJacobianColor) and
# their neighbours, each test with aijcusparse and with aijtuned (tests/sweep_tutorials.py --ref aijcusparse).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
source bench/session.sh "$O" > /dev/null 2>&1 # PETSC_DIR and the harness, as the suite's step has them
timeout 240 python3 tests/sweep_tutorials.py --build build-cuda --ref aijcusparse --per-test 2 \
  --mpiexec "mpiexec --oversubscribe --bind-to none" --keep "$O/kept" snes/tests/ex1 ts/tests/ex5 > "$O/sweep.txt" 2>&1
echo "sweep exit $?" >> "$O/sweep.txt"
tail -40 "$O/sweep.txt"
