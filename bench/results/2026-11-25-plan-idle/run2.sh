#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run2.sh OUTDIR: bench_plan_gpu on the generated matrices over 1M entries,
# plans back to back (idle 0), then each plan and each of 9 products after 50 ms of GPU idle.
set -uo pipefail
O=${1:?usage: run2.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/idle2"
trap 'tar czf "$O/idle2.tar.gz" -C "$O" idle2' EXIT
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 build-cuda/bench/bench_plan_gpu > "$out/make.log" 2>&1 || { tail -n 20 "$out/make.log"; exit 1; }
stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
M="lap2d lap3d box27 elast rmat circuit lp random"
for idle in 0 50; do
  timeout 200 build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 -idle_ms $idle $M > "$out/plan_gpu-idle$idle.txt" 2>&1
  stamp "idle $idle: rc $?"
done
cat "$out"/plan_gpu-idle*.txt
