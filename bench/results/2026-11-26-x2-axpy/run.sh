#!/usr/bin/env bash
# Two GPUs of one host (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: tests/mat/ops' CUDA forms and the
# spmv and ts_ex4 tests' on the two GPUs, then PETSc's TS ex4 on 2 ranks, one GPU each (4M points, 20 backward Euler
# steps, CG + Jacobi, aijcusparse and aijtuned, one round, then -info of aijtuned's GPU paths and of mpiaijtuned's
# MatAXPY), then on GPU 0 alone bench_spmv in three processes over the small files that were slow in one process of
# ../2026-11-26-verify-b27f5f1 (sat14_atco_enc1_opt2_10_16_primal, GT01R, lp's neighbours are not rerun).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build "suite=ops_cuda spmv_cuda ts_ex4_beuler_cuda"
source bench/session.sh "$O"
make -j16 BUILD=build-cuda build-cuda/tutorials/ts/tutorials/ex4 > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
ex4="mpiexec --oversubscribe --bind-to none -n 2 build-cuda/tutorials/ts/tutorials/ex4 -nox -m ${M:-4000000} -ts_type beuler -ts_max_steps 20 -ksp_type cg -pc_type jacobi -dm_vec_type cuda -dll_append $PWD/build-cuda/lib/libaijtuned.so -log_view"
for t in aijcusparse aijtuned; do
  timeout 150 $ex4 -mat_type $t > "$O/$t.txt" 2>&1; stamp "$t exit $?"
done
for f in aijcusparse aijtuned; do
  printf "%-14s" $f; for e in TSStep KSPSolve MatAXPY MatMult MatCUSPARSCopyTo MatCUSPARSCopyFr; do awk -v e=$e '$1 == e {printf "  %s %s %s", e, $2, $4}' "$O/$f.txt"; done; echo
done | tee "$O/summary.txt"
grep -h "Avg. error" "$O"/aij*.txt | sort | uniq -c
timeout 120 $ex4 -mat_type aijtuned -ts_max_steps 5 -info :mat > "$O/info-full.txt" 2>&1
grep -E "MatAXPY: |on the GPU|by the base|page-locked" "$O/info-full.txt" | sed -E 's/^(\[[01]\]).*(MatAXPY: .*|Mat[A-Za-z]+ on the GPU|Mat[A-Za-z]+ by the base|page-locked).*/\1 \2/' | sort | uniq -c | sort -rn | head -20 | tee "$O/info.txt"
gzip -9f "$O/info-full.txt"
stamp ts
for r in 1 2 3; do
  CUDA_VISIBLE_DEVICES=0 timeout 100 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite none -f .bench-data/sat14_atco_enc1_opt2_10_16_primal.mtx.gz,.bench-data/GT01R.mtx.gz,.bench-data/cage11.mtx.gz,.bench-data/wing.mtx.gz > "$O/spmv-$r.txt" 2>&1
  stamp "spmv $r exit $?"; grep -E "^(sat14|GT01R|cage11|wing)" "$O/spmv-$r.txt" | sort -u
done
tar czf "$O/logs.tar.gz" -C "$O" aijcusparse.txt aijtuned.txt spmv-1.txt spmv-2.txt spmv-3.txt && rm -f "$O"/aij*.txt "$O"/spmv-?.txt "$O/make.log"
