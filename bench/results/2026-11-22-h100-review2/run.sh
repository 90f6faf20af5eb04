#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): the check after the review's mend (aijt_dev_fetch with one copy path,
# bench_spmv's planning median through median_of): test_kernels beside the whole suite, then bench_spmv
# on lap2d and circuit with -plan_reps 3.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-review2/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
gzip -9 "$R/suite.txt"; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"
timeout 90 build-cuda/bench/bench_spmv -reps 50 -plan_reps 3 -suite lap2d,circuit > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
grep -E "planning:|^(lap2d|circuit) " "$R/spmv.txt"; gzip -9 "$R/spmv.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
