#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz, build/ab-base.tgz = the tree before the strips' buffer came from
# the stream's pool).  ab.sh OUTDIR: bench/ab.sh, 2 rounds of bench_convert (3 rounds in each process) on 4 generated
# matrices and the 9 medium files carried, base and new alternately.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR}
bash bench/ab.sh "$O" 2 '$BENCH/bench_convert -suite circuit,box27,lap3d,rmat -dir .bench-data -reps 3'
source bench/session.sh "$O"
tar xzf "$out/raw.tgz" -C /tmp && for f in /tmp/base-*.txt /tmp/new-*.txt; do echo "== $(basename $f)"; grep -E "   aijtuned|summary" "$f"; done
