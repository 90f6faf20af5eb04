#!/usr/bin/env bash
# BCSR on an H200 (its model's BCSR kernels) (carry .petsc-cuda, .bench-data.tar.xz):  run4.sh OUTDIR
# build; test_kernels on the block matrices; the suite's block tests; this GPU's model gets its BCSR kernels
# (aijt_calibrate -add-bcsr, timed); bench_spmv on elast (block size 3) at two sizes, with BCSR allowed and
# without it (the formats before BCSR), each in its own process.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
model=models/$(echo "$gpu" | sed 's/[^A-Za-z0-9]/-/g').model
{ commit_line; echo "$gpu"; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
stamp build
(cd tests/planner && timeout 200 ../../build-cuda/tests/kernels/test_kernels blocks > "$out/kernels-blocks.txt" 2>&1); echo "test_kernels blocks: $(tail -1 "$out/kernels-blocks.txt")" | tee -a "$out/run.txt"
grep -E "^FAIL|^  " "$out/kernels-blocks.txt" | head -20
stamp kernels
cp "$model" "$out/before.model"
timeout 240 build-cuda/tools/aijt_calibrate -add-bcsr "$model" > "$out/calibrate.txt" 2>&1; echo "calibrate exit $?" | tee -a "$out/run.txt"
tail -12 "$out/calibrate.txt"; cp "$model" "$out/"
stamp calibrate
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 blocks > "$out/suite-blocks.txt" 2>&1
tail -1 "$out/suite-blocks.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite-blocks.txt" | head -30
stamp suite-blocks
for f in bcsr nobcsr; do
  opt=; [ $f = nobcsr ] && opt="-mat_aijtuned_formats csr,long,ell,sell,coo,dia,panel,stream"
  timeout 200 build-cuda/bench/bench_spmv -suite elast:40,elast -reps 100 -warmup 5 -values_reps 3 $opt -csv "$out/spmv-$f.csv" > "$out/spmv-$f.txt" 2>&1; echo "bench_spmv $f exit $?"
  grep -E "planning:|strips|bcsr|ell" "$out/spmv-$f.txt" | head -12
  sed -n '/^==== results/,$p' "$out/spmv-$f.txt" | head -20
  stamp "spmv $f"
done
