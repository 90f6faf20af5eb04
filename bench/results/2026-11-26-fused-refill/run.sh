#!/usr/bin/env bash
# The fused refill against the tree before it (52d8b54), one GPU: the kernels' test, then bench_spmv's new values
# (assembly and MatScale twice, each with the first product) on plans of several strips, each tree in its own
# process, alternating, two rounds; then bench_spmv over the whole suite with the new tree.
# Carry .petsc-cuda and .bench-data.tar.xz.   bash bench/results/2026-11-26-fused-refill/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels
source bench/session.sh "$O"
old=/tmp/aijtuned-52d8b54 # this tree with 52d8b54's kernels/build.cu (the device copy's git may not hold 52d8b54)
mkdir -p $old && tar --exclude=./build-cuda --exclude=./build --exclude=./.git --exclude=./.bench-data --exclude=./.petsc-cuda --exclude=./bench/results -cf - . | tar -C $old -xf - && cp bench/results/2026-11-26-fused-refill/build-before.cu $old/kernels/build.cu || exit 1
(cd $old && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > "$out/old-make.log" 2>&1) || { tail -20 "$out/old-make.log"; exit 1; }
stamp "52d8b54 built"
files=.bench-data/ckt11752_dc_1.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz,.bench-data/memplus.mtx.gz
for r in 1 2; do
  for t in old new; do
    bin=build-cuda/bench/bench_spmv; [ $t = old ] && bin=$old/build-cuda/bench/bench_spmv
    timeout 90 $bin -suite circuit -f $files -reps 100 -warmup 5 > "$out/ab-$t-$r.txt" 2>&1; echo "$t round $r exit $?"
    grep -E "aijtuned +new values: (assembly|MatScale)" "$out/ab-$t-$r.txt" | sed -e 's/ (median.*calls/ ... /'
  done
done
stamp "A/B"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" spmv
