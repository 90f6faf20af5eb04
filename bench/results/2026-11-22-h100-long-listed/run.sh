#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): planning with the long values listed with the statistics up
# to 8192 (listed.patch) against the tree without it (the patch reversed), in the same lease:
# bench_plan_gpu over the generated suite, two rounds each; a CUPTI timeline with runtime calls of the new
# code's circuit and rmat plans; then the whole suite and test_kernels on the new code, and bench_spmv over the
# generated suite and the medium files.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-long-listed/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-long-listed
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude='./build*' --exclude=./.git -cf - . | tar -C /tmp/old -xf - && (cd /tmp/old && patch -s -R -p1 < $D/listed.patch) || { echo "old tree failed"; exit 1; }
make BUILD=build-cuda all bench bench-plan-gpu cuptitrace > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/old && make BUILD=build-cuda bench-plan-gpu > "$R/make-old.log" 2>&1) || { tail -30 "$R/make-old.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
for round in 1 2; do
  for v in new old; do
    dir=.; [ $v = old ] && dir=/tmp/old
    (cd $dir && timeout 100 build-cuda/bench/bench_plan_gpu -reps 9) > "$R/plan_gpu-$v-$round.txt" 2>&1; echo "plan_gpu $v $round exit $?"
  done
done
for f in "$R"/plan_gpu-*.txt; do echo "== $f"; awk 'NR>2{print $1, $6, $8, $12, $14}' "$f"; done
stamp "plan_gpu"
CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$R/t" timeout 100 build-cuda/bench/bench_plan_gpu -reps 3 circuit rmat > "$R/t.txt" 2>&1
gzip -9 "$R"/t.*.txt; stamp "trace"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) & timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait )
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"; grep -A8 "^not ok" "$R/suite.txt" | head -40 > "$R/failures.txt"; cat "$R/failures.txt"
echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"; grep -B4 "^FAIL" "$R/kernels.txt" | head -30
gzip -9 "$R/suite.txt"; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"
timeout 120 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$R/spmv.csv" > "$R/spmv.txt" 2>&1; echo "bench_spmv exit $?"
sed -n '/^==== results/,$p' "$R/spmv.txt" | tail -32; gzip -9 "$R/spmv.txt"
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
