#!/usr/bin/env bash
# A/B on one GPU: a base tree against this one, run in alternating processes, so that both meet the same machine.
#   carry: .petsc-cuda; build/ab-base.tgz, the base tree:
#            git archive REV -- . ':!bench/results' ':!tests/data' | gzip > build/ab-base.tgz
#          and what the command reads (.bench-data-sub.tar.xz is unpacked into .bench-data, gzipped as bench_* read it)
#   usage: bash bench/ab.sh OUTDIR ROUNDS 'COMMAND'
# Both trees are built side by side (the base in /tmp/base).  COMMAND then runs ROUNDS times on each side, base
# first, in bash from the repository root, with $BENCH set to that side's build-cuda/bench and its output in
# OUTDIR/base-R.txt or OUTDIR/new-R.txt; at the end they are packed into OUTDIR/raw.tgz.  For bench_spmv's planning
# alone, bench/ab_planning.py OUTDIR/raw.tgz gives each process's median and compares the sides at their least.
set -uo pipefail
O=${1:?usage: bash bench/ab.sh OUTDIR ROUNDS COMMAND}; R=${2:?rounds}; C=${3:?command}
source "$(dirname "$0")/session.sh" "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || [ ! -f .bench-data-sub.tar.xz ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
{ commit_line; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1; echo "command: $C"; } | tee -a "$out/run.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/ab-base.tgz -C /tmp/base || exit 1
(cd /tmp/base && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 lib bench > make.log 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 lib bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
wait $! || { tail -20 /tmp/base/make.log; exit 1; }
rm -f "$out/make.log"; stamp built
for r in $(seq 1 "$R"); do
  for side in base new; do
    b=$PWD/build-cuda/bench; [ $side = base ] && b=/tmp/base/build-cuda/bench
    BENCH=$b timeout 200 bash -c "$C" > "$out/$side-$r.txt" 2>&1; stamp "$side round $r: exit $?"
  done
done
(cd "$out" && tar czf raw.tgz base-*.txt new-*.txt && rm -f base-*.txt new-*.txt)
