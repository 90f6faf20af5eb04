#!/usr/bin/env bash
# H100 session 2 (carry .petsc-cuda, .bench-data): the test suite after the event fix, compute-sanitizer
# memcheck through the GPU build (tests/mat/spmv on the GPU, every layout, columns ordered where allowed),
# -log_view of the KSP benchmark (Poisson 4.1M rows, R-MAT) for the setup events, and bench_setup's host
# stages on this machine's CPU.
#   usage: bash bench/results/2026-11-21-h100-gpubuild/run2.sh OUTDIR
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all > "$R/make-all.log" 2>&1 || { tail -30 "$R/make-all.log"; exit 1; }
make bench-setup > "$R/make-setup.log" 2>&1
stamp "built"
timeout 200 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 12 > "$R/suite.txt" 2>&1
grep -E "^not ok" "$R/suite.txt" | head; tail -1 "$R/suite.txt"; stamp "suite"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for shape in power_law one_long_row alternating random wide stencil3d; do
  (cd tests/mat && timeout 90 $CS --tool memcheck --error-exitcode 9 ../../build-cuda/tests/mat/spmv -convert_from aijcusparse -vec_type cuda -shape $shape -mat_aijtuned_col_order degree > "$R/memcheck-$shape.txt" 2>&1)
  echo "memcheck $shape exit $? $(grep -E 'ERROR SUMMARY' "$R/memcheck-$shape.txt")"
done
stamp "memcheck"
timeout 120 build-cuda/bench/bench_ksp -n 160 -gen rmat -log_view > "$R/ksp-logview.txt" 2>&1
stamp "bench_ksp exit $?"
grep -E "^(MatMult |AIJTuned|KSPSolve )" "$R/ksp-logview.txt"
timeout 100 build/bench/bench_setup -model models/NVIDIA-H100-80GB-HBM3.model -reps 3 lap3d rmat elast random circuit > "$R/bench_setup.txt" 2>&1
stamp "bench_setup exit $?"
cat "$R/bench_setup.txt"
