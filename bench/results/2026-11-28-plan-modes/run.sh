#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data with actor_movie_incidence.mtx.gz).  run.sh OUTDIR
# Planning alone of actor_movie_incidence in 9 processes of one tree, one after another: three rounds of three,
# unpinned, pinned to CPU 2 and pinned to CPU 9 (taskset).  Whether a process's planning falls in one of two modes
# (about 0.21 or 0.27-0.31 ms on an H200, ../2026-11-28-kept-tables), and whether the CPU it runs on decides it.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1; nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|NUMA node\(s\)"; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
args="-suite none -f .bench-data/actor_movie_incidence.mtx.gz -plan_reps 15 -values_reps 0 -setup_reps 0 -reps 30 -copy_mib 64"
for r in 1 2 3; do
  for pin in none 2 9; do
    pre=; [ $pin = none ] || pre="taskset -c $pin"
    $pre timeout 60 build-cuda/bench/bench_spmv $args > "$out/r$r-$pin.txt" 2>&1
    echo "round $r cpu $pin: $(grep -h "before the values' upload (-mat" "$out/r$r-$pin.txt" | sed 's/.*median of 15//')" | tee -a "$out/run.txt"
  done
done
(cd "$out" && tar czf raw.tgz r*-*.txt && rm -f r*-*.txt)
stamp done
