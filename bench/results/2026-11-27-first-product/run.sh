#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR: built (with the CUPTI tracer), then
#   each.txt   bench_convert -each on cage11, luxembourg_osm, actor_movie_incidence, circuit and box27 (3 rounds)
#   t.*.txt    the same, 1 round, under tools/cuptitrace.c, and first_product.py's reading of it (first.txt)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
if [ ! -d .bench-data ] && [ -f .bench-data-sub.tar.xz ]; then
  mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx
fi
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench cuptitrace > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
F="-f .bench-data/cage11.mtx.gz,.bench-data/luxembourg_osm.mtx.gz,.bench-data/actor_movie_incidence.mtx.gz -suite circuit,box27"
timeout 200 build-cuda/bench/bench_convert $F -reps 3 -each > "$out/each.txt" 2>&1; echo "each exit $?"
grep -E "aijtuned|summary" "$out/each.txt"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$out/t" timeout 200 build-cuda/bench/bench_convert $F -reps 1 -each > "$out/traced.txt" 2>&1; echo "traced exit $?"
python3 bench/results/2026-11-27-first-product/first_product.py "$out"/t.*.txt circuit box27 cage11 luxembourg_osm actor_movie_incidence | tee "$out/first.txt"
gzip -9 "$out"/t.*.txt
stamp done
