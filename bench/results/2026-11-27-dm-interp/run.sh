#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz).  run.sh OUTDIR:
#   v/   the tree built; PETSc's own tutorials in the suite (suite=tests/petsc: SNES ex19's multigrid forms and
#        cuda_mg_interp among them)
#   t/   SNES ex19 with multigrid at scale, aijcusparse / aijtuned / tunedops alternately, 2 rounds
#        (CASES=ex19_mg bash bench/run_tutorials.sh)
#   ip/  values in place on this GPU: 0a214b8 (build/ab-base.tgz) against this tree, 2 rounds of bench_coo and
#        bench_spmv on elast, circuit and actor_movie_incidence (bench/ab.sh)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite=tests/petsc
CASES=ex19_mg ROUNDS=2 bash bench/run_tutorials.sh "$O/t" | tail -8
(cd "$O/t" && tar czf t.tgz ex19*.txt && rm -f ex19*.txt)
F=.bench-data/actor_movie_incidence.mtx.gz
bash bench/ab.sh "$O/ip" 2 "\$BENCH/bench_coo -suite elast,circuit -f $F -reps 3; \$BENCH/bench_spmv -suite elast,circuit -f $F -reps 50 -plan_reps 1 -values_reps 5 -setup_reps 3"
