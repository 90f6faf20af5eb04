#!/usr/bin/env bash
# One H100 (carry .petsc-cuda): the product in parts checked: test_kernels (windows of every format), the
# whole suite (its 2- and 3-rank tests share the one GPU, on the peer path), and the raw output of
# spmv's cuda_parts test.  OUTDIR/r.tgz.   usage: bash bench/results/2026-11-22-h100-parts/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
commit_line >> "$R/run.txt"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
rm -f "$R/make.log"
stamp "built"
( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1) &
  timeout 330 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1
  wait )
stamp "suite done"
grep -E "passed|Windows" "$R/kernels.txt" | tail -3 | tee -a "$R/run.txt"
tail -1 "$R/suite.txt" | tee -a "$R/run.txt"
grep -A14 "^not ok" "$R/suite.txt" | head -80
(cd tests/mat && mpiexec --oversubscribe --bind-to none -n 2 ../../build-cuda/tests/mat/spmv -convert_from aijcusparse -vec_type cuda -shape stencil2d -info :mat > "$R/parts_info.txt" 2>&1)
grep -E "^\[0\].*Product in parts|match AIJ" "$R/parts_info.txt" | sed -e "s/^.*Product in parts/Product in parts/" -e "s/^.*plan variants, //" | uniq -c | tee "$R/parts.out"
grep -c "Product in parts" "$R/parts_info.txt"
gzip -9 "$R/suite.txt" "$R/parts_info.txt"
stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
