#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data): STREAM built on the GPU, tuning of its lanes, bench_model with
# STREAM variants.
#   run.sh OUTDIR check : build; add the STREAM kernels to this GPU's model if it lacks them (aijt_calibrate
#                         -add-stream; the new model in OUTDIR and in models/ here); test_kernels; bench_spmv
#                         (planning cost and speedups); bench_model on the generated suite and the medium files
#   run.sh OUTDIR restream : check, with this GPU's STREAM kernels removed from its model first (measured again)
#   run.sh OUTDIR suite : build; the whole test suite on the GPU
# SKIP_MODEL=1 leaves bench_model out of check, SKIP_KERNELS=1 test_kernels.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR check|restream|suite}
what=${2:?usage: run.sh OUTDIR check|restream|suite}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
commit_line | tee -a "$out/run.txt"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp "built"
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
if [ "$what" = restream ]; then # the STREAM kernels measured again (their shared memory skewed): the old ones out first
  awk '/^kernel stream /{skip=1} !skip{print} skip&&/^end$/{skip=0}' "$model" > "$out/without-stream.model" && cp "$out/without-stream.model" "$model"
  what=check
fi
if [ "$what" = check ]; then
  if ! grep -q "^kernel stream" "$model"; then
    build-cuda/tools/aijt_calibrate -add-stream "$model" > "$out/calibrate.txt" 2>&1; echo "calibrate exit $?" | tee -a "$out/run.txt"
    tail -3 "$out/calibrate.txt"
    stamp "calibrated"
  fi
  cp "$model" "$out/"
  [ -z "${SKIP_KERNELS:-}" ] && (cd tests/planner && timeout 220 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$out/kernels.txt")" | tee -a "$out/run.txt"
  grep -E "^FAIL|GPU build:" "$out/kernels.txt" | head -20
  stamp "kernels"
  timeout 150 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
  grep "planning:" "$out/spmv.txt" | head -30
  sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
  stamp "bench_spmv"
  [ -n "${SKIP_MODEL:-}" ] && { gzip -9 "$out/kernels.txt" "$out/spmv.txt"; stamp "done"; exit 0; }
  timeout 170 build-cuda/bench/bench_model -model "$model" -dir .bench-data -csv "$out/model.csv" > "$out/model.txt" 2>&1; echo "bench_model exit $?"
  grep -E "PLUB|\] model " "$out/model.txt" | grep -v "^\[.*\] model  " | head -30
  sed -n "/^summary over/,\$p" "$out/model.txt"
  gzip -9 "$out/kernels.txt" "$out/spmv.txt" "$out/model.txt"
else
  timeout 300 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$out/suite.txt" 2>&1
  tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite.txt" | head -40
  gzip -9 "$out/suite.txt"
fi
stamp "done"
