#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: build the library, bench_spmv and the CUPTI tracer,
# then trace bench_spmv's new-values rounds (MatScale twice and a product, among others) on lap3d40 (DIA, coded) and
# GT01R (one CSR strip): kernels and runtime calls (r/t.*.txt.gz), and the plain run beside it (r/plain.txt).
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
args="-suite lap3d40 -f .bench-data/GT01R.mtx.gz -reps 50 -plan_reps 1 -values_reps 9 -setup_reps 0"
timeout 200 build-cuda/bench/bench_spmv $args > "$R/plain.txt" 2>&1; echo "plain exit $?"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 200 build-cuda/bench/bench_spmv $args > "$R/traced.txt" 2>&1; echo "traced exit $?"
grep -E "new values" "$R/plain.txt" "$R/traced.txt"
gzip -9 "$R"/t.*.txt
stamp done
(cd "$O" && tar czf r.tgz r && rm -rf r)
