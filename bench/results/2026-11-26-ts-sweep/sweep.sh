#!/usr/bin/env bash
# PETSc 3.24's TS and SNES tutorials, on one GPU: aijtuned against aijcusparse, the type
# it is built on (tests/sweep_tutorials.py --ref aijcusparse), groups of examples in parallel.
#   carry: .petsc-cuda        usage: [PER_TEST=2] bash sweep.sh OUTDIR [GROUP...]   (GROUP: a number of the list below)
set -uo pipefail
O=${1:?usage: sweep.sh OUTDIR [GROUP...]}; shift
mkdir -p "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
groups=(
  "ts/tutorials/ex3 ts/tutorials/ex4 ts/tutorials/ex5 ts/tutorials/ex6 ts/tutorials/ex7 ts/tutorials/ex8"
  "ts/tutorials/ex9 ts/tutorials/ex10 ts/tutorials/ex13 ts/tutorials/ex14 ts/tutorials/ex15 ts/tutorials/ex16"
  "ts/tutorials/ex17 ts/tutorials/ex19 ts/tutorials/ex20 ts/tutorials/ex21 ts/tutorials/ex22 ts/tutorials/ex24"
  "ts/tutorials/ex25 ts/tutorials/ex26 ts/tutorials/ex27 ts/tutorials/ex28 ts/tutorials/ex29 ts/tutorials/ex30 ts/tutorials/ex31"
  "ts/tutorials/ex34 ts/tutorials/ex36 ts/tutorials/ex40 ts/tutorials/ex41 ts/tutorials/ex42 ts/tutorials/ex43 ts/tutorials/ex44"
  "ts/tutorials/ex46 ts/tutorials/ex47 ts/tutorials/ex48 ts/tutorials/ex49 ts/tutorials/ex50 ts/tutorials/ex51 ts/tutorials/ex52 ts/tutorials/ex53"
  "snes/tutorials/ex1 snes/tutorials/ex2 snes/tutorials/ex3 snes/tutorials/ex9 snes/tutorials/ex14 snes/tutorials/ex15"
  "snes/tutorials/ex22 snes/tutorials/ex25 snes/tutorials/ex28 snes/tutorials/ex30 snes/tutorials/ex35 snes/tutorials/ex59 snes/tutorials/ex63"
)
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
sel=("$@"); [ ${#sel[@]} -gt 0 ] || sel=($(seq 0 $((${#groups[@]} - 1))))
for g in "${sel[@]}"; do
  # shellcheck disable=SC2086
  (timeout ${GROUP_S:-420} python3 tests/sweep_tutorials.py --build build-cuda --ref aijcusparse --keep "$out/keep" --per-test ${PER_TEST:-2} --mpiexec "mpiexec --oversubscribe --bind-to none" ${groups[$g]} > "$out/sweep-$g.txt" 2>&1; echo "group $g exit $?" >> "$out/sweep-$g.txt") &
done
wait
stamp swept
cat "$out"/sweep-*.txt > "$out/sweep.txt"; rm -f "$out"/sweep-*.txt "$out/make.log"
[ -d "$out/keep" ] && tar czf "$out/keep.tar.gz" -C "$out" keep && rm -rf "$out/keep"   # both outputs of each test not OK
grep -vE "^(OK|AS-AIJ|BOTH-FAIL) " "$out/sweep.txt" | head -60
for v in OK AS-AIJ BOTH-FAIL REGRESSION BUILD-FAIL; do echo "$v $(grep -c "^$v" "$out/sweep.txt")"; done
