#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR STEP...
#   coo[=ARGS]   bench_coo (aijcusparse, aijtuned with its planner in the background, aijtuned with the first product
#                waiting for the plan: -mat_aijtuned_plan_async 0; alternating in one process), twice; ARGS replace
#                the default matrices and rounds
#   info         bench_coo on circuit, actor_movie_incidence and bcsstk16 with -info: how many products ran as the
#                base's while it planned
#   test         tests/mat/planasync with -info, its output unfiltered
#   other steps: bench/results/2026-11-25-h100-verify/run.sh's (build, suite[=PAT], kernels, spmv)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
for step in "$@"; do
  case "$step" in
  coo|coo=*)
    args=${step#coo}; args=${args#=}; args=${args:--suite lap3d,box27,circuit,lp,lap3d40 -dir .bench-data -reps 3 -products 20}
    echo "bench_coo $args" | tee -a "$out/run.txt"
    for n in 1 2; do
      timeout 200 build-cuda/bench/bench_coo $args > "$out/coo$n.txt" 2>&1; echo "bench_coo $n exit $?" | tee -a "$out/run.txt"
      grep "geomean" "$out/coo$n.txt" | tee -a "$out/run.txt"
    done ;;
  info)
    timeout 90 build-cuda/bench/bench_coo -suite circuit -f .bench-data/actor_movie_incidence.mtx.gz,.bench-data/bcsstk16.mtx.gz -reps 1 -products 20 -info :mat 2>&1 | grep -E "background|products against|   first" > "$out/info.txt"; cat "$out/info.txt" ;;
  test)
    (cd tests/mat && ../../build-cuda/tests/mat/planasync -info :mat 2>&1 | grep -vE "PetscDevice|PetscLog|Petsc[A-Z][a-z]*Initialize|Regist" | tail -40; echo "exit ${PIPESTATUS[0]}") ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O" "$step" ;;
  esac
  stamp "$step"
done
