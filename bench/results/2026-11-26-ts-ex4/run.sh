#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR:
#   1. the pinned-copy probe (../2026-11-26-pinned/probe.cu): pageable against registered host-to-device copies;
#   2. PETSc's TS ex4 (bench/run_tutorials.sh CASES=ts_ex4 ROUNDS=2): aijcusparse and aijtuned, a real TS with a
#      constant right-hand-side Jacobian, MatShift and MatScale at every step;
#   3. bench_spmv again on the four matrices that were slow in ../2026-11-26-verify-f7ba253 (lap3d40, ckt11752_dc_1,
#      cage11, wing), two processes, the second with -mat_view ::ascii_info (the plans).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
nvcc -O2 -arch=sm_90 -o /tmp/probe bench/results/2026-11-26-pinned/probe.cu && /tmp/probe 3.5 28 228 648 2>&1 | tee "$O/probe.txt"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build
CASES=ts_ex4 ROUNDS=2 bash bench/run_tutorials.sh "$O/ts" | tail -12
source bench/session.sh "$O"
f=.bench-data/ckt11752_dc_1.mtx.gz,.bench-data/cage11.mtx.gz,.bench-data/wing.mtx.gz
for r in 1 2; do
  v=; [ $r = 2 ] && v="-mat_view ::ascii_info"
  timeout 100 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite lap3d40 -f $f -csv "$O/spmv-$r.csv" $v > "$O/spmv-$r.txt" 2>&1; echo "bench_spmv $r exit $?"
  sed -n '/^==== results/,/^Speedup/p' "$O/spmv-$r.txt"
done
gzip -9 "$O"/spmv-*.txt
