#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): bench_spmv on rmat and random with aijtuned's kernels as they
# are (cuda), without reading the values (novals) and without gathering x (nox): floor.patch, built three
# times.  OUTDIR/r.tgz.   usage: bash bench/results/2026-11-22-h100-rmat-floor/run.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}
ROUNDS=${2:-1}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-rmat-floor
git apply --check "$D/floor.patch" 2>/dev/null && git apply "$D/floor.patch"
grep -q AIJT_FLOOR_NO_X kernels/internal.cuh || { echo "floor.patch not applied"; exit 1; }
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
make BUILD=build-novals NVFLAGS_EXTRA=-DAIJT_FLOOR_NO_VALUES build-novals/bench/bench_spmv > "$R/make-novals.log" 2>&1 &
make BUILD=build-nox NVFLAGS_EXTRA=-DAIJT_FLOOR_NO_X build-nox/bench/bench_spmv > "$R/make-nox.log" 2>&1 &
wait
ls build-novals/bench/bench_spmv build-nox/bench/bench_spmv || { tail -20 "$R"/make-*.log; exit 1; }
rm -f "$R"/make*.log; stamp "built"
for round in $(seq 1 "$ROUNDS"); do
  for v in cuda novals nox; do
    timeout 150 build-$v/bench/bench_spmv -reps 100 -warmup 5 -suite rmat,random > "$R/$v-$round.txt" 2>&1; echo "$v round $round exit $?"
    grep -E "^\[(rmat|random)\] (aijtuned|aijcusparse) " "$R/$v-$round.txt"
    stamp "$v $round"
  done
done
rm -rf "$R/setup"
(cd "$O" && tar czf r.tgz r && rm -rf r)
