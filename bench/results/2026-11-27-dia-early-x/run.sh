#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz and the trees of TREES).  run.sh OUTDIR STEP...
#   TREES  "name:archive ..." (default "base:build/base-19dff11.tgz allw:build/allw-dia.tgz"): other trees, each a
#          `git archive` without bench/results, tests/data, .md and .out files, built beside this one ("new")
#   build   this tree (all, bench, the CUPTI tracer), and each of TREES (library, bench_spmv, bench_ksp)
#   held    bench_spmv -held (the device alone) with each tree in turn, twice: base, new, allw, base, new, allw
#   uncoded the same with -mat_aijtuned_dia_codes 0 (the path of values that do not code)
#   ksp     bench_ksp -n 160 (CG + Jacobi, 3-D Poisson, 4.1M rows) with base and new, twice
#   trace   bench_ksp -n 160 under the tracer (kernels only) with base and new: each kernel's time inside the solve
#   (SPMV_ARGS replaces the matrices; each step's outputs are packed into STEP.tgz)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (kernels, suite[=PAT], ...)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
TREES=${TREES:-"base:build/base-19dff11.tgz allw:build/allw-dia.tgz"}
names=; for t in $TREES; do names="$names ${t%%:*}"; done
bin() { [ "$1" = new ] && echo build-cuda/bench/$2 || echo /tmp/tree-$1/build-cuda/bench/$2; }
args=${SPMV_ARGS:-"-suite lap2d,lap3d,lap3d40,box27,lap3d:10 -f .bench-data/GT01R.mtx.gz"}" -reps 200 -plan_reps 1 -values_reps 0 -setup_reps 0"
spmv_rounds() {  # step, extra options, trees
  local step=$1 extra=$2 n=0; shift 2
  for r in 1 2; do for v in "$@"; do
    n=$((n + 1))
    timeout 240 $(bin $v bench_spmv) $args -held $extra -csv "$out/$step$n-$v.csv" > "$out/$step$n-$v.txt" 2>&1; echo "bench_spmv -held $extra ($v) exit $?" | tee -a "$out/run.txt"
    grep -E "held: " "$out/$step$n-$v.txt" | grep -E "aijtuned|aijcusparse" >> "$out/run.txt"
  done; done
  (cd "$out" && tar czf $step.tgz $step[0-9]* && rm -f $step[0-9]*)
}
for step in "$@"; do
  case "$step" in
  build)
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench cuptitrace > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    for t in $TREES; do
      d=/tmp/tree-${t%%:*}
      [ -x $d/build-cuda/bench/bench_ksp ] && continue  # kept while the machine stays warm
      rm -rf $d && mkdir -p $d && tar xzf ${t#*:} -C $d
      (cd $d && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib build-cuda/bench/bench_spmv build-cuda/bench/bench_ksp) > "$out/make-${t%%:*}.log" 2>&1 || { tail -30 "$out/make-${t%%:*}.log"; exit 1; }
    done
    rm -f "$out"/make*.log ;;
  held) spmv_rounds held "" base new $names ;;
  uncoded) spmv_rounds uncoded "-mat_aijtuned_dia_codes 0" base new ;;
  ksp)
    n=0
    for v in base new base new; do
      n=$((n + 1))
      timeout 120 $(bin $v bench_ksp) -n 160 > "$out/ksp$n-$v.txt" 2>&1; echo "bench_ksp -n 160 ($v) exit $?" | tee -a "$out/run.txt"
      grep -E "^(aijcusparse|sellcuda|aijtuned) " "$out/ksp$n-$v.txt" >> "$out/run.txt"
    done
    (cd "$out" && tar czf ksp.tgz ksp[0-9]* && rm -f ksp[0-9]*) ;;
  trace)
    for v in base new; do
      AIJT_TRACE_NO_API=1 CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$out/trace-$v" \
        timeout 120 $(bin $v bench_ksp) -n 160 > "$out/trace-$v.txt" 2>&1; echo "traced bench_ksp ($v) exit $?" | tee -a "$out/run.txt"
      python3 bench/results/2026-11-27-dia-early-x/kernel_times.py "$out"/trace-$v.*.txt | tee -a "$out/run.txt"
    done
    gzip -9 "$out"/trace-*.*.txt; (cd "$out" && tar czf trace.tgz trace-* && rm -f trace-*) ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
