#!/usr/bin/env bash
# One GPU-machine session: CUDA PETSc from the carried archive, aijtuned built against it, the whole test
# suite on the GPU, and first measurements of aijtuned against aijcusparse in the same runs.
#   carry: .petsc-cuda (install.tar.xz.*) and .bench-data.tar.xz (the medium Matrix Market files, packed by config/pack-bench-data.sh)
#   usage: bash bench/gpu_smoke.sh OUTDIR
set -uo pipefail
out=${1:-/tmp/out}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
bash config/build-petsc-cuda.sh unpack || exit 1
bash config/pack-bench-data.sh unpack || exit 1
make BUILD=build-cuda all > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe" -j 6 ${TESTS:-} > "$out/tests.log" 2>&1
grep -v "^ok" "$out/tests.log" | tail -40

ex2=build-cuda/examples/tutorials/ex2
{
  echo "# MatMult, same process per type; ex2 -mult 500 (wall time per call after one warm-up call, median not taken)"
  for f in .bench-data/*.mtx.gz; do
    for t in aijcusparse aijtuned; do
      printf "%-40s %-12s " "$(basename "$f")" "$t"
      $ex2 -f "$f" -mat_type $t -vec_type cuda -mult 500 | grep "MatMult time" | sed -e 's/MatMult time: //'
    done
  done
} > "$out/mult.txt" 2>&1
cat "$out/mult.txt"
ex1=build-cuda/examples/tutorials/ex1
{
  echo "# CG + Jacobi, 3-D Poisson 160^3 (4.1M rows), -log_view lines"
  for t in aijcusparse aijtuned; do
    echo "== $t"
    $ex1 -dim 3 -n 160 -ksp_type cg -pc_type jacobi -mat_type $t -vec_type cuda -ksp_max_it 300 -ksp_norm_type unpreconditioned -log_view | grep -E "^(KSPSolve|MatMult|AIJTuned[A-Za-z]*) |iterations"
  done
} > "$out/ksp.txt" 2>&1
cat "$out/ksp.txt"
