#!/usr/bin/env bash
# The GPU-machine benchmark session: CUDA PETSc from the carried archive, aijtuned and the benchmarks built
# against it, then bench_spmv (generated suite + .bench-data) and bench_ksp.  About 4 minutes on an H200
# (build 1-2, SpMV 2, KSP under 1, estimated); time limits on the two programs keep the worst case under 10.
#   carry: .petsc-cuda (install.tar.xz.*) and .bench-data.tar.xz (the medium Matrix Market files, packed by config/pack-bench-data.sh)
#   usage: bash bench/run_bench.sh OUTDIR
# Environment, for shorter runs:
#   SUITE=lap3d,rmat:18     generated matrices for bench_spmv (default: all; none: files only)
#   FILES=none | a.mtx.gz,b.mtx.gz   Matrix Market files (default: every file in .bench-data)
#   REPS=200 WARMUP=5       timed and untimed calls per method
#   SKIP_SPMV=1 SKIP_KSP=1  leave a program out
#   KSP_N=160               Poisson grid for CG; KSP_FILE=... or KSP_GEN=circuit for the GMRES problem
#   SPMV_OPTS=... KSP_OPTS=...  more options (for example -mat_aijtuned_formats csr,long)
#   TIME_SPMV=300 TIME_KSP=90   time limits in seconds (with the build, at most ~9 minutes in all)
set -uo pipefail
out=${1:?usage: bash bench/run_bench.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"

{
  commit_line
  echo "date   $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "env    SUITE=${SUITE:-} FILES=${FILES:-} REPS=${REPS:-} KSP_N=${KSP_N:-} KSP_FILE=${KSP_FILE:-} KSP_GEN=${KSP_GEN:-} SPMV_OPTS=${SPMV_OPTS:-} KSP_OPTS=${KSP_OPTS:-}"
} > "$out/run.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit --format=csv > "$out/gpu.csv" 2>&1 || true
nvidia-smi -q -d CLOCK,PERFORMANCE > "$out/gpu-clocks.txt" 2>&1 || true
cat "$out/gpu.csv"

bash config/build-petsc-cuda.sh unpack || exit 1
stamp "PETSc unpacked"
make BUILD=build-cuda lib bench > "$out/make.log" 2>&1 || { tail -40 "$out/make.log"; stamp "build FAILED"; exit 1; }
stamp "built"

if [ -z "${SKIP_SPMV:-}" ]; then
  args=(-reps "${REPS:-200}" -warmup "${WARMUP:-5}" -csv "$out/spmv.csv")
  [ -n "${SUITE:-}" ] && args+=(-suite "$SUITE")
  case "${FILES:-}" in
    none) ;;
    "") [ -d .bench-data ] && args+=(-dir .bench-data) ;;
    *) args+=(-f "$FILES") ;;
  esac
  # shellcheck disable=SC2086
  timeout "${TIME_SPMV:-300}" build-cuda/bench/bench_spmv "${args[@]}" ${SPMV_OPTS:-} 2>&1 | tee "$out/spmv.txt"
  stamp "bench_spmv exit ${PIPESTATUS[0]} (124: time limit)"
  if python3 bench/plot_speedups.py "$out/spmv.csv" "$out/speedups.png" > /dev/null 2>&1; then stamp "plotted speedups.png"
  else stamp "no plot here (matplotlib?): run bench/plot_speedups.py on spmv.csv elsewhere"; fi
fi

if [ -z "${SKIP_KSP:-}" ]; then
  args=(-n "${KSP_N:-160}")
  if [ -n "${KSP_GEN:-}" ]; then args+=(-gen "$KSP_GEN")
  elif [ -n "${KSP_FILE:-}" ]; then args+=(-f "$KSP_FILE")
  elif [ -f .bench-data/ckt11752_dc_1.mtx.gz ]; then args+=(-f .bench-data/ckt11752_dc_1.mtx.gz)
  else args+=(-gen circuit); fi
  # shellcheck disable=SC2086
  timeout "${TIME_KSP:-90}" build-cuda/bench/bench_ksp "${args[@]}" ${KSP_OPTS:-} 2>&1 | tee "$out/ksp.txt"
  stamp "bench_ksp exit ${PIPESTATUS[0]} (124: time limit)"
fi
ls -la "$out"
