#!/usr/bin/env bash
# One H200 (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR [ROUNDS]
#   1. the tree built and the whole suite (bench/results/2026-11-25-h100-verify/run.sh build suite) -> OUTDIR/v
#   2. a copy of the tree with instr_host.py's marks in MatMult's host path, the library and bench_spmv built, then
#      bench_spmv on small matrices, one process each, held (-held 1) and paced by the host, ROUNDS rounds (default
#      2) -> OUTDIR/hp/NAME-MODE-ROUND.txt: bench's lines and the marks' medians ("hostpath")
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}; R=${2:-2}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root" || exit 1
mkdir -p "$O"; O=$(cd "$O" && pwd)
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite || exit 1
source bench/session.sh "$O/hp"
rm -rf /tmp/hp && mkdir -p /tmp/hp && git ls-files -z | xargs -0 cp --parents -t /tmp/hp && python3 "$here/instr_host.py" /tmp/hp || exit 1
(cd /tmp/hp && make PETSC_DIR=/opt/petsc-cuda BUILD=build-hp lib build-hp/bench/bench_spmv > "$out/make.log" 2>&1) || { tail -30 "$out/make.log"; exit 1; }
stamp "instrumented build"
B=/tmp/hp/build-hp/bench/bench_spmv
common="-reps 2000 -warmup 20 -values_reps 0 -setup_reps 0 -plan_reps 1 -copy_mib 64"
for r in $(seq 1 "$R"); do
  for m in lap3d40 GT01R memplus cage11 ckt11752_dc_1; do
    if [ "$m" = lap3d40 ]; then src="-suite lap3d40"; else src="-suite none -f .bench-data/$m.mtx.gz"; fi
    for mode in held paced; do
      h=0; [ $mode = held ] && h=1
      LD_LIBRARY_PATH=/tmp/hp/build-hp/install/lib:/tmp/hp/build-hp/lib:${LD_LIBRARY_PATH:-} timeout 120 $B $src -held $h $common > "$out/$m-$mode-$r.txt" 2>&1
      echo "== $m $mode round $r (exit $?)"; grep -E "held:|hostpath| us   build|csr_alg|sell_alg" "$out/$m-$mode-$r.txt" | head -40
    done
  done
done 2>&1 | tee "$out/summary.txt"
stamp "held and paced runs"
