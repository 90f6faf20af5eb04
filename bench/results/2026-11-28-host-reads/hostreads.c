static char help[] = "MatGetColumnNorms and MatEliminateZeros after MatScale, for a matrix of type -type against AIJ's (tests/mat/ops.c's\n\
sequence): each line gives the largest difference relative to AIJ's largest (0 where they agree to rounding).\n\
  -type <t>   aijcusparse or aijtuned (-dll_append its library), default aijcusparse\n\
  -n <n>      rows (default 400)\n\n";

#include <petscmat.h>

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

static PetscErrorCode Print(const char *what, PetscReal d, PetscReal s)
{
  PetscReal in[2] = {d, s}, all[2];

  PetscFunctionBeginUser;
  PetscCallMPI(MPIU_Allreduce(in, all, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-45s %.1e%s\n", what, (double)(all[0] / all[1]), all[0] / all[1] > 1e-12 ? "   WRONG" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x against y = R x, x the same, through the vectors' host arrays */
static PetscErrorCode Compare(Mat A, Mat R, const char *what)
{
  Vec                xa, ya, xr, yr;
  const PetscScalar *r, *y;
  PetscScalar       *x;
  PetscInt           n;
  PetscReal          d = 0, s = 0;

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
  for (PetscInt i = 0; i < n; i++) d = PetscMax(d, PetscAbsScalar(y[i] - r[i])), s = PetscMax(s, PetscAbsScalar(r[i]));
  PetscCall(VecRestoreArrayRead(ya, &y));
  PetscCall(VecRestoreArrayRead(yr, &r));
  PetscCall(Print(what, d, s));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
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
  PetscCall(Compare(A, R, "assembled, a product"));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatScale(R, 2.0));
  PetscCall(PetscMalloc2(n, &na, n, &nr));
  PetscCall(MatGetColumnNorms(A, NORM_1, na));
  PetscCall(MatGetColumnNorms(R, NORM_1, nr));
  for (PetscInt j = 0; j < n; j++) d = PetscMax(d, PetscAbsReal(na[j] - nr[j])), s = PetscMax(s, nr[j]);
  PetscCall(PetscFree2(na, nr));
  PetscCall(Print("MatScale, MatGetColumnNorms (NORM_1)", d, s));
  PetscCall(MatScale(A, 1.5));
  PetscCall(MatScale(R, 1.5));
  PetscCall(MatEliminateZeros(A, PETSC_FALSE));
  PetscCall(MatEliminateZeros(R, PETSC_FALSE));
  PetscCall(Compare(A, R, "MatScale, MatEliminateZeros, a product"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}
