#!/usr/bin/env bash
# A/B on one GPU of this tree against build/ab-base.tgz (75ae6c9, before the values' copy was given back): device
# memory stage by stage (bench_memory, the pool left alone: what the process keeps), then the new values' timings
# and the set-up (bench_spmv), in alternating processes.  Carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz.
#   bash bench/results/2026-11-28-values-drop/run-ab.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run-ab.sh OUTDIR [ROUNDS]}; R=${2:-2}
F=.bench-data/actor_movie_incidence.mtx.gz
bash bench/ab.sh "$O" "$R" "\$BENCH/bench_memory -suite lap3d,circuit,rmat,elast,random -f $F -trim 0; \
\$BENCH/bench_spmv -suite lap3d,circuit,rmat -f $F -reps 50 -warmup 5 -values_reps 5 -setup_reps 3 -plan_reps 1 -copy_mib 256"
