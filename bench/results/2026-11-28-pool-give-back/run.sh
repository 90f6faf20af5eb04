#!/usr/bin/env bash
# The setup's passing memory given back (aijtunedpool.c), A/B against the tree before it, on one GPU.
# carry: .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz (git archive of the base; bench/ab.sh)
#   bash bench/results/2026-11-28-pool-give-back/run.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}; R=${2:-2}
[ -d .bench-data ] || bash config/pack-bench-data.sh unpack > /dev/null || exit 1
actor=$(ls .bench-data/actor_movie_incidence.mtx* | head -1)
bash bench/ab.sh "$O" "$R" "\$BENCH/bench_memory -trim 0 -suite rmat,lap3d,circuit,random,elast -f $actor; \$BENCH/bench_spmv -suite rmat,circuit,lap3d -f $actor -reps 50 -values_reps 0 -plan_reps 3 -setup_reps 5 -copy_mib 256"
# (timing2: the same A/B without bench_memory, after the matrix's end gave back too:
#   bash bench/ab.sh OUTDIR 2 "\$BENCH/bench_spmv -suite rmat,circuit,lap3d -f $actor -reps 50 -values_reps 0 -plan_reps 3 -setup_reps 5 -copy_mib 256")
