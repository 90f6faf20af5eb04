#!/usr/bin/env bash
# make install on the GPU machine: the whole suite (its 'installed' test loads build-cuda/install's copy), then a
# copy installed elsewhere, run with the source tree's models moved away.  run: bash run.sh OUTDIR (carry .petsc-cuda)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build suite
source bench/session.sh "$O"
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda install PREFIX=/tmp/aijt-prefix > "$out/install.log" 2>&1; stamp "make install PREFIX=/tmp/aijt-prefix: exit $?"
(cd /tmp/aijt-prefix && find . -type f | sort) | tee -a "$out/run.txt"
mv models models.away
args="-dll_append /tmp/aijt-prefix/lib/libaijtuned.so -mat_type aijtuned -vec_type cuda -m 200 -n 200 -ksp_monitor_short -info"
build-cuda/tests/petsc/ksp_ex2 $args > "$out/ex2-installed.txt" 2>&1; stamp "ex2 with the installed library, the tree's models away: exit $?"
grep -h "aijtuned: .*model\|Norm of error" "$out/ex2-installed.txt" | sed 's/^.*aijtuned:/aijtuned:/' | tee -a "$out/run.txt"
build-cuda/tests/petsc/ksp_ex2 ${args/-mat_type aijtuned/-mat_type aijcusparse} > "$out/ex2-aijcusparse.txt" 2>&1; stamp "ex2 aijcusparse: exit $?"
grep -h "Norm of error" "$out/ex2-aijcusparse.txt" | tee -a "$out/run.txt"
mv models.away models
gzip -9f "$out"/*.txt "$out"/*.log; gunzip "$out/run.txt.gz"
