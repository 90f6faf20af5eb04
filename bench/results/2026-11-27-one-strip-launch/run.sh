#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz, build/base-a18df06.tgz).  run.sh OUTDIR STEP...
#   build   this tree, and the tree before the change (build/base-a18df06.tgz: `git archive` of a18df06 without
#           bench/results, tests/data, .md and .out files), each against the CUDA PETSc
#   held    bench_spmv -held (the device alone, and each method's host time per call) on the medium files and
#           lap3d40, lap3d, box27, random, circuit, with each tree's build: base, new, base, new
#   paced   the same without -held (calls paced by the host, as bench_spmv's figures usually are)
#   ksp     bench_ksp -n 160 (CG + Jacobi on 3-D Poisson, 4.1M rows) with each tree's build: base, new, base, new
#   (SPMV_ARGS replaces the matrices; each step's outputs are packed into STEP.tgz)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], ...)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
args=${SPMV_ARGS:-"-suite lap3d40,lap3d,box27,random,circuit -dir .bench-data"}" -reps 200 -plan_reps 1 -values_reps 0 -setup_reps 0"
for step in "$@"; do
  case "$step" in
  build)
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    if [ ! -x /tmp/base/build-cuda/bench/bench_ksp ]; then  # kept while the machine stays warm
      rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/base-a18df06.tgz -C /tmp/base
      (cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all build-cuda/bench/bench_spmv build-cuda/bench/bench_ksp) > "$out/make-base.log" 2>&1 || { tail -30 "$out/make-base.log"; exit 1; }
    fi
    rm -f "$out"/make*.log ;;
  held|paced)
    extra=; [ "$step" = held ] && extra=-held
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_spmv; [ $v = base ] && b=/tmp/base/build-cuda/bench/bench_spmv
      timeout 240 $b $args $extra -csv "$out/$step$n-$v.csv" > "$out/$step$n-$v.txt" 2>&1; echo "bench_spmv $extra ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "held: " "$out/$step$n-$v.txt" | grep -E "aijtuned|sellcuda" | head -60 >> "$out/run.txt"
    done
    (cd "$out" && tar czf $step.tgz $step[0-9]-* && rm -f $step[0-9]-*) ;;  # one file: the call returns a few
  ksp)
    n=0
    for v in base new base new; do
      n=$((n + 1)); b=build-cuda/bench/bench_ksp; [ $v = base ] && b=/tmp/base/build-cuda/bench/bench_ksp
      timeout 120 $b -n 160 > "$out/ksp$n-$v.txt" 2>&1; echo "bench_ksp -n 160 ($v) exit $?" | tee -a "$out/run.txt"
      grep -iE "aijtuned|aijcusparse|sellcuda" "$out/ksp$n-$v.txt" | tail -6 >> "$out/run.txt"
    done
    (cd "$out" && tar czf ksp.tgz ksp[0-9]-* && rm -f ksp[0-9]-*) ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
