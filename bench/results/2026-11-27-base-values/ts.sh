#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  ts.sh OUTDIR: PETSc's TS ex4 with -time_dependent_rhs (its right-hand side's Jacobian
# assembled on the host at every step; 4M points, 20 backward Euler steps, CG + Jacobi, CUDA vectors) with aijtuned
# before the base's device values were written from aijtuned's copy (this tree with base-values.patch reversed, built
# apart) and after (this tree), two rounds alternately, and aijcusparse once, all on one machine.
set -uo pipefail
O=${1:?usage: ts.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
rm -rf /tmp/before && mkdir /tmp/before && tar cf - --exclude=./build-cuda --exclude=./build --exclude=./.bench-data --exclude=./.git . | tar xf - -C /tmp/before
(cd /tmp/before && patch -s -R -p1 < bench/results/2026-11-27-base-values/base-values.patch && make -j16 PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib > "$O/make-before.log" 2>&1) || { echo "before: build failed"; tail -20 "$O/make-before.log"; exit 1; }
make -j16 PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib build-cuda/tutorials/ts/tutorials/ex4 > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
stamp built
ex4="build-cuda/tutorials/ts/tutorials/ex4 -nox -m 4000000 -time_dependent_rhs -ts_type beuler -ts_max_steps 20 -ksp_type cg -pc_type jacobi -dm_vec_type cuda -log_view"
timeout 150 $ex4 -mat_type aijcusparse > "$O/aijcusparse.txt" 2>&1; stamp "aijcusparse exit $?"
for r in 1 2; do
  timeout 150 $ex4 -mat_type aijtuned -dll_append /tmp/before/build-cuda/lib/libaijtuned.so > "$O/before-$r.txt" 2>&1; stamp "before $r exit $?"
  timeout 150 $ex4 -mat_type aijtuned -dll_append $PWD/build-cuda/lib/libaijtuned.so -info :mat > "$O/after-$r.txt" 2>&1; stamp "after $r exit $?"
done
for f in aijcusparse before-1 after-1 before-2 after-2; do
  printf "%-12s" $f; for e in TSStep TSJacobianEval MatAssemblyEnd MatAXPY MatMult KSPSolve MatCUSPARSCopyTo; do awk -v e=$e '$1 == e {printf "  %s %s %s", e, $2, $4}' "$O/$f.txt"; done; echo
done | tee "$O/summary.txt"
grep -h "Avg. error" "$O"/*.txt | sort | uniq -c | tee -a "$O/summary.txt"
grep -ch "device values written from aijtuned" "$O"/after-1.txt | sed 's/^/after-1: the base written from aijtuned: /' | tee -a "$O/summary.txt"
tar czf "$O/logs.tar.gz" -C "$O" aijcusparse.txt before-1.txt after-1.txt before-2.txt after-2.txt && rm -f "$O"/aijcusparse.txt "$O"/before-*.txt "$O"/after-*.txt "$O"/make*.log
