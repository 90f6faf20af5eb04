#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  flame.sh OUTDIR: SNES ex19 with multigrid at scale (as run_tutorials.sh's ex19_mg),
# variants tunedops and aijtuned_ibase (-dm_mat_type aijtuned with the interpolations of the base type), alternately
# 2 rounds, with -log_view :FILE:ascii_flamegraph: each event's host time under its parents (no waits added), to find
# what -dm_mat_type aijtuned spends inside KSPSolve that -dm_mat_type aijcusparse -mat_type aijtuned does not.
set -uo pipefail
O=${1:?usage: flame.sh OUTDIR}
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
make BUILD=build-cuda lib tests > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
lib=$PWD/build-cuda/lib/libaijtuned.so
ex19="build-cuda/tests/petsc/snes_ex19 -da_refine 8 -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason -dm_vec_type cuda"
declare -A variants=([tunedops]="-dm_mat_type aijcusparse -mat_type aijtuned" [aijtuned_ibase]="-dm_mat_type aijtuned -mat_aijtuned_dm_interpolation base")
for r in 1 2; do
  for v in tunedops aijtuned_ibase; do
    # shellcheck disable=SC2086
    timeout 120 $ex19 ${variants[$v]} -dll_append "$lib" -log_view :"$out/$v-$r.flame":ascii_flamegraph > "$out/$v-$r.txt" 2>&1; stamp "$v round $r: exit $?"
  done
done
python3 - "$out" <<'PY' | tee "$out/kspsolve.txt"
import collections, glob, sys
# flamegraph lines: "stack;of;events time_us"; sum what lies under KSPSolve, by the stack below it
for f in sorted(glob.glob(sys.argv[1] + "/*.flame")):
    under = collections.Counter()
    for line in open(f):
        stack, us = line.rsplit(" ", 1)
        ev = stack.split(";")
        if "KSPSolve" in ev:
            under[";".join(ev[ev.index("KSPSolve"):][:4])] += float(us)
    print("==", f.split("/")[-1], "KSPSolve total (self + children) us", round(sum(under.values())))
    for k, v in under.most_common(25): print(f"{v:12.0f}  {k}")
PY
tar czf "$out/flame.tgz" -C "$out" $(cd "$out" && ls *.flame *-?.txt) && (cd "$out" && rm -f *.flame *-?.txt)
