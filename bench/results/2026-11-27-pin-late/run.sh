#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base-nopinlate.tgz).  run.sh OUTDIR STEP...
#   build   this tree (all, bench) and the tree before the change (build/base-nopinlate.tgz: `git archive` of 05ae5c9
#           with aijtunedpin.c of 40e760c and this bench_spmv.c: library and bench_spmv)
#   values  bench_spmv's new-values rounds (-values_reps 40: new host values and a product, MatScale twice and a
#           product, a TS step's shifts and scales and a product) on lap3d40 and the medium files: base, new, base, new
#   (SPMV_ARGS replaces the matrices; the step's outputs are packed into values.tgz)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], spmv, ...)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args=${SPMV_ARGS:-"-suite lap3d40 -dir .bench-data"}" -reps 50 -plan_reps 1 -values_reps 40 -setup_reps 0"
for step in "$@"; do
  case "$step" in
  build)
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    if [ ! -x /tmp/base-nopinlate/build-cuda/bench/bench_spmv ]; then  # kept while the machine stays warm
      rm -rf /tmp/base-nopinlate && mkdir -p /tmp/base-nopinlate && tar xzf build/base-nopinlate.tgz -C /tmp/base-nopinlate
      (cd /tmp/base-nopinlate && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib build-cuda/bench/bench_spmv) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    fi
    rm -f "$out"/make*.log ;;
  values)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_spmv; [ $v = base ] && b=/tmp/base-nopinlate/build-cuda/bench/bench_spmv
      timeout 240 $b $args -csv "$out/values$n-$v.csv" > "$out/values$n-$v.txt" 2>&1; echo "bench_spmv ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "^  new values" "$out/values$n-$v.txt" >> "$out/run.txt"
    done
    (cd "$out" && tar czf values.tgz values[0-9]* && rm -f values[0-9]*) ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
