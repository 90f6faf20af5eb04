#!/usr/bin/env bash
# Device memory, aijcusparse against aijtuned, stage by stage (bench/bench_memory.c).  One GPU; carry .petsc-cuda
# and .bench-data.tar.xz.   bash bench/results/2026-11-28-memory/run.sh OUTDIR [bench_memory options...]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [options]}; shift
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build || exit 1
source bench/session.sh "$O"
files=$(ls .bench-data/actor_movie_incidence.mtx* .bench-data/soc-Slashdot0902.mtx* 2>/dev/null | paste -sd,)
timeout 300 build-cuda/bench/bench_memory -suite lap3d,circuit,rmat,elast,random ${files:+-f $files} "$@" > "$out/memory.txt" 2>&1
echo "bench_memory exit $?" | tee -a "$out/run.txt"
cat "$out/memory.txt"
