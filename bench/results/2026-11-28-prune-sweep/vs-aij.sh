#!/usr/bin/env bash
# One GPU, carrying .petsc-cuda:  bash bench/results/2026-11-28-prune-sweep/vs-aij.sh OUTDIR
# run.sh's two examples again with AIJ on the host as the reference (tests/sweep_tutorials.py --ref aij), every
# test's outputs kept.
set -uo pipefail
O=${1:?usage: vs-aij.sh OUTDIR}; mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O" > /dev/null 2>&1
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
timeout 240 python3 tests/sweep_tutorials.py --build build-cuda --ref aij --per-test 2 \
  --mpiexec "mpiexec --oversubscribe --bind-to none" --keep "$O/kept" snes/tests/ex1 ts/tests/ex5 > "$O/sweep.txt" 2>&1
echo "sweep exit $?" >> "$O/sweep.txt"
tail -30 "$O/sweep.txt"
