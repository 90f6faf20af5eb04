#!/usr/bin/env bash
# One H200, nothing carried.  run2.sh OUTDIR: floor2.cu built and run in three processes -> OUTDIR/floor2.txt
set -uo pipefail
O=${1:?usage: run2.sh OUTDIR}; mkdir -p "$O"
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../.." || exit 1
nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan "$here/floor2.cu" kernels/coo_tail.cu kernels/dia_codes.cu src/mat/impls/tuned/plan/*.c -o /tmp/floor2 2> "$O/build.txt" || { tail "$O/build.txt"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | tee "$O/floor2.txt"
for p in 1 2 3; do echo "== process $p"; /tmp/floor2 3000; done 2>&1 | tee -a "$O/floor2.txt"
