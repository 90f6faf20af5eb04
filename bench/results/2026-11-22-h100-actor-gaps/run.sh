#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): where actor_movie_incidence's product time goes inside PETSc.
# bench_spmv untraced (the model's plan, the rules' plan), the same under the CUPTI tracer with kernels only
# (gaps.py: each kernel's duration and the idle gap between back-to-back launches), and bench_model on the
# matrix held and host-paced.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-actor-gaps/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda lib bench cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
S="build-cuda/bench/bench_spmv -reps 200 -warmup 10 -plan_reps 1 -suite none -f $A"
for v in model rules; do
  for round in 1 2; do
    timeout 60 $S -mat_aijtuned_planner $v > "$R/spmv-$v-$round.txt" 2>&1
    printf '%-6s %s\n' $v "$(grep -E '^\[actor_movie_incidence\] (aijcusparse|aijtuned|csr_alg1) ' "$R/spmv-$v-$round.txt" | awk '{printf "%s %s  ", $2, $3}')" | tee -a "$R/spmv.txt"
  done
  CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t-$v" AIJT_TRACE_NO_API=1 timeout 60 $S -mat_aijtuned_planner $v > "$R/tspmv-$v.txt" 2>&1
  python3 bench/results/2026-11-22-h100-actor-gaps/gaps.py "$R"/t-$v.*.txt | tee -a "$R/gaps.txt"
done
for held in 1 0; do
  timeout 60 build-cuda/bench/bench_model -model models/NVIDIA-H100-80GB-HBM3.model -suite none -f $A -reps 200 -held $held > "$R/model-held$held.txt" 2>&1
  grep -E "^\[actor_movie_incidence\] (model|rules|csr) " "$R/model-held$held.txt" | sed "s/^/held $held /" | tee -a "$R/model.txt"
done
gzip -9 "$R"/t-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
