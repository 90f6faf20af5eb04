#!/usr/bin/env bash
# Call 3: the KSP targets at this tree: bench_ksp's CG + Jacobi on the 4.1M-row Poisson problem and GMRES(30) +
# Jacobi on circuit, aijcusparse, sellcuda and aijtuned in each process, three processes.  Carry .petsc-cuda.
#   bash bench/results/2026-11-28-refill-row/run3.sh OUTDIR
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}
mkdir -p "$O"
[ -x build-cuda/bench/bench_ksp ] || bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build
for p in 1 2 3; do
  timeout 150 build-cuda/bench/bench_ksp -n 160 -gen circuit -use_gpu_aware_mpi 0 > "$O/ksp-$p.txt" 2>&1; echo "bench_ksp $p exit $?" | tee -a "$O/run.txt"
done
tail -n 25 "$O"/ksp-*.txt
