static char help[] = "MatStoreValues and MatRetrieveValues of a matrix of type -type against AIJ's, in tests/mat/ops.c's three\n\
sequences: each line gives the largest |y - y_aij| / |y_aij| of MatMult after it (0 where they agree to rounding).\n\
  -type <t>   aijcusparse or aijtuned (-dll_append its library), default aijcusparse\n\
  -n <n>      rows (default 400)\n\n";

#include <petscmat.h>

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

/* y = A x against y = R x, x the same, through the vectors' host arrays (A's may be CUDA vectors, R's host ones) */
static PetscErrorCode Compare(Mat A, Mat R, const char *what)
{
  Vec                xa, ya, xr, yr;
  const PetscScalar *r, *y;
  PetscScalar       *x;
  PetscInt           n;
  PetscReal          ds[2] = {0, 0}, all[2];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecSetRandom(xr, NULL));
  PetscCall(VecGetLocalSize(xr, &n));
  PetscCall(VecGetArrayRead(xr, &r));
  PetscCall(VecGetArrayWrite(xa, &x));
  PetscCall(PetscArraycpy(x, r, n));
  PetscCall(VecRestoreArrayWrite(xa, &x));
  PetscCall(VecRestoreArrayRead(xr, &r));
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(R, xr, yr));
  PetscCall(VecGetLocalSize(yr, &n));
  PetscCall(VecGetArrayRead(yr, &r));
  PetscCall(VecGetArrayRead(ya, &y));
  for (PetscInt i = 0; i < n; i++) {
    ds[0] = PetscMax(ds[0], PetscAbsScalar(y[i] - r[i]));
    ds[1] = PetscMax(ds[1], PetscAbsScalar(r[i]));
  }
  PetscCall(VecRestoreArrayRead(ya, &y));
  PetscCall(VecRestoreArrayRead(yr, &r));
  PetscCallMPI(MPIU_Allreduce(ds, all, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-60s %.1e%s\n", what, (double)(all[0] / all[1]), all[0] / all[1] > 1e-12 ? "   WRONG" : ""));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
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
  PetscCall(Compare(A, R, "1. assembled, MatStoreValues"));
  for (int k = 0; k < 2; k++) PetscCall(MatScale(k ? R : A, 3.0));
  PetscCall(Compare(A, R, "   MatScale"));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatRetrieveValues(X));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(Compare(A, R, "   MatRetrieveValues, assembly"));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatScale(X, -2.0));
    PetscCall(MatShift(X, 1.5));
    PetscCall(MatStoreValues(X));
    PetscCall(MatScale(X, 4.0));
  }
  PetscCall(Compare(A, R, "2. MatScale, MatShift, MatStoreValues, MatScale"));
  for (int k = 0; k < 2; k++) PetscCall(MatRetrieveValues(k ? R : A));
  PetscCall(Compare(A, R, "   MatRetrieveValues (no assembly)"));
  for (int k = 0; k < 2; k++) {
    X = k ? R : A;
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(Compare(A, R, "   assembly"));
  for (int k = 0; k < 2; k++) {
    PetscInt rs, re;
    X = k ? R : A;
    PetscCall(MatRetrieveValues(X));
    PetscCall(MatGetOwnershipRange(X, &rs, &re));
    for (PetscInt i = rs; i < re; i += 7) PetscCall(MatSetValue(X, i, i, 0.25 * (PetscScalar)i, ADD_VALUES));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(Compare(A, R, "3. MatRetrieveValues, MatSetValues, assembly"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}
