#!/usr/bin/env bash
# One H200 (carry .petsc-cuda, .bench-data): the H200 model recalibrated with held timing (kernels/hold.h).
# aijt_calibrate afresh, then bench_model with the new model, then with the shipped one, in one lease.
# OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h200-model-recal/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib tools bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
cp models/NVIDIA-H200.model "$R/shipped.model"
summary() { sed -n "/^summary over/,\$p" "$1"; }
timeout 200 build-cuda/tools/aijt_calibrate -o "$R/new.model" > "$R/calibrate.txt" 2>&1
stamp "calibrated exit $?"; grep -E "fixed costs|warning|took" "$R/calibrate.txt"
for run in new-1 shipped; do
  m=$R/new.model; [ $run = shipped ] && m=$R/shipped.model
  timeout 130 build-cuda/bench/bench_model -model "$m" -dir .bench-data -csv "$R/model-$run.csv" > "$R/model-$run.txt" 2>&1
  stamp "bench_model ($run) exit $?"; summary "$R/model-$run.txt"
done
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
