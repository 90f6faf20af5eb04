#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: planning of box27, lap3d and circuit outside PETSc with the
# GPU left idle 0, 50 and 500 ms before each plan (bench_plan_gpu -idle_ms), then inside PETSc
# (bench_spmv, 15 assemblies each), with the SM clock sampled every 20 ms throughout (clocks.csv).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/idle"
trap 'kill $smi 2>/dev/null; gzip -9 "$out/clocks.csv"; tar czf "$O/idle.tar.gz" -C "$O" idle' EXIT
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib bench > "$out/make.log" 2>&1 || { tail -n 20 "$out/make.log"; exit 1; }
stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate --format=csv -lms 20 > "$out/clocks.csv" 2>&1 & smi=$!
for idle in 0 50 500; do
  stamp "bench_plan_gpu idle $idle"
  timeout 150 build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 -idle_ms $idle box27 lap3d circuit > "$out/plan_gpu-idle$idle.txt" 2>&1
done
stamp "bench_spmv"
timeout 200 build-cuda/bench/bench_spmv -suite box27,lap3d,circuit -reps 50 -plan_reps 15 -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1
stamp done
for f in "$out"/plan_gpu-idle*.txt; do echo "== $(basename $f)"; grep -v "^#" "$f" | awk '{print $1, $5, $8, $12, $14}'; done | tee "$out/summary.txt"
grep "planning:" "$out/spmv.txt" | tee -a "$out/summary.txt"
