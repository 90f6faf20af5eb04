#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): actor_movie_incidence's product under plan options (bench_spmv,
# each variant its own process), then a CUPTI timeline with runtime calls of box27's and lap2d's plans
# inside bench_spmv, and the planner's passes (AIJT_PLAN_GPU_TRACE=1) on box27, lap2d, circuit.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-actor-variants/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
S="build-cuda/bench/bench_spmv -reps 200 -warmup 10 -plan_reps 1 -suite none -f $A"
i=0
while IFS= read -r v; do
  i=$((i + 1))
  timeout 60 $S $v > "$R/v$i.txt" 2>&1
  printf '%-70s %s\n' "v$i: ${v:-default}" "$(grep -E '^\[actor_movie_incidence\] (aijcusparse|aijtuned|csr_alg1) ' "$R/v$i.txt" | awk '{printf "%s %s  ", $2, $3}')" | tee -a "$R/variants.txt"
done <<'VARIANTS'

-mat_aijtuned_col_order degree
-mat_aijtuned_col_order degree -mat_aijtuned_col_hot_degree 0
-mat_aijtuned_formats csr
-mat_aijtuned_formats sell
-mat_aijtuned_formats csr,long
-mat_aijtuned_formats sell,long,coo
-mat_aijtuned_sort 0
-mat_aijtuned_planner rules
-mat_aijtuned_tune 1
-mat_aijtuned_sell_chunk 16
-mat_aijtuned_sell_chunk 64
-mat_aijtuned_formats csr -mat_aijtuned_col_order degree
VARIANTS
timeout 60 $S -mat_view ::ascii_info > "$R/view.txt" 2>&1
stamp "variants"
AIJT_PLAN_GPU_TRACE=1 timeout 120 build-cuda/bench/bench_spmv -reps 20 -plan_reps 3 -suite box27,lap2d,circuit > "$R/passes.txt" 2>&1; grep -E "planning:|aijt_dev_plan_model" "$R/passes.txt" | tail -60
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 120 build-cuda/bench/bench_spmv -reps 20 -plan_reps 3 -suite box27,lap2d > "$R/t.txt" 2>&1
grep "planning:" "$R/t.txt"; gzip -9 "$R"/t.*.txt "$R"/v*.txt "$R/passes.txt"; stamp "trace"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
