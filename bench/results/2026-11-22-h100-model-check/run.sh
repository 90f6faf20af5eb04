#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the performance model against today's kernels.  bench_model on
# the generated suite and the medium files with the shipped model (models/NVIDIA-H100-80GB-HBM3.model,
# calibrated before most of the kernels' changes), then aijt_calibrate afresh and bench_model with the new
# model, in one lease.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-model-check/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib tools bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
cp models/NVIDIA-H100-80GB-HBM3.model "$R/shipped.model"
summary() { sed -n "/^summary over/,\$p" "$1"; }
timeout 240 build-cuda/bench/bench_model -model "$R/shipped.model" -dir .bench-data -csv "$R/model-shipped.csv" > "$R/model-shipped.txt" 2>&1
stamp "bench_model (shipped model) exit $?"; summary "$R/model-shipped.txt"
timeout 200 build-cuda/tools/aijt_calibrate -o "$R/new.model" > "$R/calibrate.txt" 2>&1
stamp "calibrated exit $?"; tail -3 "$R/calibrate.txt"
timeout 240 build-cuda/bench/bench_model -model "$R/new.model" -dir .bench-data -csv "$R/model-new.csv" > "$R/model-new.txt" 2>&1
stamp "bench_model (new model) exit $?"; summary "$R/model-new.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
