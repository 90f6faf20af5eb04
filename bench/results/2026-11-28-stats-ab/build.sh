#!/bin/bash
# Builds abprobe into $1 (default /tmp/probe): the planner (C), the kernels it needs (stage.cu, devcopy.cu), the
# generators, and abprobe.cu, which includes kernels/plan_gpu.cu.  No PETSc.
set -e
cd "$(dirname "$0")/../../.."
B=${1:-/tmp/probe}; mkdir -p $B
P=src/mat/impls/tuned/plan
F="-arch=sm_90 -O3 -std=c++17 -lineinfo -Ikernels -I$P -Ibench/gen $NVEXTRA"
for c in $P/*.c bench/gen/matgen.c bench/results/2026-11-28-stats-probe/readmtx.c; do cc -std=gnu99 -O2 -fPIC -I$P -Ibench/gen -DAIJT_MODEL_DIR='"models"' -c $c -o $B/$(basename $c .c).o & done
for k in stage; do nvcc $F -c kernels/$k.cu -o $B/k_$k.o & done
wait
nvcc $F bench/results/2026-11-28-stats-ab/abprobe.cu $B/*.o -o $B/abprobe
