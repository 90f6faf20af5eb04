#!/usr/bin/env bash
# Before the change: the library built for other GPU architectures than the H200's (CUDA_ARCH, the makefile's
# variable, then sm_90 by default), run on an H200.  run: bash before.sh OUTDIR (carry .petsc-cuda)
#   sm_100: no image of the kernels for this GPU (compute capability 9.0): what a program sees
#   sm_80:  the kernels' compute_80 PTX, compiled by the driver for the H200 at their first load: test_kernels
#           (the kernels and the GPU planner against the host) and the demo's solve, timed
set -uo pipefail
O=${1:?usage: before.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader; } | tee -a "$out/run.txt"
ex1="-dim 3 -n 32 -mat_type aijtuned -vec_type cuda -ksp_type cg -pc_type jacobi -ksp_converged_reason -ksp_monitor_true_residual -mat_view ::ascii_info"
for a in sm_100 sm_80; do
  make -j16 PETSC_DIR=/opt/petsc-cuda BUILD=build-$a CUDA_ARCH=$a all > "$out/make-$a.log" 2>&1; stamp "make CUDA_ARCH=$a: exit $?"
  timeout 120 build-$a/examples/tutorials/ex1 $ex1 > "$out/ex1-$a.txt" 2>&1; stamp "ex1 ($a): exit $?"
  tail -25 "$out/ex1-$a.txt"
done
(cd tests/planner && timeout 300 ../../build-sm_80/tests/kernels/test_kernels > "$out/kernels-sm_80.txt" 2>&1); stamp "test_kernels (sm_80): $(tail -1 "$out/kernels-sm_80.txt")"
grep -E "^FAIL" "$out/kernels-sm_80.txt" | head
timeout 120 build-sm_80/examples/tutorials/ex1 $ex1 > "$out/ex1-sm_80-again.txt" 2>&1; stamp "ex1 (sm_80, again: the driver's cache of compiled kernels): exit $?"
timeout 120 build-sm_80/examples/tutorials/ex1 ${ex1/aijtuned/aijcusparse} > "$out/ex1-aijcusparse.txt" 2>&1; stamp "ex1 (aijcusparse): exit $?"
grep -h "converged\|^ *[0-9]* KSP" "$out/ex1-sm_80-again.txt" | tail -2; grep -h "converged\|^ *[0-9]* KSP" "$out/ex1-aijcusparse.txt" | tail -2
ls -la ~/.nv/ComputeCache 2>/dev/null | head -3; du -sh ~/.nv/ComputeCache 2>/dev/null
gzip -9f "$out"/*.log "$out/kernels-sm_80.txt"
