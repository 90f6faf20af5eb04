#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  run.sh OUTDIR: the planner's kernels timed by ncu (each alone,
# --clock-control none --cache-control none) in bench_plan_gpu on $PLAN, built with STAT_BLOCKS = 1024
# (main), 256 and 128 (NVFLAGS_EXTRA); then inside PETSc (bench_spmv) on $FILES with main's.  Everything in
# OUTDIR/stat-blocks.tar.gz.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
PLAN=${PLAN:-circuit rmat lp random box27}
FILES=${FILES:-actor_movie_incidence,memplus,GT01R}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/sb"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; echo "plan_gpu: $PLAN"; echo "files: $FILES"; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 all bench > "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
for n in 256 128; do
  make PETSC_DIR=/opt/petsc-cuda BUILD=build-s$n NVFLAGS_EXTRA=-DSTAT_BLOCKS=$n -j16 bench build-s$n/tests/kernels/test_kernels > "$out/make-$n.log" 2>&1 || { tail -20 "$out/make-$n.log"; exit 1; }
done
rm -f "$out"/make*.log; stamp built
K='regex:(stats|stats_diag|diagonals|long_hist|degree|keys|scatter|sectors|natural_sectors|slice_slots|sell_total|row_length|stream_starts|hot|pattern|iota|label|segment)_kernel|DeviceRadixSort|DeviceScan'
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --page raw -k $K"
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for b in build-cuda build-s256 build-s128; do
  timeout 120 $NCU $b/bench/bench_plan_gpu -model "$model" -reps 3 $PLAN > "$out/ncu-$b.csv" 2> "$out/ncu-$b.err"; stamp "ncu $b exit $?"
done
for b in build-cuda build-s256; do
  timeout 60 $b/bench/bench_plan_gpu -model "$model" -reps 9 $PLAN > "$out/plan-$b.txt" 2>&1; stamp "plan_gpu $b exit $?"
done
flist=$(echo "$FILES" | tr , '\n' | sed "s|.*|.bench-data/&.mtx.gz|" | paste -sd,)
timeout 150 $NCU build-cuda/bench/bench_spmv -suite none -f $flist -reps 50 -plan_reps 3 > "$out/ncu-spmv.csv" 2> "$out/ncu-spmv.err"; stamp "ncu spmv exit $?"
(cd tests/planner && timeout 120 ../../build-s256/tests/kernels/test_kernels > "$out/kernels-s256.txt" 2>&1) || true
stamp "test_kernels s256: $(tail -1 "$out/kernels-s256.txt")"
gzip -9 "$out"/*.csv "$out"/kernels-s256.txt
tar czf "$O/stat-blocks.tar.gz" -C "$O" sb && rm -rf "$O/sb"
