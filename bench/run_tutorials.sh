#!/usr/bin/env bash
# PETSc's own tutorials at scale on one GPU, unmodified: the programs `make tests` builds from PETSc's examples
# (build-cuda/tests/petsc/: KSP ex45, SNES ex19), aijtuned loaded with -dll_append and chosen by options alone.
# Each case runs with each variant, alternately, ROUNDS times:
#   aijcusparse   -dm_mat_type aijcusparse
#   aijtuned      -dm_mat_type aijtuned
#   tunedops      -dm_mat_type aijcusparse -mat_type aijtuned: the DM's operators aijtuned (DMDA's MatSetFromOptions),
#                 its interpolations aijcusparse.  PETSc puts a multi-component DMDA's interpolation (MAIJ) on the
#                 GPU only when it is aijcusparse; under -dm_mat_type aijtuned it stays on the host
#                 (bench/results/2026-11-26-tutorials).
# The table gives -log_view's KSPSolve and SNESSolve times, MatMult's count and the iterations (the events
# inside them show no time on a GPU without -log_view_gpu_time, which would wait for each).
#   carry: .petsc-cuda (install.tar.xz.*)
#   usage: bash bench/run_tutorials.sh OUTDIR      (ROUNDS=2, N=161: ex45's grid is N^3; REFINE=8: ex19's;
#          CASES="ex45_cg_jacobi ex45_cg_mg ex45_cg_gamg ex19_mg")
set -uo pipefail
out=${1:?usage: bash bench/run_tutorials.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"
ROUNDS=${ROUNDS:-2} N=${N:-161} REFINE=${REFINE:-8}
{ commit_line; echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)  ROUNDS=$ROUNDS N=$N REFINE=$REFINE"; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee "$out/run.txt"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
make BUILD=build-cuda lib tests > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
lib=$PWD/build-cuda/lib/libaijtuned.so
grid="-da_grid_x $N -da_grid_y $N -da_grid_z $N"
declare -A cases=(
  [ex45_cg_jacobi]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -pc_type jacobi -ksp_rtol 1e-8 -ksp_converged_reason"
  [ex45_cg_mg]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -ksp_rtol 1e-8 -pc_type mg -pc_mg_levels 4 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -ksp_converged_reason"
  [ex45_cg_gamg]="build-cuda/tests/petsc/ksp_ex45 $grid -ksp_type cg -ksp_rtol 1e-8 -pc_type gamg -ksp_converged_reason"
  [ex19_mg]="build-cuda/tests/petsc/snes_ex19 -da_refine $REFINE -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason"
)
declare -A variants=([aijcusparse]="-dm_mat_type aijcusparse" [aijtuned]="-dm_mat_type aijtuned" [tunedops]="-dm_mat_type aijcusparse -mat_type aijtuned")
for name in ${CASES:-ex45_cg_jacobi ex45_cg_mg ex45_cg_gamg ex19_mg}; do
  for round in $(seq 1 "$ROUNDS"); do
    for type in aijcusparse aijtuned tunedops; do
      # shellcheck disable=SC2086
      timeout 120 ${cases[$name]} -dm_vec_type cuda ${variants[$type]} -dll_append "$lib" -log_view > "$out/$name-$type-$round.txt" 2>&1
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
print(f"{'case':16s} {'type':12s} {'round':>5s} {'KSPSolve s':>10s} {'SNESSolve s':>11s} {'MatMults':>8s}  iterations")
rows = {}
for f in sorted(glob.glob(f"{out}/ex*-*-*.txt")):
    case, typ, rnd = os.path.basename(f)[:-4].rsplit("-", 2)
    t = open(f, errors="replace").read()
    ksp, snes, mm = event(t, "KSPSolve")[1], event(t, "SNESSolve")[1], event(t, "MatMult")[0]
    its = " ".join(re.findall(r"iterations (\d+)", t))
    rows.setdefault(case, {}).setdefault(typ, []).append((ksp, snes))
    print(f"{case:16s} {typ:12s} {rnd:>5s} {ksp:10.4f} {snes:11.4f} {mm:8d}  {its}")
print("\naijcusparse's time / the variant's, the lower of the rounds each (above 1: faster than aijcusparse)")
for case, d in rows.items():
    best = lambda typ, k: min(r[k] for r in d[typ])
    for typ in ("aijtuned", "tunedops"):
        if "aijcusparse" in d and typ in d:
            line = f"{case:16s} {typ:10s} KSPSolve {best('aijcusparse', 0) / best(typ, 0):.2f}x"
            if case.startswith("ex19"): line += f"   SNESSolve {best('aijcusparse', 1) / best(typ, 1):.2f}x"
            print(line)
PY
gzip -9 "$out"/ex*-*-*.txt
