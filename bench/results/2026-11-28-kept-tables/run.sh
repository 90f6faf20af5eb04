#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data with actor_movie_incidence.mtx.gz, build/ab-base.tgz packed from the base).
#   run.sh OUTDIR
# 1. A/B of planning alone, base against this tree, two rounds alternating (bench/ab.sh), on circuit and
#    actor_movie_incidence; each side runs bench_spmv twice a round, as is and with glibc told to keep its memory
#    (MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_), which shows what fresh pages cost a planning;
# 2. the whole suite on this tree.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
O=$(cd "$O" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0"
args='-suite circuit -f .bench-data/actor_movie_incidence.mtx.gz -plan_reps 15 -values_reps 0 -setup_reps 0 -reps 30 -copy_mib 64'
bash bench/ab.sh "$O/ab" 2 "echo '## as is'; \$BENCH/bench_spmv $args; echo '## kept'; MALLOC_TRIM_THRESHOLD_=4294967296 MALLOC_MMAP_THRESHOLD_=1073741824 \$BENCH/bench_spmv $args"
cd "$O/ab" && tar xzf raw.tgz && for f in base-1 new-1 base-2 new-2; do echo "== $f"; grep -h -E "^## |before the values' upload \(-mat" $f.txt | grep -v lap3d; done; rm -f base-*.txt new-*.txt; cd - > /dev/null
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
