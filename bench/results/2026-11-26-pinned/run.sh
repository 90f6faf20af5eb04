#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR:
#   the verify script's build, suite and spmv steps (new host values page-locked from 8 MiB, the default), then
#   bench_spmv on the generated matrices again with -mat_aijtuned_pin_mib -1 (the pageable copies, as before) and
#   with the default, alternately, in separate processes: the same process order for both settings.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite spmv
source bench/session.sh "$O"
for pin in -1 8; do
  timeout 120 build-cuda/bench/bench_spmv -reps 50 -warmup 5 -suite lap2d,lap3d,box27,elast,rmat,circuit,lp,random -values_reps 3 -mat_aijtuned_pin_mib $pin -csv "$O/values-pin$pin.csv" > "$O/values-pin$pin.txt" 2>&1; echo "bench_spmv pin $pin exit $?"
  grep "new values: assembly" "$O/values-pin$pin.txt"
done
tar czf "$O/values.tar.gz" -C "$O" $(cd "$O" && ls values-pin*) && (cd "$O" && rm -f values-pin*)
