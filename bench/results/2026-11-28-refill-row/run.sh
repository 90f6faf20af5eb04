#!/usr/bin/env bash
# Call 1: the build, test_kernels and the suite at this tree, then circuit's refill kernels under the CUPTI tracer
# against build/ab-base.tgz (07212fe, the batched loops written twice).  Carry .petsc-cuda, build/ab-base.tgz.
#   bash bench/results/2026-11-28-refill-row/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels suite
bash bench/results/2026-11-28-sell-refill/run-trace.sh "$O/t" 1
