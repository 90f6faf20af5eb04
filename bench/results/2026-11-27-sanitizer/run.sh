#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: the kernels and the GPU planner under compute-sanitizer, on the
# tree as it is: memcheck and racecheck on test_kernels' products of a few matrices (each with every rule set:
# the builds, refills and DIA codes), on bench_plan_gpu's planner passes (the count sort, the statistics, the
# sectors) and on PETSc-level tests (spmv's device shapes, COO assembly from device values, new values through
# steps).  Each command under its own timeout; a summary line per command in run.txt; logs in OUTDIR/san.tgz.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/san"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
B=$(pwd)/build-cuda
CS="compute-sanitizer --print-limit 20 --error-exitcode 3"
# name, seconds, working folder, command...
san() {
  local name=$1 secs=$2 dir=$3; shift 3
  (cd "$dir" && timeout "$secs" "$@") > "$out/$name.txt" 2>&1; local rc=$?
  stamp "$name: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, .* failed' "$out/$name.txt" | tail -2 | tr '\n' ' ')"
}
for m in stencil_2d stencil_3d_holes blocks_3 power_law long_row lp_like many_strips empty_rows; do
  san "memcheck-kernels-$m" 60 tests/planner $CS --tool memcheck "$B/tests/kernels/test_kernels" "$m"
done
san racecheck-kernels-stencil_2d 60 tests/planner $CS --tool racecheck "$B/tests/kernels/test_kernels" stencil_2d
san racecheck-kernels-blocks_3 60 tests/planner $CS --tool racecheck "$B/tests/kernels/test_kernels" blocks_3
san memcheck-plan 90 . $CS --tool memcheck --leak-check full "$B/bench/bench_plan_gpu" -model "$model" -reps 1 lap3d:30 box27:40 circuit:30000 rmat:16 random:20000 lp:256
san racecheck-plan 90 . $CS --tool racecheck "$B/bench/bench_plan_gpu" -model "$model" -reps 1 lap3d:20 box27:20 circuit:20000 rmat:14
for s in laplace3d power_law blocks3 one_long_row; do
  san "memcheck-spmv-$s" 45 tests/mat $CS --tool memcheck "$B/tests/mat/spmv" -convert_from aijcusparse -vec_type cuda -shape $s
done
san memcheck-coo 45 tests/mat $CS --tool memcheck "$B/tests/mat/coo"
san memcheck-steps 60 tests/mat $CS --tool memcheck "$B/tests/mat/steps" -steps 3
tar czf "$O/san.tgz" -C "$O" san && rm -rf "$O/san"
