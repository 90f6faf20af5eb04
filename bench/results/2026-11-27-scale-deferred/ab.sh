#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data-sub.tar.xz).  ab.sh OUTDIR PATCH [STEP...]: the tree as it is (B) against
# a copy with PATCH taken back (A), built side by side; then the verify steps given (run.sh's suite, kernels) on B,
# then bench_spmv ($SPMV, default: the suite and the medium files) A then B, $ROUNDS times (default 1), each with its
# MatScale and new-values figures; the summary gives each figure's median over the rounds.
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
import csv, math, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {v: [{x["name"]: x for x in csv.DictReader(open(f"{out}/spmv-{v}{r}.csv"))} for r in range(1, rounds + 1)] for v in "ab"}
side = {v: {name: {k: statistics.median(float(run[name][k]) if run.get(name, {}).get(k, "") not in ("", "nan") else float("nan") for run in runs[v]) for k in runs[v][0][name]
                   if k not in ("name", "class", "best_raw")} for name in runs[v][0]} for v in "ab"}
def f(x, k):
    try: return float(x[k])
    except (KeyError, ValueError): return float("nan")
print("aijcusparse's time over aijtuned's, each in its own process: MatScale twice and the first product (scale), a TS step (step), MatMult")
print(f"{'matrix':36s} {'scale A':>8s} {'scale B':>8s} {'ms A':>8s} {'ms B':>8s} {'step A':>8s} {'step B':>8s} {'mult A':>7s} {'mult B':>7s}")
g = {k: [] for k in ("sa", "sb", "ma", "mb")}
for name in side["b"]:
    a, b = side["a"].get(name, {}), side["b"][name]
    sa, sb = f(a, "scale_speedup"), f(b, "scale_speedup")
    ma, mb = f(a, "speedup_vs_aijcusparse"), f(b, "speedup_vs_aijcusparse")
    for k, v in (("sa", sa), ("sb", sb), ("ma", ma), ("mb", mb)):
        if v > 0: g[k].append(v)
    print(f"{name:36s} {sa:8.2f} {sb:8.2f} {f(a, 'scale_ms_aijtuned'):8.3f} {f(b, 'scale_ms_aijtuned'):8.3f} {f(a, 'step_speedup'):8.1f} {f(b, 'step_speedup'):8.1f} {ma:7.2f} {mb:7.2f}")
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
print(f"geometric mean: scale A {gm(g['sa']):.2f} B {gm(g['sb']):.2f} (worst {min(g['sa'], default=0):.2f}, {min(g['sb'], default=0):.2f}); MatMult A {gm(g['ma']):.2f} B {gm(g['mb']):.2f} (worst {min(g['ma'], default=0):.2f}, {min(g['mb'], default=0):.2f})")
PY
gzip -9 "$out"/spmv-*.txt
