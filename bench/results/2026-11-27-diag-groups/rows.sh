#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  rows.sh OUTDIR ROUNDS: bench_plan_gpu on $PLAN, main (the patch taken back) against
# the lane-group diagonal test with DIAG_ROWS = 4, 8 and 16 (NVFLAGS_EXTRA), the four built side by side and run in
# turn, ROUNDS times; ncu's time of the statistics-and-diagonals launch of box27 and lap3d for each.  OUTDIR/rows.tgz.
set -uo pipefail
O=${1:?usage: rows.sh OUTDIR ROUNDS}; ROUNDS=${2:?}
PLAN=${PLAN:-lap2d lap3d box27 circuit}
PATCH=bench/results/2026-11-27-diag-groups/diag-groups.patch
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/rows"
R=$PWD; A=/tmp/rows-a; rm -rf $A; mkdir -p $A
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C $A
(cd $A && patch -s -R -p1 < "$R/$PATCH") || exit 1
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; echo "plan_gpu: $PLAN"; } | tee -a "$out/run.txt"
(cd $A && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j4 build-cuda/bench/bench_plan_gpu > "$out/make-a.log" 2>&1) &
for n in 4 8 16; do
  (make PETSC_DIR=/opt/petsc-cuda BUILD=build-r$n NVFLAGS_EXTRA=-DDIAG_ROWS=$n -j4 build-r$n/bench/bench_plan_gpu > "$out/make-r$n.log" 2>&1) &
done
wait
for b in $A/build-cuda build-r4 build-r8 build-r16; do [ -x $b/bench/bench_plan_gpu ] || { echo "no $b"; tail -20 "$out"/make-*.log; exit 1; }; done
rm -f "$out"/make-*.log; stamp built
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in $(seq 1 "$ROUNDS"); do
  for v in a r4 r8 r16; do
    b=build-$v; [ $v = a ] && b=$A/build-cuda
    timeout 60 $b/bench/bench_plan_gpu -model "$model" -reps 9 $PLAN > "$out/plan-$v$round.txt" 2>&1
  done
  stamp "round $round"
done
K='regex:stats_diag_kernel'
for v in a r4 r8 r16; do
  b=build-$v; [ $v = a ] && b=$A/build-cuda
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw -k $K $b/bench/bench_plan_gpu -model "$model" -reps 1 box27 lap3d > "$out/ncu-$v.csv" 2> "$out/ncu-$v.err"
done
stamp ncu
python3 - "$out" "$ROUNDS" "$PLAN" <<'PY' | tee "$out/summary.txt"
import sys, csv, statistics
out, rounds, plan = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
vs = ["a", "r4", "r8", "r16"]
print("kept_ms (bench_plan_gpu, median of 9) per round")
for m in plan:
    cells = []
    for v in vs:
        xs = []
        for r in range(1, rounds + 1):
            for line in open(f"{out}/plan-{v}{r}.txt"):
                f = line.split()
                if f and f[0] == m: xs.append(float(f[11]))
        cells.append(f"{v} " + " ".join(f"{x:.3f}" for x in xs))
    print(f"{m:8s} " + " | ".join(cells))
print("stats_diag_kernel (ncu, us): box27's launches, then lap3d's")
for v in vs:
    try:
        rows = [r for r in csv.reader(open(f"{out}/ncu-{v}.csv")) if len(r) > 5]
        hdr = rows[0]; i = hdr.index("gpu__time_duration.sum")
        print(v, " ".join(r[i] for r in rows[2:]))
    except Exception as e:
        print(v, "no ncu:", e)
PY
tar czf "$O/rows.tgz" -C "$O" rows && rm -rf "$O/rows"
