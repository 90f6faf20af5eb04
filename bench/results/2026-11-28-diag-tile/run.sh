#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz: git archive of 02f10a3).  run.sh OUTDIR:
# A/B in alternating processes, 2 rounds (bench/ab.sh): bench_spmv's planning alone and beside the upload on box27,
# lap3d, lap2d, circuit, random and actor_movie_incidence, then the GPU planner's passes traced
# (AIJT_PLAN_GPU_TRACE=1: the stream waited for after each) on box27 and lap3d; then test_kernels of this tree.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
bash bench/ab.sh "$O" 2 '$BENCH/bench_spmv -suite box27,lap3d,lap2d,circuit,random -f .bench-data/actor_movie_incidence.mtx.gz -plan_reps 9 -values_reps 0 -setup_reps 0 -reps 50 -copy_mib 64; AIJT_PLAN_GPU_TRACE=1 $BENCH/bench_spmv -suite box27,lap3d -plan_reps 3 -values_reps 0 -setup_reps 0 -reps 20 -copy_mib 64 2>&1 | grep -E "aijt_dev_plan_model: (lengths|all)|aijtuned +planning"'
source bench/session.sh "$O"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 build-cuda/tests/kernels/test_kernels > "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
rm -f "$out/make.log"
(cd tests/planner && timeout 330 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$out/kernels.txt")" | tee -a "$out/run.txt"
grep -E "^FAIL" "$out/kernels.txt" | head -20; grep -E "row_sort_edges" "$out/kernels.txt" | head -3
gzip -9f "$out/kernels.txt"
stamp kernels
cd "$out" && tar xzf raw.tgz && for f in base-*.txt new-*.txt; do echo "== $f"; grep -E "planning|aijt_dev_plan_model" "$f"; done > summary.txt; rm -f base-*.txt new-*.txt
