#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): as ../2026-11-22-h100-plan-cuts, after the diagonal test
# stops probing a set that is past the limit, plus a CUPTI timeline (runtime calls too) of circuit's and
# actor_movie_incidence's plannings inside PETSc.  Everything lands in OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-plan-cuts2/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"; stamp "built"
T=$PWD/build-cuda/tools/libcuptitrace.so
P="build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model"
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/k" AIJT_TRACE_NO_API=1 timeout 100 $P -reps 3 lap2d lap3d box27 circuit rmat > "$R/k.txt" 2>&1
zcat -f "$R"/k.*.txt | awk '$1=="K" && /diagonals_kernel/ {printf "%.1f ", ($3-$2)/1e3} END {print ""}' | tee "$R/diag.txt"; gzip -9 "$R"/k.*.txt
timeout 120 $P -reps 9 > "$R/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"; cat "$R/plan_gpu.txt"; stamp "plan_gpu"
timeout 200 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"; stamp "spmv"
grep -A40 "^matrix  " "$R/spmv.txt" | tail -45
A=.bench-data/actor_movie_incidence.mtx.gz
timeout 100 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -suite circuit,circuit -f $A,$A -csv "$R/twice.csv" > "$R/twice.txt" 2>&1; echo "twice exit $?"; grep -A6 "^matrix  " "$R/twice.txt" | tail -5; stamp "twice"
CUDA_INJECTION64_PATH=$T AIJT_TRACE="$R/tactor" timeout 100 build-cuda/bench/bench_spmv -reps 50 -warmup 5 -suite circuit -f $A,$A > "$R/tactor.txt" 2>&1; gzip -9 "$R"/tactor.*.txt; stamp "traced actor"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
rm -f "$R/suite.txt"; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"; rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
