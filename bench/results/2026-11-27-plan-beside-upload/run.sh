#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR [PAT]: the set-up figures of
# ../2026-11-27-setup-from-aij/run.sh (bench_spmv over the whole suite, -plan_reps 3 -setup_reps 3: planning beside
# the values' upload and, with the option off, before it), then the library's tests and the suite's tests whose
# label holds PAT (all without) on the GPU.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [PAT]}; pat=${2:-}
bash bench/results/2026-11-27-setup-from-aij/run.sh "$O"
source bench/session.sh "$O"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all > "$out/make-all.log" 2>&1 || { tail -30 "$out/make-all.log"; exit 1; }
timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 $pat > "$out/suite.txt" 2>&1
tail -1 "$out/suite.txt"; grep -A12 "^not ok" "$out/suite.txt" | head -60
gzip -9f "$out/suite.txt"
