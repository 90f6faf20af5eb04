#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data), as it ran: at c1e6329 with whole-price.patch applied to the tree:
#   bash bench/results/2026-11-25-whole-price/run.sh OUTDIR
# A: the tree with whole-price.patch taken back (main); B: the tree.  Both built side by side, then
# bench_model once each (20 matrices: per-plan measured times, PLUB), then bench_spmv (against
# aijcusparse) for A, B, A, B.  Everything in OUTDIR/whole-price.tar.gz (the device returns 8 files a call).  About 400 s.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
P=bench/results/2026-11-25-whole-price/whole-price.patch
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/wp"
R=$PWD; A=/tmp/wp-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
(cd $A && patch -s -R -p1 < "$R/$P") || exit 1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
model=models/$(echo "$gpu" | sed 's/[^A-Za-z0-9]/-/g').model
{ commit_line; echo "A: $P taken back"; echo "$gpu"; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
for v in a b; do
  dir=$R; [ $v = a ] && dir=$A
  (cd $dir && timeout 110 build-cuda/bench/bench_model -model "$model" -dir "$R/.bench-data" -csv "$out/model-$v.csv") > "$out/model-$v.txt" 2>&1
  stamp "bench_model $v: $(grep -m1 'PLUB (model' "$out/model-$v.txt")"
done
for round in 1 2; do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && timeout 90 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir "$R/.bench-data" -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "bench_spmv $v round $round"; grep -A2 "all: 20" "$out/spmv-$v$round.txt" | tail -2
  done
done
gzip -9 "$out"/*.txt 2>/dev/null; gunzip "$out/run.txt.gz" 2>/dev/null
tar czf "$O/whole-price.tar.gz" -C "$O" wp && rm -rf "$O/wp"
