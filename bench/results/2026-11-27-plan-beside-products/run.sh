#!/usr/bin/env bash
# One GPU (carry .petsc-cuda and .bench-data-sub.tar.xz).  run.sh OUTDIR [STEP...], default: build kernels tests convert
#   build     the library, tests and benchmarks (bench/results/2026-11-25-h100-verify/run.sh build)
#   kernels   test_kernels (its planner-thread case polls the new done flag)
#   tests     the suite's beside, spmv and coo tests
#   suite     the whole suite
#   convert   bench_convert: from an aijcusparse matrix on the GPU to 20 products, aijcusparse against aijtuned
#             planning first and planning beside the products, on 4 generated matrices and 9 medium files
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [STEP...]}; shift
steps=${*:-build kernels tests convert}
V=bench/results/2026-11-25-h100-verify/run.sh
if [ ! -d .bench-data ] && [ -f .bench-data-sub.tar.xz ]; then
  mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx
fi
for s in $steps; do
  case $s in
  build|kernels|suite) bash $V "$O/v" $s ;;
  tests) bash $V "$O/v" suite=beside suite=spmv suite=coo ;;
  convert)
    source bench/session.sh "$O"
    timeout 400 build-cuda/bench/bench_convert -suite circuit,box27,lap3d,rmat -dir .bench-data -reps 5 -count 20 > "$out/convert.txt" 2>&1; echo "bench_convert exit $?"
    grep -E "aijtuned|summary" "$out/convert.txt"
    timeout 60 build-cuda/bench/bench_convert -suite circuit,box27 -reps 1 -info :mat 2>&1 | grep -E "^\[|Planning beside|planner beside the products ended" > "$out/convert-info.txt"
    tail -12 "$out/convert-info.txt" ;;
  *) echo "run.sh: unknown step $s"; exit 2 ;;
  esac
done
