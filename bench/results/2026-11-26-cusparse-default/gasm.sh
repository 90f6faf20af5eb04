#!/usr/bin/env bash
# SNES ex5 5_newton_gasm_dmda (PETSc's test, 4 ranks, GASM with ILU blocks): the linear residuals of its third
# Newton step moved by 0.2% when cuSPARSE's ILU became aijtuned's default.  Which factor, which vectors.
set -u
O=${1:?}; mkdir -p $O
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
export PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda -j16 lib > /dev/null 2>&1 || exit 1
ex=/opt/petsc-cuda/share/petsc/examples/src/snes/tutorials
exe=build-cuda/tutorials/snes/tutorials/ex5
make -s PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda $exe || exit 1
lib=$(pwd)/build-cuda/lib/libaijtuned.so
args="-snes_monitor_short -ksp_monitor_short -snes_converged_reason -da_refine 4 -da_overlap 3 -snes_type newtonls -pc_type gasm"
run() { echo "== $1"; mpiexec --oversubscribe --bind-to none -n 4 $exe $args -dll_append $lib $1 > $O/$2.txt 2>&1; echo "exit $?"; \
        diff -w $O/$2.txt $ex/output/ex5_5_newton_gasm_dmda.out > /dev/null && echo "  as recorded" || { echo "  differs:"; grep -A1 "2 SNES Function" $O/$2.txt | tail -1; grep "3 SNES" $O/$2.txt; }; }
run "-dm_mat_type aij -mat_type aij" aij
run "-dm_mat_type aijtuned -mat_type aijtuned" tuned
run "-dm_mat_type aijtuned -mat_type aijtuned -sub_pc_factor_mat_solver_type petsc" tuned_petsc
run "-dm_mat_type aijtuned -mat_type aijtuned -dm_vec_type cuda" tuned_cuda
run "-dm_mat_type aijcusparse -mat_type aijcusparse -dm_vec_type cuda" cusparse_cuda
run "-dm_mat_type aijcusparse -mat_type aijcusparse -dm_vec_type cuda -sub_pc_factor_mat_solver_type petsc" cusparse_cuda_petsc
grep -A1 "2 SNES Function" $ex/output/ex5_5_newton_gasm_dmda.out | tail -1
