#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data with actor_movie_incidence.mtx.gz, build/ab-base.tgz packed from the base).
#   run.sh OUTDIR
# 1. A/B of planning alone, base against this tree, two rounds alternating (bench/ab.sh), on circuit, box27, lp
#    and actor_movie_incidence;
# 2. test_kernels on this tree (the GPU planner's plans against the host's, with the sort ahead);
# 3. this tree's planning traced (CUPTI: kernels and runtime calls) on circuit and actor_movie_incidence, cut
#    into plannings by plan_timeline.py.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
O=$(cd "$O" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0"
bash bench/ab.sh "$O/ab" 2 '$BENCH/bench_spmv -suite circuit,box27,lp -f .bench-data/actor_movie_incidence.mtx.gz -plan_reps 9 -values_reps 0 -setup_reps 0 -reps 50 -copy_mib 64'
cd "$O/ab" && tar xzf raw.tgz && for f in base-1 new-1 base-2 new-2; do echo "== $f"; grep -h "before the values' upload (-mat" $f.txt; done; rm -f base-*.txt new-*.txt; cd - > /dev/null
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda tests cuptitrace > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
rm -f "$O/make.log"
(cd tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$O/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$O/kernels.txt")"
grep -E "^FAIL" "$O/kernels.txt" | head -20; gzip -9f "$O/kernels.txt"
R=$O/t; mkdir -p "$R"
args="-suite circuit -f .bench-data/actor_movie_incidence.mtx.gz -reps 50 -warmup 2 -plan_reps 5 -values_reps 0 -setup_reps 0"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 150 build-cuda/bench/bench_spmv $args > "$R/traced.txt" 2>&1; echo "traced exit $?"
grep -E "planning" "$R/traced.txt"
python3 bench/results/2026-11-27-plan-timeline/plan_timeline.py -v "$R"/t.*.txt > "$O/timeline.txt"
grep -E "^  #" "$O/timeline.txt"
gzip -9 "$R"/t.*.txt; (cd "$O" && tar czf t.tgz t && rm -rf t)
