#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  ab2.sh OUTDIR REV ROUNDS [kernels]: the tree as it is (B)
# against a copy without the patch file REV, or with kernels/plan_gpu.cu as at commit REV (A), built side by side, then ROUNDS of A B run
# alternately (bench_plan_gpu and bench_spmv's planning on the stencils, circuit, rmat and
# actor_movie_incidence); "kernels" runs test_kernels on B first.  Everything lands in OUTDIR/ab2.tar.gz
# (the device returns 8 files a call).  With C=PATCH in the environment a third variant, the tree with
# PATCH applied, is built and run after B in every round (and tested with "kernels" too); three variants
# with "kernels" fit a 600 s call with one round only (../2026-11-25-diag-ahead).
set -uo pipefail
O=${1:?usage: ab2.sh OUTDIR REV ROUNDS [kernels]}; REV=${2:?}; ROUNDS=${3:?}
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/ab2"
R=$PWD; A=/tmp/ab-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
# A: with REV a patch file, the tree with the patch taken back; else kernels/plan_gpu.cu as at the commit
# REV of the device's own .git, which is NOT this checkout's: it stood at 630b62f for every run here.
if [ -f "$REV" ]; then (cd $A && patch -s -R -p1 < "$R/$REV") || exit 1
else git show "$REV:kernels/plan_gpu.cu" > $A/kernels/plan_gpu.cu || exit 1; fi
{ commit_line; echo "A: $REV"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
variants="a b"; Cdir=/tmp/ab-c
if [ -n "${C:-}" ]; then
  variants="a b c"; rm -rf $Cdir; mkdir -p $Cdir
  tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $Cdir
  (cd $Cdir && patch -s -p1 < "$R/$C") || exit 1
  echo "C: $C" | tee -a "$out/run.txt"
  (cd $Cdir && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j5 all bench > "$out/make-c.log" 2>&1) &
fi
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j5 all bench > "$out/make-a.log" 2>&1) &
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j5 all bench > "$out/make-b.log" 2>&1 || { tail -20 "$out/make-b.log"; exit 1; }
for job in $(jobs -p); do wait $job || { tail -20 "$out"/make-[ac].log; exit 1; }; done
rm -f "$out"/make-*.log; stamp built
dir_of() { case $1 in a) echo $A ;; c) echo $Cdir ;; *) echo $R ;; esac; }
if [ "${4:-}" = kernels ]; then
  for v in ${variants#a }; do
    (cd $(dir_of $v)/tests/planner && timeout 330 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels-$v.txt" 2>&1); stamp "test_kernels $v: $(tail -1 "$out/kernels-$v.txt")"
    grep -E "^FAIL" "$out/kernels-$v.txt" | head -20; gzip -9 "$out/kernels-$v.txt"
  done
fi
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in $(seq 1 "$ROUNDS"); do
  for v in $variants; do
    dir=$(dir_of $v)
    (cd $dir && build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 lap2d lap3d box27 lp rmat) > "$out/plan_gpu-$v$round.txt" 2>&1
    (cd $dir && timeout 150 build-cuda/bench/bench_spmv -suite lap2d,lap3d,box27,circuit,rmat -f "$R/.bench-data/actor_movie_incidence.mtx.gz" \
       -reps 50 -plan_reps 15 -csv "$out/spmv-$v$round.csv") > "$out/spmv-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
python3 - "$out" "$ROUNDS" <<'PY' | tee "$out/summary.txt"
import csv, os, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
variants = [v for v in "abc" if os.path.exists(f"{out}/spmv-{v}1.csv")]
for v in variants:
    for r in range(1, rounds + 1):
        for x in csv.DictReader(open(f"{out}/spmv-{v}{r}.csv")):
            rows.setdefault(x["name"], {}).setdefault(v, []).append((float(x["plan_ms"]), float(x["plan_calls"])))
print("planning (median of 15 assemblies) per run, ms; in products")
for name, d in rows.items():
    print(f"{name:24s} " + "  ".join(v.upper() + " " + " ".join(f"{m:.3f}" for m, _ in d.get(v, [])) for v in variants) + "  | " +
          "  ".join(f"{v.upper()} {statistics.median(c for _, c in d[v]):.1f}" for v in variants if d.get(v)) + " products")
PY
for f in "$out"/plan_gpu-*.txt; do echo "== $(basename $f)"; tail -5 "$f" | awk '{print $1, $5, $12}'; done
tar czf "$O/ab2.tar.gz" -C "$O" ab2 && rm -rf "$O/ab2"
