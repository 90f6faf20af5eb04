#!/usr/bin/env bash
# Second H100 session: the hot-column share on R-MAT again (0.0625, 0.5, 1: each in its own bench_spmv
# process with aijcusparse), then the whole benchmark (bench/run_bench.sh) with the share that gave the best
# geometric mean of aijcusparse/aijtuned over rmat and rmat:22 here.
#   usage: bash bench/results/2026-11-21-h100-colhot/run2.sh OUTDIR     (carry .petsc-cuda, .bench-data)
set -uo pipefail
R=${1:?usage: run2.sh OUTDIR}
HOT="${HOT:-0.0625 0.5 1}" SKIP_SUITE=1 TIME_RMAT=75 bash bench/results/2026-11-21-h100-colhot/run.sh "$R"
best=$(python3 - "$R" <<'PY'
import glob, math, re, sys
best = None
for f in sorted(glob.glob(sys.argv[1] + "/rmat-*.txt")):
    t = {}
    for line in open(f):
        m = re.match(r"^\[(rmat(?::22)?)\] (aijcusparse|aijtuned) +([0-9.]+) us", line)
        if m: t[(m[1], m[2])] = float(m[3])
    r = [t[(n, "aijcusparse")] / t[(n, "aijtuned")] for n in ("rmat", "rmat:22") if (n, "aijtuned") in t and (n, "aijcusparse") in t]
    if len(r) == 2:
        g = math.sqrt(r[0] * r[1])
        print(f"{f}: rmat {r[0]:.3f} rmat:22 {r[1]:.3f} geomean {g:.3f}", file=sys.stderr)
        if not best or g > best[0]: best = (g, f.split("rmat-")[1][:-4])
print(best[1] if best else "0.0625")
PY
)
echo "best share: $best" | tee -a "$R/run.txt"
[ "$best" = natural ] && best=0.0625
TIME_SPMV=150 TIME_KSP=60 SPMV_OPTS="-mat_aijtuned_col_hot $best" KSP_OPTS="-mat_aijtuned_col_hot $best" bash bench/run_bench.sh "$R/bench" > "$R/bench.log" 2>&1
grep -E "geomean|geometric|worst" "$R/bench/spmv.txt" | tail -8
grep -E "KSPSolve|speedup|iterations" "$R/bench/ksp.txt" | tail -8
