#!/usr/bin/env bash
# One GPU, carrying .petsc-cuda:  bash bench/results/2026-11-28-create-graph/run.sh OUTDIR
# The tree built; the suite's ops, ksp_ex45 (PCGAMG among them) and galerkin tests; then ops against a build with
# fix.diff taken back.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
R=bench/results/2026-11-28-create-graph
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite=ops suite=ex45 suite=galerkin
source bench/session.sh "$O" > /dev/null 2>&1 # PETSC_DIR for the harness
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./.git . | tar xf - -C /tmp/old
(cd /tmp/old && patch -R -p1 < $R/fix.diff && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib tests) > "$O/old-build.txt" 2>&1 || { tail -20 "$O/old-build.txt"; exit 1; }
(cd /tmp/old && timeout 120 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 8 ops_cuda-) > "$O/old-ops.txt" 2>&1
tail -1 "$O/old-ops.txt"; grep -E "FAILED" "$O/old-ops.txt" | sort | uniq -c
