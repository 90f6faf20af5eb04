#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR STEP...
#   coo      bench_coo (now with aijtuned's planning) on circuit, lap3d, lap3d40 and the medium files, 5 rounds
#   spmv     bench_spmv's planning of circuit and actor_movie_incidence, beside the upload and alone, 5 assemblies
#   trace    both, circuit and actor_movie_incidence, with the planner's passes timed (AIJT_PLAN_GPU_TRACE)
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (build, suite[=PAT], kernels, spmv)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
actor=.bench-data/actor_movie_incidence.mtx.gz
for step in "$@"; do
  case "$step" in
  coo)
    timeout 200 build-cuda/bench/bench_coo -suite circuit,lap3d,lap3d40 -dir .bench-data -reps 5 > "$out/coo.txt" 2>&1; echo "bench_coo exit $?" | tee -a "$out/run.txt"
    grep -E "planning|first values|geomean" "$out/coo.txt" | grep -v "lap3d:10" ;;
  coo-spmv)
    timeout 120 build-cuda/bench/bench_spmv -suite circuit -f $actor -reps 50 -warmup 5 -values_reps 1 -setup_reps 0 -plan_reps 5 > "$out/spmv-plan.txt" 2>&1; echo "bench_spmv exit $?" | tee -a "$out/run.txt"
    grep "planning" "$out/spmv-plan.txt" ;;
  trace)
    AIJT_PLAN_GPU_TRACE=1 timeout 100 build-cuda/bench/bench_coo -suite circuit -f $actor -reps 3 > "$out/trace-coo.txt" 2>&1; echo "bench_coo traced exit $?" | tee -a "$out/run.txt"
    AIJT_PLAN_GPU_TRACE=1 timeout 100 build-cuda/bench/bench_spmv -suite circuit -f $actor -reps 20 -warmup 2 -values_reps 1 -setup_reps 0 -plan_reps 3 > "$out/trace-spmv.txt" 2>&1; echo "bench_spmv traced exit $?" | tee -a "$out/run.txt"
    grep -E "all|planning" "$out/trace-coo.txt" "$out/trace-spmv.txt" | head -60 ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
