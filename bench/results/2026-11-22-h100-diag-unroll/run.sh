#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the diagonal test's kernel with 1, 4 and 8 entries loaded per
# step (AIJT_DIAG_UNROLL, an experiment's switch): kernel times from a CUPTI trace of bench_plan_gpu, planning
# in bench_plan_gpu and inside PETSc (bench_spmv), and test_kernels.  Everything lands in OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-diag-unroll/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
T=$PWD/build-cuda/tools/libcuptitrace.so
P="build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model"
for u in 1 4 8; do
  AIJT_DIAG_UNROLL=$u CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/k$u" AIJT_TRACE_NO_API=1 timeout 100 $P -reps 3 lap2d lap3d box27 circuit > "$R/k$u.txt" 2>&1
  zcat -f "$R"/k$u.*.txt | awk -v u=$u '$1=="K" && /diagonals_kernel/ {printf "unroll %s diagonals_kernel %.1f us\n", u, ($3-$2)/1e3}' | tee "$R/diag$u.txt" | tr '\n' ';'; echo
  gzip -9 "$R"/k$u.*.txt
done
stamp "traced"
for u in 1 4 8; do AIJT_DIAG_UNROLL=$u timeout 120 $P -reps 9 > "$R/plan_gpu$u.txt" 2>&1; echo "unroll $u"; cat "$R/plan_gpu$u.txt"; done; stamp "plan_gpu"
for u in 1 4; do AIJT_DIAG_UNROLL=$u timeout 100 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite lap2d,lap3d,box27,circuit,rmat -f .bench-data/actor_movie_incidence.mtx.gz -csv "$R/spmv$u.csv" > "$R/spmv$u.txt" 2>&1; echo "unroll $u"; grep -A9 "^matrix  " "$R/spmv$u.txt" | tail -8; done; stamp "spmv"
(cd tests/planner && timeout 250 ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"; rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
