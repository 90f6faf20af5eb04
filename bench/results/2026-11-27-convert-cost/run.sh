#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: built (with the CUPTI tracer and convcost), then
#   convcost.txt  the in-place conversion's parts (convcost.c)
#   each.txt      bench_convert -each on rmat, circuit, box27 and lap3d (3 rounds)
#   log.txt       bench_convert on rmat with -log_view (1 round)
#   t.*.txt       bench_convert -each, 1 round, under tools/cuptitrace.c, and first_product.py's reading (first.txt)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
here=bench/results/2026-11-27-convert-cost
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench cuptitrace > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
make -C $here PETSC_DIR=/opt/petsc-cuda LIBDIR=$PWD/build-cuda/lib convcost >> "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
timeout 120 $here/convcost | tee "$out/convcost.txt"
S="-suite rmat,circuit,box27,lap3d"
timeout 200 build-cuda/bench/bench_convert $S -reps 3 -each > "$out/each.txt" 2>&1; echo "each exit $?"
grep -E "aijtuned|each|summary" "$out/each.txt"
timeout 100 build-cuda/bench/bench_convert -suite rmat -reps 1 -log_view > "$out/log.txt" 2>&1; echo "log exit $?"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$out/t" timeout 200 build-cuda/bench/bench_convert $S -reps 1 -each > "$out/traced.txt" 2>&1; echo "traced exit $?"
python3 bench/results/2026-11-27-first-product/first_product.py "$out"/t.*.txt rmat circuit box27 lap3d | tee "$out/first.txt"
gzip -9 "$out"/t.*.txt "$out/log.txt"
stamp done
