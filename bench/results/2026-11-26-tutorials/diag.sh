#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  diag.sh OUTDIR: PETSc's KSP ex45 and SNES ex19 in the configurations the GPU suite
# failed, with aij, aijcusparse and aijtuned side by side; each run's first 150 lines of output kept.
set -uo pipefail
O=${1:?usage: diag.sh OUTDIR}
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
make BUILD=build-cuda lib tests > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
rm -f "$out/make.log"; stamp built
lib=$PWD/build-cuda/lib/libaijtuned.so; e45=build-cuda/tests/petsc/ksp_ex45; e19=build-cuda/tests/petsc/snes_ex19
mg45="-ksp_monitor_short -da_grid_x 21 -da_grid_y 21 -da_grid_z 21 -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 1 -mg_levels_pc_type bjacobi"
tel="-ksp_type fgmres -ksp_monitor_short -pc_type mg -mg_levels_ksp_type richardson -mg_levels_pc_type jacobi -pc_mg_levels 2 -da_grid_x 65 -da_grid_y 65 -da_grid_z 65 -mg_coarse_pc_type telescope -mg_coarse_pc_telescope_ignore_kspcomputeoperators -mg_coarse_pc_telescope_reduction_factor 4 -mg_coarse_telescope_pc_type mg -mg_coarse_telescope_pc_mg_galerkin pmat -mg_coarse_telescope_pc_mg_levels 3 -mg_coarse_telescope_mg_levels_ksp_type richardson -mg_coarse_telescope_mg_levels_pc_type jacobi -mg_levels_ksp_type richardson -mg_coarse_telescope_mg_levels_ksp_type richardson -ksp_rtol 1.0e-4"
exo="-pc_type exotic -ksp_converged_reason -ksp_type fgmres -mg_levels_ksp_type gmres -mg_levels_ksp_max_it 1 -mg_levels_pc_type bjacobi"
s19="-da_refine 3 -snes_monitor_short -pc_type mg -ksp_type fgmres -pc_mg_type full -snes_type newtontrdc"
run() { # name nsize program args...
  local name=$1 n=$2; shift 2
  timeout 60 mpiexec --oversubscribe --bind-to none -n "$n" "$@" -dll_append "$lib" 2>&1 | head -150 > "$out/$name.txt"
  echo "== $name: $(grep -c . "$out/$name.txt") lines; $(grep -m1 -E 'Residual norm [0-9.e-]+$|SNES iterations|CONVERGED|DIVERGED|ERROR: [A-Z]' "$out/$name.txt" | tail -1)"
}
for t in aij aijcusparse aijtuned; do
  for n in 1 4; do run "ex45_2-$t-n$n" $n $e45 $mg45 -dm_mat_type $t; done
  run "ex45_2_cudavec-$t-n4" 4 $e45 $mg45 -dm_mat_type $t -dm_vec_type cuda
  run "ex19_19-$t-n2" 2 $e19 $s19 -dm_mat_type $t
  run "ex45_telescope-$t-n4" 4 $e45 $tel -dm_mat_type $t
  run "ex45_exotic-$t-n4" 4 $e45 $exo -dm_mat_type $t
done
for f in "$out"/ex45_2-*-n1.txt "$out"/ex45_2-*-n4.txt; do echo "-- $(basename $f)"; tail -3 "$f"; done
for t in aijcusparse aijtuned; do grep -h -m3 "ERROR" "$out/ex45_telescope-$t-n4.txt" "$out/ex45_exotic-$t-n4.txt" | head -6; done
# ex19 with MG at scale: the interpolation's type follows -dm_mat_type; -mat_type retypes the operators only
for round in 1 2; do
  for v in "-dm_mat_type aijcusparse" "-dm_mat_type aijtuned" "-dm_mat_type aijcusparse -mat_type aijtuned"; do
    tag=$(echo "$v" | tr -d ' -' ); 
    timeout 120 $e19 -da_refine 8 -ksp_type fgmres -pc_type mg -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -snes_converged_reason -ksp_converged_reason -dm_vec_type cuda $v -dll_append "$lib" -log_view > "$out/ex19mg-$tag-$round.txt" 2>&1
    echo "ex19mg $v round $round: $(grep -E '^(KSPSolve|SNESSolve) ' "$out/ex19mg-$tag-$round.txt" | awk '{printf "%s %s  ", $1, $4}') its $(grep -o 'iterations [0-9]*' "$out/ex19mg-$tag-$round.txt" | tr '\n' ' ')"
  done
done
cd "$out/.." && tar czf diag.tar.gz "$(basename "$out")" && rm -rf "$out"
