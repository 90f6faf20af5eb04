#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: the library and ../2026-11-27-convert-cost/convcost built, then
# convcost at 1k, 100k, 1M and 4M rows (a tridiagonal aijcusparse matrix, its values on the GPU, converted in place
# to aijtuned; each part's us a repetition, median of 7 batches): what of the conversion grows with the matrix.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
cc=bench/results/2026-11-27-convert-cost
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
make -C $cc PETSC_DIR=/opt/petsc-cuda LIBDIR=$PWD/build-cuda/lib convcost >> "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
for nN in 1000:200 100000:40 1000000:8 4000000:4; do # -reps, not -N: PETSc options ignore case
  echo "== -n ${nN%:*} -reps ${nN#*:}" | tee -a "$out/convcost.txt"
  timeout 150 $cc/convcost -n ${nN%:*} -reps ${nN#*:} | tee -a "$out/convcost.txt"
  stamp "n ${nN%:*}"
done
timeout 100 $cc/convcost -n 1000000 -reps 8 -log_view > "$out/log-1M.txt" 2>&1; stamp "log_view exit $?"
grep -E "^(MatConvert|MatAssembly|MatCUSPARSCopyTo|AIJTuned|MatSetValues|MatMult )" "$out/log-1M.txt"
gzip -9 "$out/log-1M.txt"
