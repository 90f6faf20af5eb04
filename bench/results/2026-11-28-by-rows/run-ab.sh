#!/usr/bin/env bash
# A/B on one GPU of this tree against build/ab-base.tgz (b2fb271: maps for every strip but DIA's) in alternating
# processes: device memory held after the first product and after the base's operations (bench_memory), then the new
# values' timings, a TS step's refill and the steady product (bench_spmv).  Carry .petsc-cuda, .bench-data.tar.xz,
# build/ab-base.tgz.
#   bash bench/results/2026-11-28-by-rows/run-ab.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run-ab.sh OUTDIR [ROUNDS]}; R=${2:-2}
S=circuit,random,lap3d,lap2d,rmat
F=.bench-data/actor_movie_incidence.mtx.gz,.bench-data/cage11.mtx.gz,.bench-data/GT01R.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
bash bench/ab.sh "$O" "$R" "\$BENCH/bench_memory -suite $S -f $F; \
\$BENCH/bench_spmv -suite $S -f $F -reps 30 -warmup 3 -values_reps 5 -setup_reps 0 -plan_reps 1 -copy_mib 64"
