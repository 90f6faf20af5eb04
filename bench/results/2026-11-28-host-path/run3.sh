#!/usr/bin/env bash
# One H200 (carry .petsc-cuda, .bench-data.tar.xz, build/ab-base.tgz: the tree before AIJT_FUSED_MAX 8).
# run3.sh OUTDIR: the A/B of bench_spmv paced (small files, circuit, rmat) and held (small files), 3 rounds, then
# the whole suite; everything packed into OUTDIR/all.tgz
set -uo pipefail
O=${1:?usage: run3.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../.." || exit 1
F=.bench-data/GT01R.mtx.gz,.bench-data/bcsstk16.mtx.gz,.bench-data/memplus.mtx.gz,.bench-data/ckt11752_dc_1.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
C="-reps 1000 -warmup 20 -values_reps 0 -setup_reps 0 -plan_reps 1 -copy_mib 64"
bash bench/ab.sh "$O/ab" 3 "\$BENCH/bench_spmv -suite circuit,rmat,lap3d40 -f $F $C; \$BENCH/bench_spmv -suite none -f $F -held 1 $C"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
(cd "$O" && tar czf all.tgz ab v)
