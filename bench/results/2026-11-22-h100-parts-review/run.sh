#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): the whole suite after the review's refactor (one helper for the vectors'
# device arrays).  OUTDIR/r.tgz.   usage: bash bench/results/2026-11-22-h100-parts-review/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"
timeout 300 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A10 "^not ok" "$R/suite.txt" | head -40
gzip -9 "$R/suite.txt"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
