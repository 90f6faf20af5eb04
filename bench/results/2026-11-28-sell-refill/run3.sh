#!/usr/bin/env bash
# Third call: test_kernels and the suite, circuit's refill kernels traced and the A/B timings, this tree against
# build/ab-base.tgz (b2fb271).  Carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz.
#   bash bench/results/2026-11-28-sell-refill/run3.sh OUTDIR
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels suite
bash bench/results/2026-11-28-sell-refill/run-trace.sh "$O/t" 1
F=.bench-data/GT01R.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
bash bench/ab.sh "$O/ab" 2 "\$BENCH/bench_spmv -suite circuit -f $F -reps 30 -warmup 3 -values_reps 9 -setup_reps 0 -plan_reps 1 -copy_mib 64"
