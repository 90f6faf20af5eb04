#!/usr/bin/env bash
# One GPU.  variants.sh OUTFILE: the statistics-and-diagonal-test launch (ncu gpu__time_duration, clocks
# left alone) of HEAD's planner (A) and of the tree's with DIAG_LOADS and the launch's blocks per SM set
# by sed (V LOADS x BLOCKS; 0: no bound; A: prefetch.patch taken back), one bench_plan_gpu plan of box27, lap3d and lap2d each.
set -uo pipefail
F=${1:?usage: variants.sh OUTFILE}
model=$PWD/models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
R=$PWD
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
build() { # name, then the sed program for kernels/plan_gpu.cu
  local d=/tmp/var-$1; rm -rf $d; mkdir -p $d
  tar --exclude=./build-cuda --exclude=./build --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $d
  [ "$1" = A ] && (cd $d && patch -s -R -p1 < bench/results/2026-11-26-diag-vec/prefetch.patch)
  [ -n "$2" ] && sed -i "$2" $d/kernels/plan_gpu.cu
  (cd $d && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j4 bench-plan-gpu > make.log 2>&1) || { echo "build $1 failed"; tail -5 $d/make.log; }
}
build A "" &
build V4x0 's/#define DIAG_LOADS 8/#define DIAG_LOADS 4/; s/__launch_bounds__(SETUP_BLOCK, 8)//' &
build V8x0 's/__launch_bounds__(SETUP_BLOCK, 8)//' &
build V6x6 's/#define DIAG_LOADS 8/#define DIAG_LOADS 6/; s/__launch_bounds__(SETUP_BLOCK, 8)/__launch_bounds__(SETUP_BLOCK, 6)/' &
build V8x8 "" &
wait
for v in A V4x0 V8x0 V6x6 V8x8; do
  for mat in box27 lap3d lap2d; do
    t=$(cd /tmp/var-$v && timeout 60 ncu --clock-control none --kernel-name regex:stats_diag --metrics gpu__time_duration.sum build-cuda/bench/bench_plan_gpu -model "$model" -reps 1 $mat 2>&1 | awk '/gpu__time_duration/ {printf "%s ", $3}')
    echo "$v $mat $t" | tee -a "$F"
  done
done
