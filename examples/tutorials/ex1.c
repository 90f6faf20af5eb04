static char help[] = "Solves a 2-D (5-point) or 3-D (7-point) Poisson problem with KSP; any -mat_type, aijtuned included.\n\
The right-hand side is A * ones, so the exact solution is known.\n\
  -dim <2,3>  : dimension\n\
  -n <int>    : grid points per direction\n\
  -repeat <int> : solve this many times, changing the matrix values between solves (same pattern)\n\
  -resolve      : solve once more with the same matrix and report the host-device copies MatMult made\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>

/* Row 'row' of the Laplacian on an n^dim grid (Dirichlet boundary), scaled by 'scale' */
static PetscErrorCode SetRow(Mat A, PetscInt dim, PetscInt n, PetscInt row, PetscScalar scale)
{
  PetscInt    cols[7], nc = 0, idx[3], rem = row, stride = 1;
  PetscScalar vals[7];

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) {
    idx[d] = rem % n;
    rem /= n;
  }
  cols[nc]   = row;
  vals[nc++] = 2.0 * dim * scale;
  for (PetscInt d = 0; d < dim; d++, stride *= n) {
    if (idx[d] > 0) cols[nc] = row - stride, vals[nc++] = -scale;
    if (idx[d] < n - 1) cols[nc] = row + stride, vals[nc++] = -scale;
  }
  PetscCall(MatSetValues(A, 1, &row, nc, cols, vals, INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A;
  Vec       x, b, u;
  KSP       ksp;
  PetscInt  dim = 2, n = 16, N, rstart, rend, its, repeat = 1;
  PetscReal norm;
  PetscBool resolve = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeat", &repeat, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-resolve", &resolve, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3, not %" PetscInt_FMT, dim);
  PetscCheck(n > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be positive, not %" PetscInt_FMT, n);
  N = dim == 2 ? n * n : n * n * n;

  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 2 * dim + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 2 * dim + 1, NULL, 2 * dim, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(VecDuplicate(u, &x));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));

  for (PetscInt r = 0; r < repeat; r++) {
    PetscScalar scale = 1.0 + r; /* same pattern, new values: the plan is kept, the layouts refreshed */
    for (PetscInt row = rstart; row < rend; row++) PetscCall(SetRow(A, dim, n, row, scale));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));

    PetscCall(VecSet(u, 1.0));
    PetscCall(MatMult(A, u, b));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(VecAXPY(x, -1.0, u));
    PetscCall(VecNorm(x, NORM_2, &norm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT "-D Poisson, %" PetscInt_FMT " unknowns, scale %" PetscInt_FMT ": norm of error %g, iterations %" PetscInt_FMT "\n", dim, N, r + 1, (double)(norm < 1e-10 ? 0 : norm), its));
  }

  if (resolve) { /* steady state: the same matrix again; its MatMult must not copy between host and device */
    PetscLogStage      stage;
    PetscLogEvent      mult;
    PetscEventPerfInfo info;
    PetscCall(PetscLogStageRegister("Resolve", &stage));
    PetscCall(PetscLogStagePush(stage));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(PetscLogStagePop());
    PetscCall(PetscLogEventGetId("MatMult", &mult));
    PetscCall(PetscLogEventGetPerfInfo(stage, mult, &info));
  #if defined(PETSC_HAVE_DEVICE)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult in the second solve: %s calls, %d host-to-device and %d device-to-host copies\n", info.count > 0 ? "some" : "no", (int)info.CpuToGpuCount, (int)info.GpuToCpuCount));
  #else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult in the second solve: %s calls, no device\n", info.count > 0 ? "some" : "no"));
  #endif
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: cg_jacobi
      nsize: {{1 2 4}}
      args: -dim 2 -n 20 -ksp_type cg -pc_type jacobi -ksp_monitor_short -mat_type {{aij aijtuned}}
      output_file: output/ex1_cg_jacobi.out

   test:
      suffix: cg_jacobi_host_strips
      nsize: {{1 2 4}}
      args: -dim 2 -n 20 -ksp_type cg -pc_type jacobi -ksp_monitor_short -mat_type aijtuned -mat_aijtuned_host_strips -mat_aijtuned_min_strip_rows 16
      output_file: output/ex1_cg_jacobi.out

   test:
      suffix: gmres_bjacobi_ilu_1
      nsize: 1
      args: -dim 3 -n 10 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor_short -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -options_left 0

   test:
      suffix: gmres_bjacobi_ilu_2
      nsize: 2
      args: -dim 3 -n 10 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor_short -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -options_left 0

   test:
      suffix: gmres_bjacobi_ilu_4
      nsize: 4
      args: -dim 3 -n 10 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor_short -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -options_left 0

   test:
      suffix: repeat
      nsize: {{1 2}}
      args: -dim 3 -n 8 -repeat 3 -ksp_type cg -pc_type jacobi -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -options_left 0
      output_file: output/ex1_repeat.out

   test:
      suffix: cuda_cg_jacobi
      requires: cuda
      nsize: {{1 2}}
      args: -dim 2 -n 20 -ksp_type cg -pc_type jacobi -ksp_monitor_short -mat_type {{aijcusparse aijtuned}} -vec_type cuda -use_gpu_aware_mpi 0 -mat_aijtuned_min_strip_rows 16 -options_left 0
      output_file: output/ex1_cg_jacobi.out

   test:
      suffix: cuda_gmres_bjacobi_ilu_2
      requires: cuda
      nsize: 2
      args: -dim 3 -n 10 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor_short -mat_type {{aijcusparse aijtuned}} -vec_type cuda -use_gpu_aware_mpi 0 -options_left 0
      output_file: output/ex1_gmres_bjacobi_ilu_2.out

   # one rank: no copies at all; two ranks with the exchange staged through the host: as many as
   # aijcusparse's scatter makes (this OpenMPI is not CUDA-aware); with copies between the GPUs: none
   test:
      suffix: cuda_no_copies
      requires: cuda
      args: -dim 3 -n 24 -ksp_type cg -pc_type jacobi -mat_type {{aijcusparse aijtuned}} -vec_type cuda -use_gpu_aware_mpi 0 -resolve -log_view :/dev/null
      filter: grep "second solve"

   test:
      suffix: cuda_no_copies_2
      requires: cuda
      nsize: 2
      args: -dim 3 -n 24 -ksp_type cg -pc_type jacobi -mat_type {{aijcusparse aijtuned}} -mat_aijtuned_ghost_peer 0 -vec_type cuda -use_gpu_aware_mpi 0 -resolve -log_view :/dev/null
      filter: grep "second solve"

   test:
      suffix: cuda_peer_2
      requires: cuda
      nsize: 2
      args: -dim 3 -n 24 -ksp_type cg -pc_type jacobi -mat_type aijtuned -vec_type cuda -use_gpu_aware_mpi 0 -resolve -log_view :/dev/null
      filter: grep "second solve"

   # which way the ghost values travel, viewed after a solve (with CUDA: between the GPUs)
   test:
      suffix: ghosts_view
      requires: !cuda
      nsize: 2
      args: -dim 2 -n 8 -ksp_type cg -pc_type jacobi -mat_type aijtuned -ksp_view_mat ::ascii_info
      filter: grep "ghost exchange"

   test:
      suffix: cuda_ghosts_view
      requires: cuda
      nsize: 2
      args: -dim 2 -n 8 -ksp_type cg -pc_type jacobi -mat_type aijtuned -use_gpu_aware_mpi 0 -ksp_view_mat ::ascii_info
      filter: grep "ghost exchange"

   test:
      suffix: help
      args: -mat_type aijtuned -help
      filter: grep -o "\-mat_aijtuned_[a-z_]*" | sort -u

   test:
      suffix: log_view
      args: -mat_type aijtuned -mat_aijtuned_host_strips -repeat 2 -log_view
      filter: grep -o "^AIJTuned\(Plan\|Build\|Refresh\) *[0-9]*"

TEST*/
