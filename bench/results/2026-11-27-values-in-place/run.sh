#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz: git archive of the base tree).
# run.sh OUTDIR [ROUNDS]: the base and this tree side by side; then, alternating ROUNDS times (default 2):
#   bench_coo -reps 3 -suite $SUITE -f $FILES (GPU assembly: first values, new values, again), and
#   bench_spmv -reps 50 -plan_reps 1 -values_reps 5 -setup_reps 3 on the same matrices (host values);
# then this tree's whole suite, and test_kernels where KERNELS=1.  Raw outputs in OUTDIR/raw.tgz.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}; R=${2:-2}
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
SUITE=${SUITE:-elast,circuit}
F=$(echo "${FILES:-actor_movie_incidence}" | tr , '\n' | sed "s|.*|.bench-data/&.mtx.gz|" | paste -sd,)
for r in $(seq 1 "$R"); do
  for side in base new; do
    d=build-cuda/bench; [ $side = base ] && d=/tmp/base/build-cuda/bench
    timeout 100 $d/bench_coo -suite "$SUITE" -f "$F" -reps 3 > "$O/coo-$side-$r.txt" 2>&1; stamp "$side coo round $r exit $?"
    timeout 100 $d/bench_spmv -suite "$SUITE" -f "$F" -reps 50 -plan_reps 1 -values_reps 5 -setup_reps 3 > "$O/spmv-$side-$r.txt" 2>&1; stamp "$side spmv round $r exit $?"
  done
done
for side in base new; do
  echo "== $side"; grep -hE "new values and a product|again|products against" "$O"/coo-$side-*.txt | sort -s -k1,1
  grep -hE "aijtuned +new values|aijcusparse new values|aijtuned +[0-9.]+ us" "$O"/spmv-$side-*.txt | sort -s -k1,1
done > "$O/summary.txt"
(cd "$O" && tar czf raw.tgz coo-*.txt spmv-*.txt && rm -f coo-*.txt spmv-*.txt)
stamp ab
timeout 260 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$O/suite.txt" 2>&1
stamp "suite: $(tail -1 "$O/suite.txt")"; grep -A12 "^not ok" "$O/suite.txt" | head -60; gzip -9f "$O/suite.txt"
[ "${KERNELS:-0}" = 1 ] || exit 0
(cd tests/planner && timeout 170 ../../build-cuda/tests/kernels/test_kernels > "$O/kernels.txt" 2>&1); stamp "test_kernels: $(tail -1 "$O/kernels.txt")"
grep -E "^FAIL" "$O/kernels.txt" | head -20; gzip -9f "$O/kernels.txt"
