#!/usr/bin/env bash
# One H200 (carry .petsc-cuda, .bench-data): the shipped H200 model against today's kernels, timed on the
# device alone (bench_model's default, kernels/hold.h), over the generated suite and the medium files.
# OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h200-model-held/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib tools bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$R/run.txt"
cp models/NVIDIA-H200.model "$R/shipped.model"
timeout 200 build-cuda/bench/bench_model -model "$R/shipped.model" -dir .bench-data -csv "$R/model-shipped.csv" > "$R/model-shipped.txt" 2>&1
stamp "bench_model (shipped) exit $?"; sed -n "/^summary over/,\$p" "$R/model-shipped.txt"
grep "PLUB" "$R/model-shipped.txt" | grep -v "^ " | sed 's/ us, tuned.*best measured/ best/;s/; rules.*//'
gzip -9 "$R/model-shipped.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
