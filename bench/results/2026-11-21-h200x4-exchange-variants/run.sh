#!/usr/bin/env bash
# 4 H200s (carry .petsc-cuda): the peer exchange's stream arrangements under CUDA's default connections, each
# selected by an environment variable of variants.patch (an experiment, not committed code):
#   cur      the committed order: D on S first, pack and copies on the high-priority second stream T
#   low      the same with T at the default priority (AIJT_EXP_LOWPRIO=1)
#   packS    pack on S before D; copies on T (AIJT_EXP=packS)
#   oneS     no second stream: pack on S before D, copies on S after D (AIJT_EXP=oneS)
#   cur1     cur with CUDA_DEVICE_MAX_CONNECTIONS=1 (the reference)
# weak Poisson, 4.1M rows per rank, aijtuned only, -reps 100; 1 rank for the baseline; two interleaved rounds.
#   usage: bash bench/results/2026-11-21-h200x4-exchange-variants/run.sh OUTDIR
set -uo pipefail
R=${1:?usage: run.sh OUTDIR}
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > "$R/setup.log" 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
stamp "built"
S="-weak 160 -strong 0 -irregular none -types aijtuned -reps 100 -warmup 10 -ksp 0"
M="timeout 100 mpiexec --oversubscribe --bind-to none"
for round in 1 2; do
  $M -n 1 build-cuda/bench/bench_scaling $S > "$R/one-$round.txt" 2>&1
  echo "one rank, round $round: $(grep -E '^aijtuned' "$R/one-$round.txt")"
  for v in cur low packS oneS cur1; do
    x=""
    case $v in
      low) x="-x AIJT_EXP_LOWPRIO=1" ;;
      packS) x="-x AIJT_EXP=packS" ;;
      oneS) x="-x AIJT_EXP=oneS" ;;
      cur1) x="-x CUDA_DEVICE_MAX_CONNECTIONS=1" ;;
    esac
    $M -n 4 $x build-cuda/bench/bench_scaling $S > "$R/$v-$round.txt" 2>&1
    echo "$v, round $round: $(grep -E '^aijtuned' "$R/$v-$round.txt")"
  done
done
stamp "done"
