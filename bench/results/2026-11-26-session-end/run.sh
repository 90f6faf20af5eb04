#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: the session's end on one machine: bench_spmv over
# the suite (MatMult, new values, planning), then PETSc's tutorials with each type (SNES ex19 with MG, KSP ex45 with
# CG + Jacobi, TS ex4; bench/run_tutorials.sh, two rounds).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build spmv
CASES="ex19_mg ex45_cg_jacobi ts_ex4" ROUNDS=2 bash bench/run_tutorials.sh "$O/t" | tail -14
