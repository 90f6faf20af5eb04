#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, build/ab-base.tgz).  run.sh OUTDIR:
#   ab/      bench/ab.sh: bench_convert on rmat, rmat:20 and circuit (3 rounds a process), base against this tree
#   v/       run.sh's build and kernels steps (test_kernels: every GPU build against the host's, bit for bit), and
#            with SUITE=1 its suite step
#   t/       bench_convert -each on rmat under tools/cuptitrace.c, and first_product.py's reading (first.txt)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
here=bench/results/2026-11-27-row-sort
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_OPTIONS="-use_gpu_aware_mpi 0"
bash bench/ab.sh "$O/ab" 2 '$BENCH/bench_convert -suite rmat,rmat:20,circuit -reps 3'
for f in "$O"/ab/raw.tgz; do tar xzf "$f" -O | grep -E "aijtuned  |^summary" ; done
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels ${SUITE:+suite}
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda cuptitrace > /dev/null 2>&1 || echo "cuptitrace build failed"
mkdir -p "$O/t"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$O/t/t" timeout 120 build-cuda/bench/bench_convert -suite rmat -reps 1 -each > "$O/t/traced.txt" 2>&1; echo "traced exit $?"
python3 bench/results/2026-11-27-first-product/first_product.py $(ls -S "$O"/t/t.*.txt | head -1) rmat | tee "$O/t/first.txt"
gzip -9 "$O"/t/t.*.txt
