#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base-3ca32f5.tgz).  run.sh OUTDIR STEP...
#   build   this tree (all, bench) and the tree before the change (build/base-3ca32f5.tgz: `git archive` of 3ca32f5 without
#           bench/results, tests/data, .md and .out files: library and bench_spmv)
#   values  bench_spmv's new-values rounds (-values_reps 40: new host values and a product, MatScale twice and a
#           product, a TS step's shifts and scales and a product) on lap3d40 and lap3d:10 (coded DIA) and wing
#           (STREAM, a control): base, new, base, new
#   (SPMV_ARGS replaces the matrices; the step's outputs are packed into values.tgz)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], spmv, ...)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args=${SPMV_ARGS:-"-suite lap3d40,lap3d:10 -f .bench-data/wing.mtx.gz"}" -reps 50 -plan_reps 1 -values_reps 40 -setup_reps 0"
for step in "$@"; do
  case "$step" in
  build)
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    if [ ! -x /tmp/base-3ca32f5/build-cuda/bench/bench_spmv ]; then  # kept while the machine stays warm
      rm -rf /tmp/base-3ca32f5 && mkdir -p /tmp/base-3ca32f5 && tar xzf build/base-3ca32f5.tgz -C /tmp/base-3ca32f5
      (cd /tmp/base-3ca32f5 && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib build-cuda/bench/bench_spmv) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    fi
    rm -f "$out"/make*.log ;;
  values)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_spmv; [ $v = base ] && b=/tmp/base-3ca32f5/build-cuda/bench/bench_spmv
      timeout 240 $b $args -csv "$out/values$n-$v.csv" > "$out/values$n-$v.txt" 2>&1; echo "bench_spmv ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "^  new values" "$out/values$n-$v.txt" >> "$out/run.txt"
    done
    (cd "$out" && tar czf values.tgz values[0-9]* && rm -f values[0-9]*) ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
