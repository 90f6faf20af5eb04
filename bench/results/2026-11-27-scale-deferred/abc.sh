#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  abc.sh OUTDIR: three trees built side by side, A without scale-deferred.patch and
# params-apart.patch, B without the second, C as it is; then bench_spmv's MatMult on the DIA stencils, A, B, C
# in turn, $ROUNDS times (default 2).
set -uo pipefail
O=${1:?usage: abc.sh OUTDIR}; ROUNDS=${ROUNDS:-2}; D=bench/results/2026-11-27-scale-deferred
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
R=$PWD
for v in a b; do
  rm -rf /tmp/abc-$v; mkdir -p /tmp/abc-$v
  tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data --exclude=./.bench-data-sub.tar.xz -cf - . | tar -xf - -C /tmp/abc-$v
  (cd /tmp/abc-$v && patch -s -R -p1 < "$R/$D/params-apart.patch") || exit 1
done
(cd /tmp/abc-a && patch -s -R -p1 < "$R/$D/scale-deferred.patch") || exit 1
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
for v in a b; do (cd /tmp/abc-$v && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j5 lib bench > "$out/make-$v.log" 2>&1) & done
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j5 lib bench > "$out/make-c.log" 2>&1 || { tail -20 "$out/make-c.log"; exit 1; }
wait || true
for v in a b; do [ -x /tmp/abc-$v/build-cuda/bench/bench_spmv ] || { tail -20 "$out/make-$v.log"; exit 1; }; done
rm -f "$out"/make-*.log; stamp built
for round in $(seq 1 "$ROUNDS"); do
  for v in a b c; do
    dir=$R; [ $v != c ] && dir=/tmp/abc-$v
    (cd $dir && timeout 120 build-cuda/bench/bench_spmv -suite lap2d,lap3d,lap3d40,box27 -reps 300 -warmup 10 -values_reps 0 -setup_reps 0 -plan_reps 1 -csv "$out/spmv-$v$round.csv") > /dev/null 2>&1
    stamp "spmv $v$round exit $?"
  done
done
python3 - "$out" "$ROUNDS" <<'PY' | tee "$out/summary.txt"
import csv, sys
out, rounds = sys.argv[1], int(sys.argv[2])
t = {}
for v in "abc":
    for r in range(1, rounds + 1):
        for x in csv.DictReader(open(f"{out}/spmv-{v}{r}.csv")):
            t.setdefault(x["name"], {}).setdefault(v, []).append(float(x["us_aijtuned"]))
print("aijtuned's MatMult (us) per round; A: no factor, B: the factor in every kernel, C: the factor, the kernel parameters apart")
for name, d in t.items():
    print(f"{name:10s} " + "   ".join(v.upper() + " " + " ".join(f"{u:7.2f}" for u in d[v]) for v in "abc"))
PY
