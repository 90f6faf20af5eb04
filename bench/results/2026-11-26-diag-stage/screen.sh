#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  screen.sh OUTFILE PATCH MATRIX...: bench_plan_gpu built from the tree (B)
# and from the tree without PATCH (A), side by side; the statistics-and-diagonal-test launch of one plan
# of each matrix timed by ncu (gpu__time_duration, clocks left alone), A then B; and each plan's "same"
# column (the GPU's plan against the host's).
set -uo pipefail
F=${1:?usage: screen.sh OUTFILE PATCH MATRIX...}; PATCH=${2:?}; shift 2
R=$PWD
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
model=$R/models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
build() {
  local d=/tmp/scr-$1; rm -rf $d; mkdir -p $d
  tar --exclude=./build-cuda --exclude=./build --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $d
  [ "$1" = a ] && (cd $d && patch -s -R -p1 < "$R/$PATCH")
  (cd $d && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 bench-plan-gpu > make.log 2>&1) || { echo "build $1 failed"; tail -5 $d/make.log; }
}
build a & build b & wait
for v in a b; do
  for mat in "$@"; do
    t=$(cd /tmp/scr-$v && timeout 60 ncu --clock-control none --kernel-name regex:stats_diag --metrics gpu__time_duration.sum build-cuda/bench/bench_plan_gpu -model "$model" -reps 1 $mat 2>&1 | awk '/gpu__time_duration/ {printf "%s ", $3}')
    same=$(cd /tmp/scr-$v && timeout 60 build-cuda/bench/bench_plan_gpu -model "$model" -reps 3 $mat 2>&1 | awk -v m=$mat '$1 == m {print $6, "kept_ms", $12, "plan", $NF}')
    echo "$v $mat ncu_us $t| $same" | tee -a "$F"
  done
done
