#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  abprod.sh OUTDIR PATCH ROUNDS [kernels]: products, not planning.
# The tree as it is (B) against a copy with PATCH taken back (A), built side by side; ROUNDS of A and B run
# alternately: bench_spmv -held 1 over the generated suite and the medium files (the device alone, median of
# 100 calls per method); "kernels" then runs test_kernels on B.  The summary gives per matrix the median over
# rounds of each variant's aijtuned device time, and aijcusparse's and sellcuda's (the same code in A and B:
# their spread is the noise).  Everything lands in OUTDIR/abprod.tar.gz (the device returns 8 files a call).
set -uo pipefail
O=${1:?usage: abprod.sh OUTDIR PATCH ROUNDS [kernels]}; PATCH=${2:?}; ROUNDS=${3:?}
SPMV=${SPMV:--dir .bench-data}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/abprod"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
ln -s "$R/.bench-data" $A/.bench-data
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; echo "A: without $PATCH"; echo "spmv: $SPMV -held 1"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
summary() {
python3 - "$out" <<'PY'
import glob, re, statistics, sys, os
out = sys.argv[1]; t = {}
for f in sorted(glob.glob(f"{out}/spmv-*.txt")):
    v = os.path.basename(f)[5]
    for m in re.finditer(r"^\[(\S+)\] (\S+)\s+held: device ([0-9.]+) us", open(f).read(), re.M):
        t.setdefault(m[1], {}).setdefault(v + m[2], []).append(float(m[3]))
med = lambda d, k: statistics.median(d[k]) if d.get(k) else float("nan")
print(f"{'matrix':36s} {'A tuned':>8s} {'B tuned':>8s} {'B/A':>6s} | {'cusp A':>7s} {'cusp B':>7s} {'sell A':>7s} {'sell B':>7s}  (us, median over rounds)")
r = []
for n, d in t.items():
    a, b = med(d, "aaijtuned"), med(d, "baijtuned")
    if a == a and b == b: r.append(b / a)
    print(f"{n:36s} {a:8.1f} {b:8.1f} {b/a:6.3f} | {med(d,'aaijcusparse'):7.1f} {med(d,'baijcusparse'):7.1f} {med(d,'asellcuda'):7.1f} {med(d,'bsellcuda'):7.1f}")
if r: print(f"B/A geometric mean {statistics.geometric_mean(r):.3f} over {len(r)}; lower in {sum(x < 1 for x in r)}, higher in {sum(x > 1 for x in r)}")
PY
}
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && timeout 90 build-cuda/bench/bench_spmv $SPMV -held 1 -reps 100 -plan_reps 1) > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v exit $?"
  done
done
summary | tee "$out/summary.txt"
if [ "${4:-}" = kernels ]; then
  (cd tests/planner && timeout 200 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels-b.txt" 2>&1); stamp "test_kernels b: $(tail -1 "$out/kernels-b.txt")"
  grep -E "^FAIL" "$out/kernels-b.txt" | head -20; gzip -9 "$out/kernels-b.txt"
fi
gzip -9 "$out"/spmv-*.txt
tar czf "$O/abprod.tar.gz" -C "$O" abprod && rm -rf "$O/abprod"
