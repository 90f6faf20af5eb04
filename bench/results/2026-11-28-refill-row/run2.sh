#!/usr/bin/env bash
# Call 2: bench_spmv and bench_model over the 20 matrices at this tree; circuit's refills traced again (2 rounds);
# the new-values timings (a TS step, new host values, MatScale twice) against build/ab-base.tgz (07212fe), 3 rounds.
# Carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz.
#   bash bench/results/2026-11-28-refill-row/run2.sh OUTDIR
set -uo pipefail
O=${1:?usage: run2.sh OUTDIR}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/s" build spmv model
bash bench/results/2026-11-28-sell-refill/run-trace.sh "$O/t" 2
F=.bench-data/GT01R.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
bash bench/ab.sh "$O/ab" 3 "\$BENCH/bench_spmv -suite circuit -f $F -reps 30 -warmup 3 -values_reps 9 -setup_reps 0 -plan_reps 1 -copy_mib 64"
