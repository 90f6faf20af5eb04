#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the fused kernel's occupancy.  The library built three ways
# (registers as ptxas chooses them, capped for 3 and for 4 blocks of 512 per multiprocessor), bench_spmv
# over the irregular matrices and the files with each, then ncu on actor_movie_incidence (aijtuned's kernel and cuSPARSE's).
# Everything lands in OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-occupancy/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
commit_line >> "$R/run.txt"
build() {
  local v=$1 X= B=build-cuda
  case $v in m3) X=-DAIJT_FUSED_MIN_BLOCKS=3 ;; m4) X=-DAIJT_FUSED_MIN_BLOCKS=4 ;; esac
  [ $v = base ] || B=build-$v
  MAKEFLAGS=-j6 make BUILD=$B NVFLAGS_EXTRA="$X -Xptxas -v" $B/bench/bench_spmv > "$R/make-$v.log" 2>&1 || { tail -30 "$R/make-$v.log"; return 1; }
  grep -A3 "Compiling entry.*fused" "$R/make-$v.log" | grep -oE "fused_spmv_kernelILb.ELb.|[0-9]+ bytes spill stores|Used [0-9]+ registers" | paste - - - - > "$R/regs-$v.txt"; rm -f "$R/make-$v.log"
}
build base & build m3 & build m4 & wait
stamp "built"; head "$R"/regs-*.txt
SUITE="-suite elast,rmat,circuit,lp,random,lap3d40 -dir .bench-data"
for round in 1 2; do
  for v in base m3 m4; do
    B=build-cuda; [ $v = base ] || B=build-$v
    timeout 150 $B/bench/bench_spmv -reps 100 -warmup 5 $SUITE -csv "$R/spmv-$v-$round.csv" > "$R/spmv-$v-$round.txt" 2>&1; echo "bench_spmv $v $round exit $?"
    stamp "spmv $v $round"
  done
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
A=.bench-data/actor_movie_incidence.mtx.gz
for v in base m4; do
  B=build-cuda; [ $v = base ] || B=build-$v
  timeout 150 $NCU --clock-control none -k regex:'fused_spmv|csrmv|spmv' --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
    $B/bench/bench_spmv -reps 1 -warmup 0 -suite none -f $A > "$R/ncu-actor-$v.txt" 2>&1; echo "ncu $v exit $?"
  stamp "ncu $v"
done
gzip -9 "$R"/ncu-*.txt "$R"/spmv-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
