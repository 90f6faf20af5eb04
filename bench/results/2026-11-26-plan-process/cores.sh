#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  cores.sh OUTDIR: why one process plans faster than the next.
# The machine's topology, then bench_spmv's planning (median of 9 assemblies inside PETSc) on circuit and
# three files, in processes pinned to one core each (taskset), two rounds, and unpinned; one line per
# matrix and process in OUTDIR/planning.txt.
set -uo pipefail
O=${1:?usage: cores.sh OUTDIR}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
[ -x build-cuda/bench/bench_spmv ] || make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 all bench > "$out/make.log" 2>&1 || { tail -20 "$out/make.log"; exit 1; }
{ lscpu; command -v numactl > /dev/null && numactl -H; nvidia-smi topo -m; cat /sys/class/pci_bus/*/device/numa_node 2>/dev/null | sort | uniq -c; } > "$out/topology.txt" 2>&1
D=.bench-data; F=$D/actor_movie_incidence.mtx.gz,$D/memplus.mtx.gz,$D/ckt11752_dc_1.mtx.gz
ncpu=$(nproc)
run() { # tag, then the command's prefix
  local tag=$1; shift
  "$@" timeout 60 build-cuda/bench/bench_spmv -suite circuit -f $F -reps 5 -plan_reps 9 > "$out/spmv-$tag.txt" 2>&1
  grep "planning:" "$out/spmv-$tag.txt" | sed "s/^/$tag /" >> "$out/planning.txt"
}
stamp start
for round in 1 2; do
  for c in 0 $((ncpu / 4)) $((ncpu / 2)) $((3 * ncpu / 4)) $((ncpu - 1)); do run "r$round-core$c" taskset -c $c; done
  run "r$round-free" env
  stamp "round $round"
done
awk '{print $1, $2, $11}' "$out/planning.txt" | sort -k2,2 -k1,1 | column -t
gzip -9 "$out"/spmv-*.txt
tar czf "$O/cores.tar.gz" -C "$O" "$(basename "$out")" && rm -rf "$out"
