#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base-3a31482.tgz).  run.sh OUTDIR STEP...
#   build   this tree, and the tree before the change (build/base-3a31482.tgz: `git archive` of 3a31482 without
#           bench/results, tests/data, .md and .out files), each against the CUDA PETSc
#   probe   probe.cu (this folder) against this tree's kernel objects
#   coo     bench_coo on the DIA plans (lap3d, box27, lap3d40) with the base tree's library, this tree's, then both
#           again (the types alternate within each)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], ...)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
here=$(dirname "$0")
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args="-suite lap3d,box27,lap3d40 -dir .bench-data -reps 3"
for step in "$@"; do
  case "$step" in
  build)
    rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/base-3a31482.tgz -C /tmp/base
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    (cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all build-cuda/bench/bench_coo) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    rm -f "$out"/make*.log ;;
  probe)
    nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan "$here/probe.cu" build-cuda/obj/kernels/*.o build-cuda/obj/src/mat/impls/tuned/plan/*.o -o /tmp/probe && timeout 120 /tmp/probe | tee "$out/probe.txt" ;;
  coo)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_coo; [ $v = base ] && b=/tmp/base/build-cuda/bench/bench_coo
      timeout 150 $b $args > "$out/coo$n-$v.txt" 2>&1; echo "bench_coo ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "new values|geomean" "$out/coo$n-$v.txt" | tee -a "$out/run.txt"
    done ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
