#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: build the library, bench_spmv and the CUPTI
# tracer, then trace bench_spmv (kernels and runtime calls) on circuit, actor_movie_incidence and lap3d, 5
# plannings each, and read each planning's timeline (plan_timeline.py).  OUTDIR/r.tgz holds the traces.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$R"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$R/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp built
args="-suite circuit,lap3d -f .bench-data/actor_movie_incidence.mtx.gz -reps 50 -warmup 2 -plan_reps 5 -values_reps 0"
timeout 200 build-cuda/bench/bench_spmv $args > "$R/plain.txt" 2>&1; echo "plain exit $?"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 200 build-cuda/bench/bench_spmv $args > "$R/traced.txt" 2>&1; echo "traced exit $?"
grep -E "planning:" "$R/plain.txt" "$R/traced.txt"
python3 bench/results/2026-11-27-plan-timeline/plan_timeline.py -v "$R"/t.*.txt > "$R/timeline.txt"
grep -E "^  #|plannings" "$R/timeline.txt"
gzip -9 "$R"/t.*.txt
stamp done
(cd "$O" && tar czf r.tgz r && rm -rf r)
