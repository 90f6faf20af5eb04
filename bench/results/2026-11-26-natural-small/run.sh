#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR: the small files where sellcuda leads,
# with aijtuned's default plan and with plans in natural order (no row order, so no row index per row).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
stamp build
F=$(for m in bcsstk16 GT01R wing luxembourg_osm memplus cage11 ct2010 ckt11752_dc_1; do printf '.bench-data/%s.mtx.gz,' $m; done)
for v in default "natural-csr:-mat_aijtuned_sort 0 -mat_aijtuned_formats csr" "natural:-mat_aijtuned_sort 0" default2; do
  name=${v%%:*}; opts=; [ "$name" != "$v" ] && opts=${v#*:}
  timeout 100 build-cuda/bench/bench_spmv -suite lap3d40 -f ${F%,} -reps 100 $opts -mat_view ::ascii_info > "$out/$name.txt" 2>&1; echo "$name exit $?"
  sed -n '/^==== results/,/^Speedup/p' "$out/$name.txt" | awk 'NR>3 && NF>10 {print $1, "cusp", $6, "sell", $7, "tuned", $8, "| vs sell", $(NF-7), "strips", $(NF-4)}'
  stamp "$name"
done
