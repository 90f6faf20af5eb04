#!/usr/bin/env bash
# Development machine, no GPU.  replay.sh OUTDIR [BASE]: ../2026-11-25-host-classes/replay.c built from BASE's
# planner (default HEAD) and from the working tree's, over the 9 generated matrices and the 69 shared files
# with both shipped models: the plans (PRINT=1, host times taken out) compared, and each one's host time
# (median of 31 plans, two rounds, old new old new).  FLUSH=1 in the environment: each timed plan after 256 MiB
# written (cold caches, as after an assembly).
set -euo pipefail
O=${1:?usage: replay.sh OUTDIR [BASE]}; BASE=${2:-HEAD}
R=$(cd "$(dirname "$0")/../../.." && pwd); cd "$R"; mkdir -p "$O"
old=$(mktemp -d); git archive "$BASE" src/mat/impls/tuned/plan | tar -x -C "$old"
build() { cc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -I"$1" -Ibench/gen -Ibench/common bench/results/2026-11-25-host-classes/replay.c bench/gen/matgen.c "$1"/*.c -lm -lz -o "$2"; }
build "$old/src/mat/impls/tuned/plan" "$old/replay"; build src/mat/impls/tuned/plan "$old/replay-new"
S=${SHARED:-$R/../shared/matrices}
mats="lap2d lap3d lap3d40 box27 elast rmat circuit lp random $(ls "$S"/medium/*.mtx.gz "$S"/small/*.mtx.gz)"
for model in models/NVIDIA-H200.model models/NVIDIA-H100-80GB-HBM3.model; do
  tag=$(basename "$model" .model)
  for v in old new; do
    bin="$old/replay"; [ $v = new ] && bin="$old/replay-new"
    PRINT=1 "$bin" "$model" $mats > "$O/print-$v-$tag.txt"
    sed -E 's/host +[0-9.]+ us//' "$O/print-$v-$tag.txt" > "$O/plans-$v-$tag.txt"
  done
  if cmp -s "$O/plans-old-$tag.txt" "$O/plans-new-$tag.txt"; then echo "$tag: identical plans ($(grep -vc '^ ' "$O/plans-new-$tag.txt") matrices)"; else echo "$tag: PLANS DIFFER"; diff "$O/plans-old-$tag.txt" "$O/plans-new-$tag.txt" | head -20; fi
  rm -f "$O"/plans-*-"$tag".txt
done
for round in 1 2; do
  for v in old new; do
    bin="$old/replay"; [ $v = new ] && bin="$old/replay-new"
    REPS=31 "$bin" models/NVIDIA-H200.model $mats > "$O/times-$v-$round.txt"
  done
done
python3 - "$O" <<'PY'
import math, re, sys
o = sys.argv[1]
def load(f):
    d = {}
    for line in open(f):
        m = re.match(r"(\S+)\s.*host\s+([\d.]+) us", line)
        if m: d[m.group(1)] = float(m.group(2))
    return d
t = {v: [load(f"{o}/times-{v}-{r}.txt") for r in (1, 2)] for v in ("old", "new")}
names = list(t["old"][0])
best = {v: {n: min(x[n] for x in t[v]) for n in names} for v in t}
r = [best["new"][n] / best["old"][n] for n in names if best["old"][n] > 0]
print("host part new/old, the lower of two rounds each: geometric mean %.3f over %d matrices" % (math.exp(sum(map(math.log, r)) / len(r)), len(r)))
for n in sorted(names, key=lambda n: -best["old"][n])[:12]:
    print(f"  {n:42s} {best['old'][n]:7.1f} -> {best['new'][n]:7.1f} us")
PY
gzip -9f "$O"/print-*.txt "$O"/times-*.txt
rm -rf "$old"
