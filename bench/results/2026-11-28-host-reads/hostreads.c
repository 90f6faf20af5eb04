static char help[] = "MatGetColumnNorms and MatEliminateZeros after MatScale, for a matrix of type -type against AIJ's (tests/mat/ops.c's\n\
sequence): each line gives the largest difference relative to AIJ's largest (0 where they agree to rounding).\n\
  -type <t>   aijcusparse or aijtuned (-dll_append its library), default aijcusparse\n\
  -n <n>      rows (default 400)\n\n";

#include <petscmat.h>
#include "../../common/againstaij.h" /* AgainstAIJ: a product against AIJ's */

/* ops.c's band, with an explicit zero left of the diagonal in every fifth row */
static PetscErrorCode Create(MatType type, PetscInt M, Mat *A)
{
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, M));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 130, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 130, NULL, 130, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt w = i % 50 == 0 ? 60 : 1 + i % 4;
    for (PetscInt j = PetscMax(0, i - w); j <= PetscMin(M - 1, i + w); j++) PetscCall(MatSetValue(*A, i, j, i % 5 == 0 && j == i - 1 ? 0.0 : i == j ? 10.0 : 1.0 / (1.0 + i + j), INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat        A, R;
  char       type[64] = "aijcusparse";
  PetscInt   n = 400;
  PetscReal *na, *nr, d = 0, s = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s, %" PetscInt_FMT " rows\n", type, n));
  PetscCall(Create(type, n, &A));
  PetscCall(Create(MATAIJ, n, &R));
  PetscCall(AgainstAIJ(A, R, "assembled, a product", 45));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatScale(R, 2.0));
  PetscCall(PetscMalloc2(n, &na, n, &nr));
  PetscCall(MatGetColumnNorms(A, NORM_1, na));
  PetscCall(MatGetColumnNorms(R, NORM_1, nr));
  for (PetscInt j = 0; j < n; j++) d = PetscMax(d, PetscAbsReal(na[j] - nr[j])), s = PetscMax(s, nr[j]);
  PetscCall(PetscFree2(na, nr));
  PetscCall(AgainstAIJPrint("MatScale, MatGetColumnNorms (NORM_1)", 45, d, s));
  PetscCall(MatScale(A, 1.5));
  PetscCall(MatScale(R, 1.5));
  PetscCall(MatEliminateZeros(A, PETSC_FALSE));
  PetscCall(MatEliminateZeros(R, PETSC_FALSE));
  PetscCall(AgainstAIJ(A, R, "MatScale, MatEliminateZeros, a product", 45));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}
