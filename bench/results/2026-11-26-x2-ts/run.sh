#!/usr/bin/env bash
# Two GPUs of one host (carry .petsc-cuda).  run.sh OUTDIR: tests/mat/ops' CUDA forms and the spmv test's on the two
# GPUs (rank r on GPU r), then PETSc's TS ex4 on 2 ranks, one GPU each: 8M points, 20 backward Euler steps, CG +
# Jacobi, aijcusparse and aijtuned, two rounds alternately, and -info's GPU paths of aijtuned's blocks.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build "suite=ops_cuda spmv_cuda"
source bench/session.sh "$O"
make -j16 BUILD=build-cuda build-cuda/tutorials/ts/tutorials/ex4 > "$O/make.log" 2>&1 || { tail -20 "$O/make.log"; exit 1; }
ex4="mpiexec --oversubscribe --bind-to none -n 2 build-cuda/tutorials/ts/tutorials/ex4 -nox -m 8000000 -ts_type beuler -ts_max_steps 20 -ksp_type cg -pc_type jacobi -dm_vec_type cuda -dll_append $PWD/build-cuda/lib/libaijtuned.so -log_view"
for r in 1 2; do for t in aijcusparse aijtuned; do
  timeout 120 $ex4 -mat_type $t > "$O/$t-$r.txt" 2>&1; stamp "$t $r exit $?"
done; done
for f in aijcusparse-1 aijtuned-1 aijcusparse-2 aijtuned-2; do
  printf "%-14s" $f; for e in TSStep KSPSolve MatCUSPARSCopyFr; do awk -v e=$e '$1 == e {printf "  %s %s %s", e, $2, $4}' "$O/$f.txt"; done; echo
done | tee "$O/summary.txt"
grep -h "Avg. error" "$O"/aij*-[12].txt | sort | uniq -c
grep -h "GPU" "$O"/aijtuned-1.txt | head -3
timeout 120 $ex4 -mat_type aijtuned -info :mat 2>&1 | grep -oE "^\[[01]\].*(MatShift on the GPU|MatGetDiagonal on the GPU|MatZeroEntries on the GPU|page-locked for|MatShift by the base)" | sed -E 's/\] .*(MatShift on|MatGetDiagonal on|MatZeroEntries on|page-locked|MatShift by)/] \1/' | sort | uniq -c | tee "$O/info.txt"
tar czf "$O/logs.tar.gz" -C "$O" aijcusparse-1.txt aijtuned-1.txt aijcusparse-2.txt aijtuned-2.txt && rm -f "$O"/aij*-[12].txt "$O/make.log"
