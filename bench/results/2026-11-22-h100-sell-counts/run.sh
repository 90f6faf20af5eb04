#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): SELL slots from the length counts (change.patch) against the
# tree without it, built side by side; bench_spmv's planning (median of 9 assemblies) on the matrices whose
# plans hold SELL strips, three rounds interleaved; then the kernel test on the new build.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-sell-counts/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old && mkdir -p /tmp/old && tar cf - --exclude=./build --exclude=./build-cuda --exclude=./.bench-data --exclude=./.petsc-cuda --exclude=./.git . | (cd /tmp/old && tar xf -)
(cd /tmp/old && patch -R -p1 < bench/results/2026-11-22-h100-sell-counts/change.patch > /dev/null) || { echo "patch -R failed"; exit 1; }
grep -c "slots_known" kernels/skeleton.cu /tmp/old/kernels/skeleton.cu | tee -a "$R/run.txt"
make BUILD=build-cuda lib bench build-cuda/tests/kernels/test_kernels > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/old && make BUILD=build-cuda lib bench) > "$R/make-old.log" 2>&1 || { tail -30 "$R/make-old.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
(cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) &
F=.bench-data/actor_movie_incidence.mtx.gz,.bench-data/soc-Slashdot0902.mtx.gz
for round in 1 2 3; do
  for b in new old; do
    d=$PWD; [ $b = old ] && d=/tmp/old
    timeout 120 $d/build-cuda/bench/bench_spmv -reps 50 -warmup 5 -plan_reps 9 -suite circuit,rmat -f $F > "$R/spmv-$b-$round.txt" 2>&1
    grep "planning:" "$R/spmv-$b-$round.txt" | grep -v lap3d:10 | sed "s/^/$b $round /" | tee -a "$R/planning.txt"
    grep -E "\] aijtuned +[0-9.]+ us" "$R/spmv-$b-$round.txt" | sed "s/^/$b $round /;s/   build.*diff/ diff/" | tee -a "$R/planning.txt"
  done
done
wait
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"
gzip -9 "$R"/spmv-*.txt "$R/kernels.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
