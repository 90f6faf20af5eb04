#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  diag.sh OUTDIR: built, the beside tests, then where the planner
# beside the products loses time: bench_convert one way at a time (aijcusparse and that way), with -log_view, on box27
# and cage11, and the GPU planner's passes traced (AIJT_PLAN_GPU_TRACE) on cage11.
set -uo pipefail
O=${1:?usage: diag.sh OUTDIR}
bash bench/results/2026-11-27-plan-beside-products/run.sh "$O" build
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" suite=beside
source bench/session.sh "$O"
for W in 1 2; do
  timeout 120 build-cuda/bench/bench_convert -suite box27 -f .bench-data/cage11.mtx.gz -reps 5 -way $W -log_view ascii:"$out/log$W.txt" > "$out/convert$W.txt" 2>&1
  grep -E "aijtuned|aijcusparse " "$out/convert$W.txt"
  grep -E "^(MatMult|AIJTuned[A-Za-z]*|MatConvert) " "$out/log$W.txt"
  AIJT_PLAN_GPU_TRACE=1 timeout 60 build-cuda/bench/bench_convert -suite none -f .bench-data/cage11.mtx.gz -reps 2 -way $W > "$out/trace$W.txt" 2>&1
  grep -c "aijt_dev_plan_model: all" "$out/trace$W.txt"; grep "aijt_dev_plan_model: all" "$out/trace$W.txt" | tail -3
done
