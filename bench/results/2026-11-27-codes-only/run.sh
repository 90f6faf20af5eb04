#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base-d695c4f.tgz).  run.sh OUTDIR STEP...
#   build   this tree, and the tree before the change (build/base-d695c4f.tgz: `git archive` of d695c4f without
#           bench/results, tests/data, .md and .out files), each against the CUDA PETSc
#   probe   probe.cu (this folder) against each tree's kernel objects: base, new, base, new (second/ ran a third
#           form, every width by tiles, through an experiment's switch AIJT_CODES_TILES_FROM=1, no longer there)
#   coo     bench_coo -suite lap3d,box27 (and the 11 medium files, -dir) with each tree's library: base, new, base, new
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], ...)
# (variants.patch and variants-probe.cu: the experiment's knobs, run as variants-a/ and variants-b/ with an earlier
# form of this script.)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
here=$(cd "$(dirname "$0")" && pwd)
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args="-suite lap3d,box27 -dir .bench-data -reps 3"
for step in "$@"; do
  case "$step" in
  build)
    rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/base-d695c4f.tgz -C /tmp/base
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    (cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all build-cuda/bench/bench_coo) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    for v in base new; do
      t=.; [ $v = base ] && t=/tmp/base
      nvcc -std=c++17 -arch=sm_90 -O3 -I$t/kernels -I$t/src/mat/impls/tuned/plan "$here/probe.cu" $t/build-cuda/obj/kernels/*.o $t/build-cuda/obj/src/mat/impls/tuned/plan/*.o -o /tmp/probe-$v || exit 1
    done
    rm -f "$out"/make*.log ;;
  probe)
    n=0
    for v in base new base new; do
      n=$((n + 1)); echo "== probe $n: $v" | tee -a "$out/probe.txt"
      timeout 200 /tmp/probe-$v | tee -a "$out/probe.txt"
    done ;;
  coo)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_coo; [ $v = base ] && b=/tmp/base/build-cuda/bench/bench_coo
      timeout 150 $b $args > "$out/coo$n-$v.txt" 2>&1; echo "bench_coo ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "^\[(lap3d|box27)\].*new values|new values and a product: geomean" "$out/coo$n-$v.txt" | tee -a "$out/run.txt"
    done ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
