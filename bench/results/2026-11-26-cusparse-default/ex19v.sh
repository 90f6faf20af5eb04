set -u
O=$1; mkdir -p $O
bash bench/results/2026-11-25-h100-verify/run.sh $O/v build suite=ops
export PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda build-cuda/tests/petsc/snes_ex19 >/dev/null 2>&1
zcat $O/v/suite.txt.gz | grep -E "factor|difference|vectors|default solver" | head -30
lib=$(pwd)/build-cuda/lib/libaijtuned.so
for t in aij aijcusparse aijtuned; do
  mpiexec --oversubscribe --bind-to none -n 3 build-cuda/tests/petsc/snes_ex19 -dll_append $lib -dm_mat_type $t -snes_monitor_short -ksp_monitor_short -pc_type fieldsplit -snes_view -da_refine 1 -ksp_type fgmres > $O/ex19_7_$t.txt 2>&1
done
diff $O/ex19_7_aij.txt $O/ex19_7_aijcusparse.txt | head -40
echo ===== tuned vs cusparse
diff $O/ex19_7_aijcusparse.txt $O/ex19_7_aijtuned.txt | head -40
