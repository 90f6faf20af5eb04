#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data.tar.xz).  run.sh OUTDIR [SUITE]: bench_spmv -values_reps 3 on each generated
# matrix of SUITE (default elast,box27,rmat,random,lap3d) under tools/cuptitrace.c, a process each, with
# AIJT_REFILL_ROWS=1 (the experiment's switch: ELL and DIA strips refilled a thread per row) and without (by tiles),
# then each refill, scaling and coding kernel's launches, median and total time (summary-MATRIX-VARIANT.txt).
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [SUITE]}; S=${2:-elast,box27,rmat,random,lap3d}
R=$(cd "$(dirname "$0")/../../.." && pwd); cd "$R"; mkdir -p "$O"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build > /dev/null || exit 1
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda cuptitrace > "$O/make.txt" 2>&1 || { tail "$O/make.txt"; exit 1; }
for m in ${S//,/ }; do for v in rows tile; do
  [ $v = rows ] && export AIJT_REFILL_ROWS=1 || unset AIJT_REFILL_ROWS
  PETSC_OPTIONS="-use_gpu_aware_mpi 0" AIJT_TRACE_NO_API=1 CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE="$O/t-$m-$v" \
    timeout 120 build-cuda/bench/bench_spmv -suite "$m" -reps 20 -warmup 2 -values_reps 3 > "$O/spmv-$m-$v.txt" 2>&1; echo "$m $v: bench_spmv exit $?"
  grep -E "aijtuned    new values" "$O/spmv-$m-$v.txt"
  python3 - "$O" "$m-$v" > "$O/summary-$m-$v.txt" <<'PY'
import glob, re, statistics, sys
from collections import defaultdict
o, m = sys.argv[1], sys.argv[2]
d = defaultdict(list)
pat = re.compile(r"refill|scale|code|insert|rank|scal|reset", re.I)
for f in glob.glob(f"{o}/t-{m}.*.txt"):
    for line in open(f):
        p = line.split()
        if p and p[0] == "K" and pat.search(p[5]): d[" ".join(p[5:])[:90]].append((int(p[2]) - int(p[1])) / 1e3)
for n, v in sorted(d.items(), key=lambda kv: -sum(kv[1])):
    print(f"{len(v):6d} launches  median {statistics.median(v):9.2f} us  max {max(v):9.2f}  total {sum(v):10.1f} us  {n}")
PY
  cat "$O/summary-$m-$v.txt"; gzip -9 "$O"/t-"$m-$v".*.txt
done; done
unset AIJT_REFILL_ROWS
(cd tests/planner && timeout 330 ../../build-cuda/tests/kernels/test_kernels > "$O/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$O/kernels.txt")"
grep -E "^FAIL" "$O/kernels.txt" | head; gzip -9 "$O/kernels.txt"
(cd "$O" && tar -czf traces.tar.gz t-*.txt.gz summary-*.txt && rm -f t-*.txt.gz) # the device returns a limited count of files
rm -f "$O/make.txt"
