/* mat/tests ex96's MatMatMult part step by step, each result against the host AIJ's (diagnosis only) */
#include <petscdmda.h>
#ifndef PETSC_SUCCESS
#define PETSC_SUCCESS 0
#endif

static PetscErrorCode Cmp(const char *what, Mat X, Mat H)
{
  Vec       x, y, z;
  PetscReal e, n;
  PetscFunctionBegin;
  PetscBool own = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-own_vecs", &own, NULL));
  PetscCall(MatCreateVecs(own ? X : H, &x, &y));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(X, x, y));
  PetscCall(MatMult(H, x, z));
  PetscCall(VecAXPY(y, -1.0, z));
  PetscCall(VecNorm(y, NORM_1, &e));
  PetscCall(VecNorm(z, NORM_1, &n));
  MatType t;
  PetscCall(MatGetType(X, &t));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-40s %-16s rel diff %g\n", what, t, (double)(e / n)));
  PetscCall(VecDestroy(&x)); PetscCall(VecDestroy(&y)); PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM          dc, df;
  Mat         A, Ah, P, Ph, At, C, Ch, Ath;
  const PetscInt *ia, *ja;
  PetscInt    nrows;
  PetscBool   flg;
  PetscScalar *array;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 10, 5, 10, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &dc));
  PetscCall(DMSetFromOptions(dc));
  PetscCall(DMSetUp(dc));
  PetscCall(DMRefine(dc, PETSC_COMM_WORLD, &df));
  PetscCall(DMSetMatType(df, MATAIJ));
  PetscCall(DMCreateMatrix(df, &A));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ia, &ja, &flg));
  if (flg) {
    PetscCall(MatSeqAIJGetArray(A, &array));
    for (PetscInt i = 0; i < ia[nrows]; i++) array[i] = 1.0;
    PetscCall(MatSeqAIJRestoreArray(A, &array));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ia, &ja, &flg));
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &Ah));
  PetscCall(Cmp("A after GetArray", A, Ah));
  PetscCall(DMCreateInterpolation(dc, df, &P, NULL));
  PetscCall(MatConvert(P, MATSEQAIJ, MAT_INITIAL_MATRIX, &Ph));
  PetscCall(Cmp("P", P, Ph));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &At));
  PetscCall(MatDuplicate(Ah, MAT_COPY_VALUES, &Ath));
  PetscCall(Cmp("A_tmp = dup(A)", At, Ath));
  PetscCall(MatMatMult(At, P, MAT_INITIAL_MATRIX, 2.0, &C));
  PetscCall(MatMatMult(Ath, Ph, MAT_INITIAL_MATRIX, 2.0, &Ch));
  PetscCall(Cmp("C = A_tmp P", C, Ch));
  for (int i = 0; i < 2; i++) {
    PetscCall(MatScale(At, 0.9 - 0.1 * i));
    PetscCall(MatScale(Ath, 0.9 - 0.1 * i));
    PetscCall(Cmp("A_tmp scaled", At, Ath));
    PetscCall(MatMatMult(At, P, MAT_REUSE_MATRIX, 2.0, &C));
    PetscCall(MatMatMult(Ath, Ph, MAT_REUSE_MATRIX, 2.0, &Ch));
    PetscCall(Cmp("C reused", C, Ch));
  }
  PetscCall(MatProductClear(C));
  PetscCall(Cmp("C after MatProductClear", C, Ch));
  PetscCall(MatDestroy(&A)); PetscCall(MatDestroy(&Ah)); PetscCall(MatDestroy(&P)); PetscCall(MatDestroy(&Ph));
  PetscCall(MatDestroy(&At)); PetscCall(MatDestroy(&Ath)); PetscCall(MatDestroy(&C)); PetscCall(MatDestroy(&Ch));
  PetscCall(DMDestroy(&dc)); PetscCall(DMDestroy(&df));
  PetscCall(PetscFinalize());
  return 0;
}
