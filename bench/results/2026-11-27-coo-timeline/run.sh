#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR: build the library, the benchmarks and the CUPTI
# tracer, then trace (kernels and runtime calls) bench_coo on circuit (a matrix assembled on the GPU, 3 rounds) and
# bench_spmv's plannings of circuit (5 assemblies beside the upload, 5 before it), and read each planning's timeline
# with ../2026-11-27-plan-timeline/plan_timeline.py.  OUTDIR/r.tgz holds the traces.
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
T="CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so"
env $T AIJT_TRACE="$R/coo" timeout 200 build-cuda/bench/bench_coo -suite circuit -reps 3 > "$R/coo.txt" 2>&1; echo "coo exit $?"
env $T AIJT_TRACE="$R/spmv" timeout 200 build-cuda/bench/bench_spmv -suite circuit -reps 20 -warmup 2 -plan_reps 5 -values_reps 0 -setup_reps 0 > "$R/spmv.txt" 2>&1; echo "spmv exit $?"
grep -E "planning" "$R/coo.txt" "$R/spmv.txt"
for f in "$R"/coo.*.txt "$R"/spmv.*.txt; do python3 bench/results/2026-11-27-plan-timeline/plan_timeline.py -v "$f" > "$f.timeline"; done
grep -E "^  #|plannings" "$R"/*.timeline | head -40
gzip -9 "$R"/coo.*.txt "$R"/spmv.*.txt
stamp done
(cd "$O" && tar czf r.tgz r && rm -rf r)
