#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the end-of-session check.
#   run.sh OUTDIR suite : the whole test suite on the GPU (OUTDIR/r.tgz)
#   run.sh OUTDIR spmv  : bench_spmv over the generated suite and the medium files, planning as the median
#                         of 3 assemblies (OUTDIR/r.tgz)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR suite|spmv}
what=${2:?usage: run.sh OUTDIR suite|spmv}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
if [ "$what" = suite ]; then
  timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
  tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
  gzip -9 "$R/suite.txt"
else
  timeout 400 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
  sed -n '/^==== results/,$p' "$R/spmv.txt" | tail -34; gzip -9 "$R/spmv.txt"
fi
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
