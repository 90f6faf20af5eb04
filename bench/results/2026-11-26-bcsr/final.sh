#!/usr/bin/env bash
# The session's end on one GPU (carry .petsc-cuda, .bench-data.tar.xz):  final.sh OUTDIR
# SNES ex19 (4 fields: 4 x 4 blocks) with multigrid, two rounds of aijcusparse, aijtuned for the operators
# (tunedops: -dm_mat_type aijcusparse -mat_type aijtuned) and the same without BCSR, alternating; then the whole
# test suite and bench_spmv over the suite and the medium files.
set -uo pipefail
O=${1:?usage: final.sh OUTDIR}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp build
lib=$PWD/build-cuda/lib/libaijtuned.so
ex19="build-cuda/tests/petsc/snes_ex19 -da_refine 8 -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason -dm_vec_type cuda -dll_append $lib -log_view"
declare -A variants=([aijcusparse]="-dm_mat_type aijcusparse" [tunedops]="-dm_mat_type aijcusparse -mat_type aijtuned -mat_view ::ascii_info" [nobcsr]="-dm_mat_type aijcusparse -mat_type aijtuned -mat_aijtuned_formats csr,long,ell,sell,coo,dia,panel,stream")
for round in 1 2; do
  for v in aijcusparse tunedops nobcsr; do
    # shellcheck disable=SC2086
    timeout 60 $ex19 ${variants[$v]} > "$out/ex19-$v-$round.txt" 2>&1
    echo "ex19 $v $round: exit $? SNESSolve $(grep -E '^SNESSolve ' "$out/ex19-$v-$round.txt" | awk '{print $4}') MatMult $(grep -E '^MatMult ' "$out/ex19-$v-$round.txt" | awk '{print $2, $4}') its $(grep -o 'iterations [0-9]*' "$out/ex19-$v-$round.txt" | tr '\n' ' ')" | tee -a "$out/run.txt"
  done
done
grep -m3 -E "bcsr|blocks of" "$out/ex19-tunedops-1.txt"
(cd "$out" && tar czf ex19.tar.gz ex19-*.txt && rm -f ex19-*.txt)
stamp ex19
timeout 280 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$out/suite.txt" 2>&1
tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite.txt" | head -40
gzip -9f "$out/suite.txt"
stamp suite
timeout 200 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
gzip -9f "$out/spmv.txt"
stamp spmv
