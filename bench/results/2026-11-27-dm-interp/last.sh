#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  last.sh OUTDIR, the session's last tree:
#   v/  built, the whole suite (bench/results/2026-11-25-h100-verify/run.sh build suite)
#   t/  SNES ex19 with multigrid at scale, 3 rounds of aijcusparse, aijtuned, aijtuned_ibase and tunedops alternately
set -uo pipefail
O=${1:?usage: last.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
CASES=ex19_mg ROUNDS=3 VARIANTS="aijcusparse aijtuned aijtuned_ibase tunedops" bash bench/run_tutorials.sh "$O/t" | tail -20
