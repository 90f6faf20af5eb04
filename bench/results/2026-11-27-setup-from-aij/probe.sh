#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  probe.sh OUTDIR [MATRIX...]: bench_spmv -setup_reps 3 on each
# matrix (default box27 rmat circuit lap2d) under the CUPTI tracer (kernels, copies, runtime calls), and the set-up
# kernels' times read from each timeline (build_kernels.py).  OUTDIR/r.tgz.
set -uo pipefail
O=${1:?usage: probe.sh OUTDIR [MATRIX...]}; shift
mats=${*:-box27 rmat circuit lap2d}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$R"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench cuptitrace > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
for m in $mats; do
  CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$out/t-$m" timeout 120 build-cuda/bench/bench_spmv -suite $m -reps 50 -warmup 2 -plan_reps 1 -values_reps 0 -setup_reps 3 > "$out/traced-$m.txt" 2>&1; echo "$m traced exit $?"
  grep -E "^\[$m\] from an assembled" "$out/traced-$m.txt"
  python3 bench/results/2026-11-27-setup-from-aij/build_kernels.py "$out"/t-$m.*.txt | tee -a "$out/build_kernels.txt"
done
gzip -9 "$out"/t-*.txt "$out"/traced-*.txt
stamp done
(cd "$O" && tar czf r.tgz r && rm -rf r)
