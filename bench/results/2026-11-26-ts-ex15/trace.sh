#!/usr/bin/env bash
# One GPU, after run.sh built build-cuda (carry .petsc-cuda).  trace.sh OUTDIR: ex15 -Jtype 1 with aijtuned under
# ../2026-11-26-gpu-sweep/diag/segvtrace.c (PETSc's own handler off), each frame named by addr2line.
set -uo pipefail
O=${1:?usage: trace.sh OUTDIR}; mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -x build-cuda/tutorials/ts/tutorials/ex15 ] || make BUILD=build-cuda lib build-cuda/tutorials/ts/tutorials/ex15 > "$O/make.log" 2>&1 || exit 1
cc -shared -fPIC -o /tmp/segvtrace.so bench/results/2026-11-26-gpu-sweep/diag/segvtrace.c
LD_PRELOAD=/tmp/segvtrace.so timeout 60 build-cuda/tutorials/ts/tutorials/ex15 -da_grid_x 20 -da_grid_y 20 -boundary 0 -ts_max_steps 10 -ts_monitor ${JTYPE:--Jtype 1} -mat_type aijtuned -dll_append $PWD/build-cuda/lib/libaijtuned.so -no_signal_handler ${EXTRA:-} > "$O/trace.txt" 2>&1; echo "exit $?"
cat "$O/trace.txt" | head -40
grep -oE "^[^ ]+\(\+0x[0-9a-f]+\)" "$O/trace.txt" | while IFS= read -r f; do
  lib=${f%%(*}; off=${f#*(+}; off=${off%)}
  echo "$f: $(addr2line -f -C -e "$lib" "$off" 2>/dev/null | head -1)"
done | tee "$O/frames.txt"
