#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  abc.sh OUTDIR: TS ex4 (4M points, 20 backward Euler steps, CG + Jacobi) on one machine
# with three builds of aijtuned: "pin" (344e997: both.patch reversed), "diag" (MatGetDiagonal on the GPU: zero.patch
# reversed) and "zero" (this tree: MatZeroEntries of the device values too), two rounds alternately, aijcusparse once.
set -uo pipefail
O=${1:?usage: abc.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
D=bench/results/2026-11-26-ts-ex4-log
for v in pin diag; do
  p=$D/both.patch; [ $v = diag ] && p=$D/zero.patch
  rm -rf /tmp/$v && mkdir /tmp/$v && tar cf - --exclude=./build-cuda --exclude=./build --exclude=./.bench-data --exclude=./.git . | tar xf - -C /tmp/$v
  (cd /tmp/$v && patch -s -R -p1 < $p && make -j16 BUILD=build-cuda lib > "$O/make-$v.log" 2>&1) || { echo "$v: build failed"; tail -20 "$O/make-$v.log"; exit 1; }
done
make -j16 BUILD=build-cuda lib build-cuda/tutorials/ts/tutorials/ex4 > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
stamp built
declare -A lib=([pin]=/tmp/pin/build-cuda/lib/libaijtuned.so [diag]=/tmp/diag/build-cuda/lib/libaijtuned.so [zero]=$PWD/build-cuda/lib/libaijtuned.so)
ex4="build-cuda/tutorials/ts/tutorials/ex4 -nox -m 4000000 -ts_type beuler -ts_max_steps 20 -ksp_type cg -pc_type jacobi -dm_vec_type cuda -log_view"
timeout 100 $ex4 -mat_type aijcusparse > "$O/aijcusparse.txt" 2>&1; stamp "aijcusparse exit $?"
for r in 1 2; do for v in pin diag zero; do
  timeout 100 $ex4 -mat_type aijtuned -dll_append ${lib[$v]} > "$O/$v-$r.txt" 2>&1; stamp "$v $r exit $?"
done; done
for f in aijcusparse pin-1 diag-1 zero-1 pin-2 diag-2 zero-2; do
  printf "%-12s" $f; for e in TSStep KSPSolve MatCUSPARSCopyFr MatCUSPARSCopyTo; do awk -v e=$e '$1 == e {printf "  %s %s %s", e, $2, $4}' "$O/$f.txt"; done; echo
done | tee "$O/summary.txt"
grep -h "Avg. error" "$O"/*.txt | sort | uniq -c
timeout 100 $ex4 -mat_type aijtuned -dll_append ${lib[zero]} -info :mat 2>&1 | grep -oE "MatShift on the GPU|MatGetDiagonal on the GPU|MatZeroEntries on the GPU|page-locked for" | sort | uniq -c
tar czf "$O/logs.tar.gz" -C "$O" aijcusparse.txt pin-1.txt diag-1.txt zero-1.txt pin-2.txt diag-2.txt zero-2.txt && rm -f "$O"/aijcusparse.txt "$O"/*-[12].txt "$O"/make*.log
