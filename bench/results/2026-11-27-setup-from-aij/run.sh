#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: build, then bench_spmv over the whole suite with
# -setup_reps 3 (an assembled seqaij converted in place to aijcusparse or aijtuned and its first product, waited
# for), besides the usual figures.  OUTDIR/spmv.txt.gz, spmv.csv.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
timeout 480 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -plan_reps 3 -setup_reps 3 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
grep -E "from an assembled aij|planning:" "$out/spmv.txt"
sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -40
gzip -9f "$out/spmv.txt"
stamp done
