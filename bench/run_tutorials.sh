#!/usr/bin/env bash
# PETSc's own tutorials at scale on one GPU, unmodified: the programs `make tests` builds from PETSc's examples
# (build-cuda/tests/petsc/: KSP ex45, SNES ex19; build-cuda/tutorials/: TS ex4), aijtuned loaded with -dll_append and
# chosen by options alone.
# Each case runs with each variant, alternately, ROUNDS times:
#   aijcusparse   -dm_mat_type aijcusparse
#   aijtuned      -dm_mat_type aijtuned
#   tunedops      -dm_mat_type aijcusparse -mat_type aijtuned: the DM's operators aijtuned (DMDA's MatSetFromOptions),
#                 its interpolations aijcusparse.  PETSc puts a multi-component DMDA's interpolation (MAIJ) on the
#                 GPU only when it is aijcusparse; under -dm_mat_type aijtuned it stayed on the host
#                 (bench/results/2026-11-26-tutorials) until aijtuned's DMs made it aijtuned (aijtunedinterp.c)
#   aijtuned_ibase  (in VARIANTS only) -dm_mat_type aijtuned, the interpolations of the base type (aijcusparse)
# VARIANTS="aijcusparse aijtuned tunedops" by default.
# TS ex4 (the 1-D heat equation, backward Euler, a constant right-hand-side Jacobian that TS shifts and scales at each
# step) makes its matrix with MatSetFromOptions: -mat_type instead of -dm_mat_type, and no tunedops.
# The table gives -log_view's KSPSolve, SNESSolve and TSStep times, MatMult's count and the iterations (the events
# inside them show no time on a GPU without -log_view_gpu_time, which would wait for each).
#   carry: .petsc-cuda (install.tar.xz.*)
#   usage: bash bench/run_tutorials.sh OUTDIR      (ROUNDS=2, N=161: ex45's grid is N^3; REFINE=8: ex19's;
#          M=4000000: ex4's points, STEPS=50: its time steps;
#          CASES="ex45_cg_jacobi ex45_cg_mg ex45_cg_gamg ex19_mg ts_ex4")
set -uo pipefail
out=${1:?usage: bash bench/run_tutorials.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"
ROUNDS=${ROUNDS:-2} N=${N:-161} REFINE=${REFINE:-8} M=${M:-4000000} STEPS=${STEPS:-50}
{ commit_line; echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)  ROUNDS=$ROUNDS N=$N REFINE=$REFINE M=$M STEPS=$STEPS"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee "$out/run.txt"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
make BUILD=build-cuda lib tests build-cuda/tutorials/ts/tutorials/ex4 > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
lib=$PWD/build-cuda/lib/libaijtuned.so
grid="-da_grid_x $N -da_grid_y $N -da_grid_z $N"
declare -A cases=(
  [ex45_cg_jacobi]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -pc_type jacobi -ksp_rtol 1e-8 -ksp_converged_reason"
  [ex45_cg_mg]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -ksp_rtol 1e-8 -pc_type mg -pc_mg_levels 4 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -ksp_converged_reason"
  [ex45_cg_gamg]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -ksp_rtol 1e-8 -pc_type gamg -ksp_converged_reason"
  [ex19_mg]="build-cuda/tests/petsc/snes_ex19 -da_refine $REFINE -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason"
  [ts_ex4]="build-cuda/tutorials/ts/tutorials/ex4 -nox -m $M -ts_type beuler -ts_max_steps $STEPS -ksp_type cg -pc_type jacobi"
)
declare -A variants=([aijcusparse]="-dm_mat_type aijcusparse" [aijtuned]="-dm_mat_type aijtuned" [tunedops]="-dm_mat_type aijcusparse -mat_type aijtuned"
                     [aijtuned_ibase]="-dm_mat_type aijtuned -mat_aijtuned_dm_interpolation base")
for name in ${CASES:-ex45_cg_jacobi ex45_cg_mg ex45_cg_gamg ex19_mg ts_ex4}; do
  for round in $(seq 1 "$ROUNDS"); do
    for type in ${VARIANTS:-aijcusparse aijtuned tunedops}; do
      mat=${variants[$type]}
      if [ "${name#ts_}" != "$name" ]; then [ "$type" = tunedops ] && continue; mat="-mat_type $type"; fi
      # shellcheck disable=SC2086
      timeout 120 ${cases[$name]} -dm_vec_type cuda $mat -dll_append "$lib" -log_view > "$out/$name-$type-$round.txt" 2>&1
      stamp "$name $type round $round: exit $?"
    done
  done
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, os, re, sys
out = sys.argv[1]
def event(text, name):  # -log_view: name, count, ratio, time (max over ranks; n/a for events inside
    m = re.search(r"^%s\s+(\d+)\s+\S+\s+(\S+)" % re.escape(name), text, re.M)  # others on a GPU)
    return (int(m[1]), float(m[2]) if m[2] != "n/a" else float("nan")) if m else (0, float("nan"))
print(f"{'case':16s} {'type':12s} {'round':>5s} {'KSPSolve s':>10s} {'SNESSolve s':>11s} {'TSStep s':>9s} {'MatMults':>8s}  iterations")
rows = {}
for f in sorted(glob.glob(f"{out}/*ex*-*-*.txt")):
    case, typ, rnd = os.path.basename(f)[:-4].rsplit("-", 2)
    t = open(f, errors="replace").read()
    ksp, snes, ts, mm = event(t, "KSPSolve")[1], event(t, "SNESSolve")[1], event(t, "TSStep")[1], event(t, "MatMult")[0]
    its = " ".join(re.findall(r"iterations (\d+)", t))
    if case.startswith("ts_"):  # each step's errors against the exact solution, which both types must print alike
        its = "final errors " + " ".join(re.findall(r"Avg. error \(\S+ norm\) = (\S+)", t))
    rows.setdefault(case, {}).setdefault(typ, []).append((ksp, snes, ts))
    print(f"{case:16s} {typ:12s} {rnd:>5s} {ksp:10.4f} {snes:11.4f} {ts:9.4f} {mm:8d}  {its}")
print("\naijcusparse's time / the variant's, the lower of the rounds each (above 1: faster than aijcusparse)")
for case, d in rows.items():
    best = lambda typ, k: min(r[k] for r in d[typ])
    for typ in [t for t in d if t != "aijcusparse"]:
        if "aijcusparse" in d and typ in d:
            line = f"{case:16s} {typ:14s} KSPSolve {best('aijcusparse', 0) / best(typ, 0):.2f}x"
            if case.startswith("ex19"): line += f"   SNESSolve {best('aijcusparse', 1) / best(typ, 1):.2f}x"
            if case.startswith("ts_"): line += f"   TSStep {best('aijcusparse', 2) / best(typ, 2):.2f}x"
            print(line)
PY
# one archive: the device tool brings back only a few files a call
(cd "$out" && tar czf logs.tar.gz ./*ex*-*-*.txt && rm -f ./*ex*-*-*.txt)
