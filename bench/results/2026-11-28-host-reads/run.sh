#!/usr/bin/env bash
# One GPU, carrying .petsc-cuda:  bash bench/results/2026-11-28-host-reads/run.sh OUTDIR
# The tree built and its whole suite; hostreads.c with aijcusparse and with aijtuned on 1 and 2 ranks, this tree's
# library and the one with fix.diff taken back; ops' tests against the latter's build.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
R=bench/results/2026-11-28-host-reads
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build suite
PV=/opt/petsc-cuda/lib/petsc/conf/petscvariables
inc=$(sed -n 's/^PETSC_CC_INCLUDES = //p' $PV); libs=$(sed -n 's/^PETSC_WITH_EXTERNAL_LIB = //p' $PV)
mpicc -O2 $inc $R/hostreads.c -o /tmp/hostreads $libs -Wl,-rpath,/opt/petsc-cuda/lib > "$O/hostreads-build.txt" 2>&1 || { cat "$O/hostreads-build.txt"; exit 1; }
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./.git . | tar xf - -C /tmp/old
(cd /tmp/old && patch -R -p1 < $R/fix.diff && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib tests) > "$O/old-build.txt" 2>&1 || { tail -20 "$O/old-build.txt"; exit 1; }
mpi="mpiexec --oversubscribe --bind-to none"
{
  for np in 1 2; do
    echo "== $np rank(s), aijcusparse"; $mpi -n $np /tmp/hostreads -type aijcusparse -use_gpu_aware_mpi 0
    echo "== $np rank(s), aijtuned (this tree)"; $mpi -n $np /tmp/hostreads -type aijtuned -dll_append $PWD/build-cuda/lib/libaijtuned.so -use_gpu_aware_mpi 0
    echo "== $np rank(s), aijtuned (fix.diff taken back)"; $mpi -n $np /tmp/hostreads -type aijtuned -dll_append /tmp/old/build-cuda/lib/libaijtuned.so -use_gpu_aware_mpi 0
  done
} > "$O/hostreads.txt" 2>&1
cat "$O/hostreads.txt"
(cd /tmp/old && timeout 200 python3 tests/run.py --build build-cuda --mpiexec "$mpi" -j 8 ops) > "$O/old-ops.txt" 2>&1
grep -E "^not ok|^ok|FAILED|passed" "$O/old-ops.txt" | head -30
