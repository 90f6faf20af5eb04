#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR: build the library, the benchmarks and the CUPTI
# tracer; bench_coo (with its "again" phase: new values and a product once the kernels are loaded, a Newton step's)
# on circuit, lap3d, lap3d40 and the medium files, 5 rounds; then bench_coo traced (kernels and runtime calls) on
# lap3d40 and circuit, 2 rounds.  OUTDIR/t.tgz holds the traces.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
T=$O/t
mkdir -p "$T"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$O/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench cuptitrace > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
rm -f "$O/make.log"; stamp built
timeout 240 build-cuda/bench/bench_coo -suite circuit,lap3d,lap3d40 -dir .bench-data -reps 5 > "$O/coo.txt" 2>&1; echo "bench_coo exit $?" | tee -a "$O/run.txt"
grep -E "new values|again|geomean" "$O/coo.txt"
stamp coo
for m in lap3d40 circuit; do
  env CUDA_INJECTION64_PATH="$PWD/build-cuda/tools/libcuptitrace.so" AIJT_TRACE="$T/$m" timeout 100 build-cuda/bench/bench_coo -suite $m -reps 2 > "$T/$m.txt" 2>&1; echo "traced $m exit $?"
done
gzip -9 "$T"/*.*.txt
stamp traced
(cd "$O" && tar czf t.tgz t && rm -rf t)
