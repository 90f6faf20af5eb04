#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): compute-sanitizer memcheck over test_kernels' products of its large
# matrices (names containing "0k": long_row_50k, short_rows_600k, rows_of_30_140k), which take the
# DENSE kernel and the LONG strips.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-occupancy/run5.sh OUTDIR
set -uo pipefail
O=${1:?usage: run5.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
commit_line >> "$R/run.txt"
make BUILD=build-cuda build-cuda/tests/kernels/test_kernels > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
(cd tests/planner && timeout 260 compute-sanitizer --tool memcheck ../../build-cuda/tests/kernels/test_kernels 0k > "$R/memcheck.txt" 2>&1); echo "memcheck exit $?" | tee -a "$R/run.txt"
tail -4 "$R/memcheck.txt" | tee -a "$R/run.txt"; grep -c "^PASS" "$R/memcheck.txt" | tee -a "$R/run.txt"
gzip -9 "$R/memcheck.txt"; rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
