#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data): the STREAM layout on the device.
#   run.sh OUTDIR bench : build; add the STREAM kernels to this GPU's model (aijt_calibrate -add-stream, the
#                         new model in OUTDIR and in models/ here); test_kernels; bench_spmv over the generated
#                         suite and the medium files
#   run.sh OUTDIR suite : build; the whole test suite on the GPU; bench_ksp (CG + Jacobi, 4.1M-row Poisson)
#   run.sh OUTDIR final : build; the whole test suite on the GPU; bench_spmv (the shipped model as it is)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR bench|suite}
what=${2:?usage: run.sh OUTDIR bench|suite}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
commit_line | tee -a "$out/run.txt"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp "built"
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
if [ "$what" = bench ]; then
  if ! grep -q "^kernel stream" "$model"; then
    build-cuda/tools/aijt_calibrate -add-stream "$model" > "$out/calibrate.txt" 2>&1; echo "calibrate exit $?" | tee -a "$out/run.txt"
    tail -3 "$out/calibrate.txt"
  fi
  cp "$model" "$out/"
  (cd tests/planner && timeout 200 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$out/kernels.txt")" | tee -a "$out/run.txt"
  grep -i "fail" "$out/kernels.txt" | head -20
  stamp "kernels"
  timeout 280 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
  grep "planning:" "$out/spmv.txt" | head -30
  sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
  gzip -9 "$out/kernels.txt" "$out/spmv.txt"
elif [ "$what" = final ]; then
  timeout 300 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$out/suite.txt" 2>&1
  tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite.txt" | head -40
  stamp "suite"
  timeout 220 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
  sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
  gzip -9 "$out/suite.txt" "$out/spmv.txt"
else
  timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$out/suite.txt" 2>&1
  tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite.txt" | head -60
  timeout 120 build-cuda/bench/bench_ksp -n 160 > "$out/ksp.txt" 2>&1; echo "bench_ksp exit $?"
  tail -20 "$out/ksp.txt"
  gzip -9 "$out/suite.txt"
fi
stamp "done"
