#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data): the end-of-session check.
#   run.sh OUTDIR suite : the kernel test and the whole test suite on the GPU (OUTDIR/r.tgz)
#   run.sh OUTDIR bench : bench_spmv over the generated suite and the medium files, then bench_ksp (CG +
#                         Jacobi on the 4.1M-row Poisson problem, GMRES on ckt11752_dc_1) (OUTDIR/r.tgz)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR suite|bench}
what=${2:?usage: run.sh OUTDIR suite|bench}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$R/run.txt"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
if [ "$what" = suite ]; then
  ( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) &
    timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
  echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"
  tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
  gzip -9 "$R/suite.txt" "$R/kernels.txt"
else
  timeout 330 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
  sed -n '/^==== results/,$p' "$R/spmv.txt" | tail -34; gzip -9 "$R/spmv.txt"
  timeout 150 build-cuda/bench/bench_ksp -n 160 -f .bench-data/ckt11752_dc_1.mtx.gz > "$R/ksp.txt" 2>&1; echo "bench_ksp exit $?"
  tail -25 "$R/ksp.txt"
fi
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
