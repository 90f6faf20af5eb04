static char help[] = "Loads a matrix (PETSc binary, or Matrix Market .mtx / .mtx.gz) and multiplies and solves with it.\n\
  -f <file>      : the matrix\n\
  -mult <int>    : MatMult calls to time (default 50)\n\
  -solve         : solve A x = A * ones with KSP (square matrices)\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>
#include <petsctime.h>

static PetscErrorCode LoadMatrix(const char file[], Mat *A)
{
  size_t len;

  PetscFunctionBeginUser;
  PetscCall(PetscStrlen(file, &len));
  if ((len > 4 && !strcmp(file + len - 4, ".mtx")) || (len > 7 && !strcmp(file + len - 7, ".mtx.gz"))) {
    PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, NULL, A));
  } else {
    PetscViewer viewer;
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &viewer));
    PetscCall(MatCreate(PETSC_COMM_WORLD, A));
    PetscCall(MatSetFromOptions(*A));
    PetscCall(MatLoad(*A, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat            A;
  Vec            x, y, b;
  char           file[PETSC_MAX_PATH_LEN] = "";
  PetscInt       M, N, mults = 50;
  PetscBool      solve = PETSC_FALSE;
  MatInfo        info;
  MatType        type;
  PetscReal      norm;
  PetscLogDouble t0, t1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mult", &mults, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-solve", &solve, NULL));
  PetscCheck(file[0], PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "Give a matrix with -f <file>");

  PetscCall(LoadMatrix(file, &A));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " x %" PetscInt_FMT ", %.0f nonzeros, type %s\n", M, N, info.nz_used, type));

  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y)); /* first call: plans, uploads, tunes */
  PetscCall(VecNorm(y, NORM_2, &norm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "|A * ones| = %g\n", (double)norm));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < mults; k++) PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_2, &norm)); /* waits for the products, on any device */
  PetscCall(PetscTime(&t1));
  if (mults > 0) {
    /* compulsory bytes of CSR in double with 32-bit indices: 12 per nonzero, 12 per row, 8 per column */
    double bytes = 12.0 * info.nz_used + 12.0 * M + 8.0 * N, per = (t1 - t0) / mults;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult time: %.3f us per call, %.2f GB/s of compulsory CSR bytes (%" PetscInt_FMT " calls)\n", 1e6 * per, bytes / per / 1e9, mults));
  }

  if (solve && M == N) {
    KSP      ksp;
    PetscInt its;

    PetscCall(VecDuplicate(y, &b));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, b));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(VecSet(x, 0.0));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetResidualNorm(ksp, &norm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KSP: %" PetscInt_FMT " iterations, residual norm %g\n", its, (double)norm));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&b));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      filter: grep -v "MatMult time" | sed -e "s/, type .*$//"
      args: -mult 2 -solve -ksp_type gmres -pc_type jacobi -ksp_max_it 30 -ksp_norm_type unpreconditioned -options_left 0
      test:
         suffix: bcsstk09
         nsize: {{1 2}}
         args: -f ../../tests/data/bcsstk09.mtx.gz -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips
      test:
         suffix: west0479
         nsize: {{1 3}}
         args: -f ../../tests/data/west0479.mtx.gz -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -mat_aijtuned_min_strip_rows 8 -mat_aijtuned_long_row 8
      test:
         suffix: polblogs
         nsize: {{1 2 4}}
         args: -f ../../tests/data/polblogs.mtx.gz -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips -mat_aijtuned_min_strip_rows 32 -mat_aijtuned_long_row 64
      test:
         suffix: lp_e226
         nsize: {{1 2}}
         args: -f ../../tests/data/lp_e226.mtx.gz -mat_type {{aij aijtuned}} -mat_aijtuned_host_strips

   # the MPI type's listing on one rank: on two, PETSc's SeqAIJ blocks print their own help on each rank, and Open MPI
   # forwarded the ranks' output in pieces that split lines (an option name cut in two, about 3% of runs)
   test:
      suffix: help
      args: -f ../../tests/data/west0479.mtx.gz -mat_type {{aijtuned mpiaijtuned}} -mat_aijtuned_host_strips -mult 1 -help
      filter: grep -o "\\-mat_aijtuned_[a-z_]*" | sort -u

TEST*/
