#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  run.sh OUTDIR: this tree with the planner's steps timed
# (instr_steps.py on a copy of the tree), then bench_spmv's planning on the generated suite and the medium files:
# -plan_reps 9, so that each matrix is planned 9 times beside the upload, then 9 times alone
# (-mat_aijtuned_plan_beside_upload 0), each planning printing its steps to stderr (spmv.txt).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
rm -rf /tmp/steps && mkdir -p /tmp/steps && git ls-files -z | grep -zv '^bench/results\|^tests/data' | xargs -0 cp --parents -t /tmp/steps
python3 "$here/instr_steps.py" /tmp/steps/src/mat/impls/tuned/plan || exit 1
(cd /tmp/steps && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib bench > make.log 2>&1) || { tail -20 /tmp/steps/make.log; exit 1; }
stamp built
timeout 300 /tmp/steps/build-cuda/bench/bench_spmv -plan_reps 9 -values_reps 0 -setup_reps 0 -reps 50 -copy_mib 64 -dir .bench-data > "$out/spmv.txt" 2>&1; stamp "bench_spmv exit $?"
grep -E "planning" "$out/spmv.txt" | head -60
sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
gzip -9f "$out/spmv.txt"
