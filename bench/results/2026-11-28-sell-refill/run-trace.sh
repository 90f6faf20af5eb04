#!/usr/bin/env bash
# Which refill kernels differ: bench_spmv on circuit under the CUPTI tracer (kernels only), this tree against
# build/ab-base.tgz in alternating processes.  Carry .petsc-cuda, build/ab-base.tgz.
#   bash bench/results/2026-11-28-sell-refill/run-trace.sh OUTDIR [ROUNDS]
#   OUTDIR/traces.tgz holds the traces, tr-SIDE.PID.txt
set -uo pipefail
O=${1:?usage: run-trace.sh OUTDIR [ROUNDS]}; R=${2:-2}
mkdir -p "$O"
bash bench/ab.sh "$O" "$R" "make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda cuptitrace > /dev/null 2>&1; \
s=new; [[ \$BENCH == /tmp/* ]] && s=base; \
CUDA_INJECTION64_PATH=\$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE_NO_API=1 AIJT_TRACE=$O/tr-\$s \
\$BENCH/bench_spmv -suite circuit -reps 30 -warmup 3 -values_reps 15 -setup_reps 0 -plan_reps 1 -copy_mib 64"
(cd "$O" && tar czf traces.tgz tr-*.txt && rm -f tr-*.txt)
