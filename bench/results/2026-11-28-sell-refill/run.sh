#!/usr/bin/env bash
# The SELL rows' refill with each batch of 8 slots' loads before its stores, on one GPU: test_kernels, then an A/B
# against build/ab-base.tgz (b2fb271: every strip but DIA's refilled through its map) in alternating processes:
# new host values and a product, a TS step's MatShift, MatScale x2, MatShift and product, and the steady product.
# Carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz.
#   bash bench/results/2026-11-28-sell-refill/run.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}; R=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels
F=.bench-data/GT01R.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz,.bench-data/actor_movie_incidence.mtx.gz
bash bench/ab.sh "$O/ab" "$R" "\$BENCH/bench_spmv -suite circuit,random -f $F -reps 30 -warmup 3 -values_reps 7 -setup_reps 0 -plan_reps 1 -copy_mib 64"
