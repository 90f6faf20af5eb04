#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  ab3.sh OUTDIR PATCH ROUNDS [kernels]: the tree as it is (B)
# against a copy with the patch file PATCH taken back (A), built side by side; "kernels" runs test_kernels
# on B; then ROUNDS of A and B run alternately: bench_plan_gpu on $PLAN (generated matrices, outside
# PETSc) and bench_spmv's planning inside PETSc ($SPMV: its matrices).  Everything lands in
# OUTDIR/ab3.tar.gz (the device returns 8 files a call).  ab2.sh (../2026-11-25-plan-fuse) with the
# matrices as arguments.
set -uo pipefail
O=${1:?usage: ab3.sh OUTDIR PATCH ROUNDS [kernels]}; PATCH=${2:?}; ROUNDS=${3:?}
PLAN=${PLAN:-circuit rmat lp random box27}
SPMV=${SPMV:--suite circuit,rmat -dir .bench-data}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/ab3"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
ln -s "$R/.bench-data" $A/.bench-data
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; echo "A: without $PATCH"; echo "plan_gpu: $PLAN"; echo "spmv: $SPMV"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j8 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
wait $! || { tail -20 "$out/make-a.log"; exit 1; }
rm -f "$out"/make-*.log; stamp built
if [ "${4:-}" = kernels ]; then
  (cd tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels-b.txt" 2>&1); stamp "test_kernels b: $(tail -1 "$out/kernels-b.txt")"
  grep -E "^FAIL" "$out/kernels-b.txt" | head -20; gzip -9 "$out/kernels-b.txt"
fi
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    dir=$R; [ $v = a ] && dir=$A
    (cd $dir && timeout 60 build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 $PLAN) > "$out/plan_gpu-$v$round.txt" 2>&1
    (cd $dir && timeout 120 build-cuda/bench/bench_spmv $SPMV -reps 20 -plan_reps 15 -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
python3 - "$out" "$ROUNDS" <<'PY' | tee "$out/summary.txt"
import csv, os, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for v in "ab":
    for r in range(1, rounds + 1):
        f = f"{out}/spmv-{v}{r}.csv"
        if not os.path.exists(f): continue
        for x in csv.DictReader(open(f)):
            rows.setdefault(x["name"], {}).setdefault(v, []).append((float(x["plan_ms"]), float(x["plan_calls"])))
print("planning inside PETSc (median of 15 assemblies) per run, ms; median over runs in products")
for name, d in rows.items():
    print(f"{name:40s} " + "  ".join(v.upper() + " " + " ".join(f"{m:.3f}" for m, _ in d.get(v, [])) for v in "ab") + "  | " +
          "  ".join(f"{v.upper()} {statistics.median(c for _, c in d[v]):.1f}" for v in "ab" if d.get(v)) + " products")
PY
for f in "$out"/plan_gpu-*.txt; do echo "== $(basename $f)"; tail -6 "$f"; done
tar czf "$O/ab3.tar.gz" -C "$O" ab3 && rm -rf "$O/ab3"
