#!/usr/bin/env bash
# The suite (ops.c's "MatCreateSubMatrices blocks: product, ILU, reused"), then SNES ex5's GASM test
# (gasm.sh), on one GPU.  carry: .petsc-cuda      usage: run.sh OUTDIR
set -u
O=${1:?}; mkdir -p $O
bash bench/results/2026-11-25-h100-verify/run.sh $O/v build suite 2>&1 | tail -12
bash bench/results/2026-11-26-cusparse-default/gasm.sh $O/gasm 2>&1 | grep -v "^  CC"
