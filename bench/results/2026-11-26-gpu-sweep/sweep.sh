#!/usr/bin/env bash
# PETSc 3.24's own tests and tutorials with products and GAMG, on one GPU: aijtuned against aijcusparse, the type
# it is built on (tests/sweep_tutorials.py --ref aijcusparse), groups of examples in parallel.
#   carry: .petsc-cuda        usage: [PER_TEST=2] bash sweep.sh OUTDIR [GROUP...]   (GROUP: a number of the list below)
set -uo pipefail
O=${1:?usage: sweep.sh OUTDIR [GROUP...]}; shift
mkdir -p "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
groups=(
  "mat/tests/ex23"
  "mat/tests/ex70 mat/tests/ex96 mat/tests/ex93"
  "mat/tests/ex258 mat/tests/ex123 mat/tests/ex115 mat/tests/ex89"
  "mat/tests/ex81 mat/tests/ex59 mat/tests/ex125 mat/tests/ex215 mat/tests/ex161 mat/tests/ex109 mat/tests/ex104"
  "mat/tests/ex250 mat/tests/ex102 mat/tests/ex62 mat/tests/ex33 mat/tests/ex242 mat/tests/ex226 mat/tests/ex192 mat/tests/ex178 mat/tests/ex111"
  "mat/tests/ex90 mat/tests/ex74 mat/tests/ex48 mat/tests/ex245 mat/tests/ex237 mat/tests/ex214 mat/tests/ex195 mat/tests/ex129 mat/tests/ex1 mat/tests/ex34 mat/tests/ex202 mat/tests/ex122 mat/tests/ex101"
  "ksp/ksp/tutorials/ex45 ksp/ksp/tutorials/ex54 ksp/ksp/tutorials/ex55 ksp/ksp/tutorials/ex56"
  "snes/tutorials/ex19"
  "snes/tutorials/ex5 ksp/ksp/tutorials/ex2 ksp/ksp/tutorials/ex7 ts/tutorials/ex2"
)
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
sel=("$@"); [ ${#sel[@]} -gt 0 ] || sel=($(seq 0 $((${#groups[@]} - 1))))
for g in "${sel[@]}"; do
  # shellcheck disable=SC2086
  (timeout 540 python3 tests/sweep_tutorials.py --build build-cuda --ref aijcusparse --keep "$out/keep" --per-test ${PER_TEST:-2} --mpiexec "mpiexec --oversubscribe --bind-to none" ${groups[$g]} > "$out/sweep-$g.txt" 2>&1; echo "group $g exit $?" >> "$out/sweep-$g.txt") &
done
wait
stamp swept
cat "$out"/sweep-*.txt > "$out/sweep.txt"; rm -f "$out"/sweep-*.txt "$out/make.log"
[ -d "$out/keep" ] && tar czf "$out/keep.tar.gz" -C "$out" keep && rm -rf "$out/keep"   # both outputs of each test not OK
grep -vE "^(OK|AS-AIJ|BOTH-FAIL) " "$out/sweep.txt" | head -60
for v in OK AS-AIJ BOTH-FAIL REGRESSION BUILD-FAIL; do echo "$v $(grep -c "^$v" "$out/sweep.txt")"; done
