#!/usr/bin/env bash
# One H100 (carry .petsc-cuda and .bench-data), after the second run: one pass and one copy back for the statistics and short counts of lengths and of degrees, a capped grid, one copy each way for the diagonals; bench_plan_gpu keeps freed memory in the pool as PETSc does.
#
#   test_kernels (the GPU planner's plans against the host's), bench_plan_gpu untimed-pass-traced and
#   traced (AIJT_PLAN_GPU_TRACE=1: each pass with a wait after it), ex1's AIJTunedPlan, the whole suite.
#   usage: bash bench/results/2026-11-21-h100-gpu-plan/run3.sh OUTDIR
set -uo pipefail
R=${1:?usage: run3.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench-plan-gpu > "$R/make.log" 2>&1; tail -2 "$R/make.log"
stamp "built"
(cd tests/planner && ../../build-cuda/tests/kernels/test_kernels) > "$R/kernels.txt" 2>&1; echo "test_kernels: $(tail -1 "$R/kernels.txt")"; grep -c "^PASS plan on the GPU" "$R/kernels.txt"; grep "^FAIL" "$R/kernels.txt" | head -20
stamp "test_kernels"
M=models/NVIDIA-H100-80GB-HBM3.model
timeout 200 build-cuda/bench/bench_plan_gpu -model $M -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"
AIJT_PLAN_GPU_TRACE=1 timeout 100 build-cuda/bench/bench_plan_gpu -model $M -reps 1 lap3d box27 rmat circuit > "$R/plan_gpu_trace.txt" 2>&1; grep -v "^#" "$R/plan_gpu_trace.txt"
stamp "bench_plan_gpu"
for g in 1 0; do
  build-cuda/examples/tutorials/ex1 -dim 3 -n 160 -mat_type aijtuned -vec_type cuda -ksp_type cg -pc_type jacobi -ksp_max_it 20 -mat_aijtuned_gpu_plan $g -log_view > "$R/ex1-gpu_plan$g.txt" 2>&1
  echo "gpu_plan $g:"; grep -E "^(AIJTuned)" "$R/ex1-gpu_plan$g.txt"
done
stamp "ex1"
python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep "^not ok" "$R/suite.txt" | head
stamp "suite"
