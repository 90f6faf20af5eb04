static char help[] = "MatStoreValues and MatRetrieveValues of a matrix of type -type against AIJ's, in tests/mat/ops.c's three\n\
sequences: each line gives the largest |y - y_aij| / |y_aij| of MatMult after it (0 where they agree to rounding).\n\
  -type <t>   aijcusparse or aijtuned (-dll_append its library), default aijcusparse\n\
  -n <n>      rows (default 400)\n\n";

#include <petscmat.h>
#include "../../common/againstaij.h" /* AgainstAIJ: a product against AIJ's */

static PetscErrorCode Fill(Mat A, PetscScalar scale)
{
  PetscInt M, rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt w = i % 50 == 0 ? 60 : 1 + i % 4;
    for (PetscInt j = PetscMax(0, i - w); j <= PetscMin(M - 1, i + w); j++) PetscCall(MatSetValue(A, i, j, scale * (i == j ? 10.0 : 1.0 / (1.0 + i + j)), INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, PetscInt M, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, M));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 130, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 130, NULL, 130, NULL));
  PetscCall(Fill(*A, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat      A, R, X;
  char     type[64] = "aijcusparse";
  PetscInt n = 400;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s, %" PetscInt_FMT " rows\n", type, n));
  PetscCall(Create(type, n, &A));
  PetscCall(Create(MATAIJ, n, &R));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatSetOption(X, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
    PetscCall(MatStoreValues(X));
  }
  PetscCall(AgainstAIJ(A, R, "1. assembled, MatStoreValues", 60));
  for (int k = 0; k < 2; k++) PetscCall(MatScale(k ? R : A, 3.0));
  PetscCall(AgainstAIJ(A, R, "   MatScale", 60));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatRetrieveValues(X));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(AgainstAIJ(A, R, "   MatRetrieveValues, assembly", 60));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatScale(X, -2.0));
    PetscCall(MatShift(X, 1.5));
    PetscCall(MatStoreValues(X));
    PetscCall(MatScale(X, 4.0));
  }
  PetscCall(AgainstAIJ(A, R, "2. MatScale, MatShift, MatStoreValues, MatScale", 60));
  for (int k = 0; k < 2; k++) PetscCall(MatRetrieveValues(k ? R : A));
  PetscCall(AgainstAIJ(A, R, "   MatRetrieveValues (no assembly)", 60));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(AgainstAIJ(A, R, "   assembly", 60));
  for (int k = 0; k < 2; k++) {
    PetscInt rs, re;
    X = k ? R : A;
    PetscCall(MatRetrieveValues(X));
    PetscCall(MatGetOwnershipRange(X, &rs, &re));
    for (PetscInt i = rs; i < re; i += 7) PetscCall(MatSetValue(X, i, i, 0.25 * (PetscScalar)i, ADD_VALUES));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(AgainstAIJ(A, R, "3. MatRetrieveValues, MatSetValues, assembly", 60));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}
