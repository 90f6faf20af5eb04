#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz: git archive of the base tree).
# ab.sh OUTDIR [ROUNDS]: build the base and this tree side by side; this tree's COO tests (suite=coo); then the two
# alternating ROUNDS times (default 2): bench_coo -reps 3 on $SUITE (generated; default circuit,box27,lap3d) and
# $FILES (.bench-data names; default actor_movie_incidence), a GPU assembly: MatSetValuesCOO from device values, then
# the first product.  Everything in OUTDIR/raw.tgz and summary.txt.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR [ROUNDS]}; R=${2:-2}
mkdir -p "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1; } | tee -a "$O/run.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/ab-base.tgz -C /tmp/base
(cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 lib bench > make.log 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
wait $! || { tail -20 /tmp/base/make.log; exit 1; }
rm -f "$O/make.log"; stamp built
timeout 120 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 8 coo > "$O/suite-coo.txt" 2>&1
stamp "suite coo: $(tail -1 "$O/suite-coo.txt")"; grep -A12 "^not ok" "$O/suite-coo.txt" | head -40
SUITE=${SUITE:-circuit,box27,lap3d}
F=$(echo "${FILES:-actor_movie_incidence}" | tr , '\n' | sed "s|.*|.bench-data/&.mtx.gz|" | paste -sd,)
for r in $(seq 1 "$R"); do
  for side in base new; do
    d=build-cuda/bench; [ $side = base ] && d=/tmp/base/build-cuda/bench
    timeout 100 $d/bench_coo -suite "$SUITE" -f "$F" -reps 3 > "$O/coo-$side-$r.txt" 2>&1; stamp "$side coo round $r exit $?"
  done
done
for side in base new; do
  echo "== $side"; grep -hE "first values and product|planning|products against" "$O"/coo-$side-*.txt | sort -s -k1,1
done | tee "$O/summary.txt"
(cd "$O" && tar czf raw.tgz coo-*.txt suite-coo.txt && rm -f coo-*.txt)
stamp ab
