#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  ab.sh OUTDIR PATCH [STEP...]: the tree as it is (B) against
# a copy with PATCH taken back (A), built side by side; then the verify steps given (run.sh's) on B, then bench_spmv
# ($SPMV, default: the suite and the medium files) A then B, $ROUNDS times (default 1).  ../2026-11-27-scale-deferred/
# ab.sh with this summary: new host values then MatScale twice (hostscale), MatScale twice (scale), MatMult.
set -uo pipefail
O=${1:?usage: ab.sh OUTDIR PATCH [STEP...]}; PATCH=${2:?}; shift 2
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -d .bench-data ] || { mkdir -p .bench-data && tar xJf .bench-data-sub.tar.xz -C .bench-data && gzip -1 .bench-data/*.mtx; }
source bench/session.sh "$O"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data --exclude=./.bench-data-sub.tar.xz -cf - . | tar -xf - -C $A
ln -s "$R/.bench-data" $A/.bench-data
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; echo "A: without $PATCH"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
[ $# -gt 0 ] && bash bench/results/2026-11-25-h100-verify/run.sh "$O/verify" "$@"
SPMV=${SPMV:--reps 100 -warmup 5 -dir .bench-data}; ROUNDS=${ROUNDS:-1}
echo "spmv: $SPMV, $ROUNDS rounds" | tee -a "$out/run.txt"
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && timeout 240 build-cuda/bench/bench_spmv $SPMV -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "spmv $v$round exit $?"
  done
done
python3 - "$out" "$ROUNDS" <<'PY' | tee "$out/summary.txt"
import csv, glob, gzip, math, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {v: [{x["name"]: x for x in csv.DictReader(open(f"{out}/spmv-{v}{r}.csv"))} for r in range(1, rounds + 1)] for v in "ab"}
def med(v, name, k):
    xs = [float(run[name][k]) for run in runs[v] if run.get(name, {}).get(k, "") not in ("", "nan")]
    return statistics.median(xs) if xs else float("nan")
# each way's first round, aijtuned's and aijcusparse's, from the logs
first = {}
for v in "ab":
    for r in range(1, rounds + 1):
        for line in open(f"{out}/spmv-{v}{r}.txt"):
            m = re.match(r"\[(\S+)\] (aijtuned|aijcusparse)\s+new values: (assembly, MatScale twice|MatScale twice) and the first call .*the first ([0-9.]+)", line)
            if m: first.setdefault((v, m[1], m[2], m[3]), []).append(float(m[4]))
fm = lambda v, n, f, w: statistics.median(first.get((v, n, f, w), [float("nan")]))
print("aijcusparse's time over aijtuned's, each in its own process (A: without the patch, B: with it):")
print("  hostscale: new host values, assembly, MatScale twice and the first product (median of the rounds' medians)")
print("  scale: MatScale twice and the first product; 1st: aijtuned's first round of it, ms")
print(f"{'matrix':36s} {'hs A':>6s} {'hs B':>6s} {'hs ms A':>8s} {'hs ms B':>8s} {'cusp ms':>8s} {'sc A':>6s} {'sc B':>6s} {'1st A':>7s} {'1st B':>7s} {'mult A':>7s} {'mult B':>7s}")
g = {k: [] for k in ("ha", "hb", "sa", "sb", "ma", "mb")}
for name in runs["b"][0]:
    h = {v: med(v, name, "hostscale_speedup") for v in "ab"}
    sc = {v: med(v, name, "scale_speedup") for v in "ab"}
    mu = {v: med(v, name, "speedup_vs_aijcusparse") for v in "ab"}
    for k, x in (("ha", h["a"]), ("hb", h["b"]), ("sa", sc["a"]), ("sb", sc["b"]), ("ma", mu["a"]), ("mb", mu["b"])):
        if x > 0: g[k].append(x)
    print(f"{name:36s} {h['a']:6.2f} {h['b']:6.2f} {med('a', name, 'hostscale_ms_aijtuned'):8.3f} {med('b', name, 'hostscale_ms_aijtuned'):8.3f} {med('b', name, 'hostscale_ms_aijcusparse'):8.3f} "
          f"{sc['a']:6.2f} {sc['b']:6.2f} {fm('a', name, 'aijtuned', 'MatScale twice'):7.2f} {fm('b', name, 'aijtuned', 'MatScale twice'):7.2f} {mu['a']:7.2f} {mu['b']:7.2f}")
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
for k, what in (("h", "hostscale"), ("s", "scale"), ("m", "MatMult")):
    print(f"geometric mean, {what}: A {gm(g[k + 'a']):.2f} B {gm(g[k + 'b']):.2f} (worst {min(g[k + 'a'], default=0):.2f}, {min(g[k + 'b'], default=0):.2f})")
PY
gzip -9 "$out"/spmv-*.txt
