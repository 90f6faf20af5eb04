#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  aslr.sh OUTDIR [RUNS]: is a process's planning speed set by
# where its memory lands?  RUNS (default 4) processes with address-space randomization off (setarch -R)
# and as many with it on, alternately, each bench_spmv on circuit and three files with every GPU pass
# timed (AIJT_PLAN_GPU_TRACE=1); everything in OUTDIR/aslr.tar.gz, the planning lines in its planning.txt.
set -uo pipefail
O=${1:?usage: aslr.sh OUTDIR [RUNS]}; RUNS=${2:-4}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/aslr"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
[ -x build-cuda/bench/bench_spmv ] || make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 all bench > "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
D=.bench-data; F=$D/actor_movie_incidence.mtx.gz,$D/memplus.mtx.gz,$D/ckt11752_dc_1.mtx.gz
for i in $(seq 1 "$RUNS"); do
  for v in fixed random; do
    pre=env; [ $v = fixed ] && pre="setarch $(uname -m) -R"
    AIJT_PLAN_GPU_TRACE=1 $pre timeout 60 build-cuda/bench/bench_spmv -suite circuit -f $F -reps 5 -plan_reps 9 > "$out/trace-$v$i.txt" 2>&1
    grep "planning:" "$out/trace-$v$i.txt" | sed "s/^/$v$i /" >> "$out/planning.txt"
    gzip -9 "$out/trace-$v$i.txt"
  done
  stamp "round $i"
done
awk '{print $2, $1, $11}' "$out/planning.txt" | sort | awk '{a[$1]=a[$1]" "$2"="$3} END {for (k in a) print k a[k]}'
tar czf "$O/aslr.tar.gz" -C "$O" aslr && rm -rf "$out"
