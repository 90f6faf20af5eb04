#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base.tgz).  run.sh OUTDIR STEP...
#   build   this tree, and the tree before the change (build/base.tgz: `git archive` of 25fa337 without bench/results)
#           with this tree's makefile, bench/bench_coo.c and bench/common/benchmat.[ch] (the bench's, not the library), each
#           against the CUDA PETSc
#   coo     bench_coo with the base tree's library, this tree's, then both again (the types alternate within each)
#   suite[=PAT]  the tests (this tree), as bench/results/2026-11-25-h100-verify/run.sh runs them
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args="-suite lap3d,box27,circuit,lp,lap3d40 -dir .bench-data -reps 3"
for step in "$@"; do
  case "$step" in
  build)
    rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/base.tgz -C /tmp/base && cp makefile /tmp/base/ && cp bench/bench_coo.c /tmp/base/bench/ && cp bench/common/benchmat.[ch] /tmp/base/bench/common/
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    (cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all build-cuda/bench/bench_coo) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    rm -f "$out"/make*.log ;;
  coo)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_coo; [ $v = base ] && b=/tmp/base/build-cuda/bench/bench_coo
      timeout 150 $b $args > "$out/coo$n-$v.txt" 2>&1; echo "bench_coo ($v) exit $?" | tee -a "$out/run.txt"
      grep "geomean" "$out/coo$n-$v.txt" | tee -a "$out/run.txt"
    done ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
