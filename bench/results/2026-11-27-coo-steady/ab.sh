#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, build/ab-base.tgz: the base tree, git archive of it).  ab.sh OUTDIR [ROUNDS]: build the
# base and this tree, run this tree's test_kernels, then bench_coo on the stencils (DIA strips with value codes) with
# each build, alternating, ROUNDS times (default 3); with two 2-D 9-point stencils written here (256^2 and 512^2 rows:
# DIA strips of two code words a row).
# SUITE=names: the generated matrices instead of lap2d,lap3d,lap3d40,box27.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR [ROUNDS]}; R=${2:-3}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$O/run.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/ab-base.tgz -C /tmp/base
(cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > make.log 2>&1) || { tail -20 /tmp/base/make.log; exit 1; }
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
rm -f "$O/make.log"; stamp built
(cd tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$O/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$O/kernels.txt")" | tee -a "$O/run.txt"
grep -E "^FAIL" "$O/kernels.txt" | head -20; gzip -9f "$O/kernels.txt"
stamp kernels
for n in 256 512; do # the 9-point stencil on an n x n grid, 8 at the centre, -1 around
  python3 -c "
import sys
n = $n; out = sys.stdout
rows = []
for i in range(n):
    for j in range(n):
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if 0 <= i + di < n and 0 <= j + dj < n: rows.append('%d %d %s' % (i * n + j + 1, (i + di) * n + j + dj + 1, '8' if di == dj == 0 else '-1'))
out.write('%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n' % (n * n, n * n, len(rows)))
out.write('\n'.join(rows) + '\n')" > /tmp/box9_$n.mtx
done
for r in $(seq 1 "$R"); do
  for side in base new; do
    b=build-cuda/bench/bench_coo; [ $side = base ] && b=/tmp/base/build-cuda/bench/bench_coo
    timeout 120 $b -suite ${SUITE:-lap2d,lap3d,lap3d40,box27} -f /tmp/box9_256.mtx,/tmp/box9_512.mtx -reps 5 > "$O/coo-$side-$r.txt" 2>&1; echo "$side round $r exit $?" | tee -a "$O/run.txt"
  done
done
for side in base new; do
  echo "== $side"; grep -hE "again|new values and|first values and" "$O"/coo-$side-*.txt | grep -v "lap3d:10" | sort -s -k1,1
done | tee "$O/summary.txt"
stamp ab
