static char help[] = "What -mat_view ::ascii_info says of an aijtuned matrix whose ranks planned with different performance models.\n\
Each rank reads its own options and finds its own GPU's model, so on a cluster of mixed GPUs the ranks' plans may come\n\
from different models.  Here the last rank is given the H100's model and the others the H200's (-mat_aijtuned_model,\n\
set on each rank apart).  The summary gives rank 0's line and says on how many ranks the plan was made otherwise;\n\
::ascii_info_detail gives each rank's.  The products are checked against AIJ's.\n\
  -n <n>  rows of the tridiagonal matrix (default 200)\n\n";

#include <petscmataijtuned.h>
#include "../common/testtridiag.h"

int main(int argc, char **argv)
{
  PetscInt    n = 200;
  PetscMPIInt rank, size;
  Mat         A, R;
  Vec         x, y, yref;
  PetscReal   dn, rn;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  /* this rank's own options: the tests run in tests/mat, the shipped models two folders up */
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_model", rank == size - 1 && size > 1 ? "../../models/NVIDIA-H100-80GB-HBM3.model" : "../../models/NVIDIA-H200.model"));
  PetscCall(TestTridiagonalCreate(MATAIJTUNED, n, &A));
  PetscCall(TestTridiagonalCreate(MATAIJ, n, &R));
  PetscCall(TestTridiagonalFill(A, n, 0.0));
  PetscCall(TestTridiagonalFill(R, n, 0.0));

  PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
  if (size > 1) {
    PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO_DETAIL));
    PetscCall(MatView(A, PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
  }

  PetscCall(MatCreateVecs(R, &x, &yref));
  PetscCall(VecDuplicate(yref, &y));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(R, x, yref));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(yref, NORM_INFINITY, &rn));
  PetscCall(VecAXPY(y, -1.0, yref));
  PetscCall(VecNorm(y, NORM_INFINITY, &dn));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult %s AIJ's\n", dn <= 1e-14 * rn ? "matches" : "DIFFERS from"));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 1
      output_file: output/view_1.out
      filter: grep -E "planned|^MatMult"

   test:
      suffix: 2
      nsize: 2
      output_file: output/view_2.out
      filter: grep -E "planned|^MatMult"

TEST*/
