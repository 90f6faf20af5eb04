#!/usr/bin/env bash
# The strips' device buffer of each plan, exactly (-mat_view's "MB on the GPU", through -irregular_ksp_view after a
# GMRES + Jacobi solve by bench_ksp), on this tree and build/ab-base.tgz (b2fb271), with the solves' iterations and
# residuals beside aijcusparse's.  Carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz.
#   bash bench/results/2026-11-28-by-rows/run-bytes.sh OUTDIR
set -uo pipefail
O=${1:?usage: run-bytes.sh OUTDIR}
bash bench/ab.sh "$O" 1 'for m in "-gen circuit" "-gen random" "-gen lap2d" "-f .bench-data/cage11.mtx.gz" "-f .bench-data/GT01R.mtx.gz" "-f .bench-data/soc-Slashdot0902.mtx.gz"; do \
echo "== $m"; $BENCH/bench_ksp -n 0 $m -reps 5 -warmup 1 -irregular_ksp_view 2>&1; done'
