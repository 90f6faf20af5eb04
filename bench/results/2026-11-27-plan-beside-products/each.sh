#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  each.sh OUTDIR: built, the beside tests, then bench_convert -each
# (each conversion and product timed alone, the last of 3 rounds) on cage11, luxembourg_osm and box27.
set -uo pipefail
O=${1:?usage: each.sh OUTDIR}
bash bench/results/2026-11-27-plan-beside-products/run.sh "$O" build
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" suite=beside
source bench/session.sh "$O"
which nsys ncu 2>&1 | tee "$out/tools.txt"
timeout 200 build-cuda/bench/bench_convert -suite box27 -f .bench-data/cage11.mtx.gz,.bench-data/luxembourg_osm.mtx.gz -reps 3 -each > "$out/each.txt" 2>&1
grep -vE "^\[lap3d:10\]" "$out/each.txt" | grep -v "^warm" | tail -40
