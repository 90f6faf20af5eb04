/* dense x AIJ products of each type against the host AIJ's (diagnosis only) */
#include <petscmat.h>

static PetscErrorCode Diff(const char *what, Mat X, Mat R)
{
  Mat       Xd;
  PetscReal e, n;
  MatType   t;
  PetscFunctionBegin;
  PetscCall(MatGetType(X, &t));
  PetscCall(MatConvert(X, MATDENSE, MAT_INITIAL_MATRIX, &Xd));
  PetscCall(MatAXPY(Xd, -1.0, R, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(Xd, NORM_FROBENIUS, &e));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &n));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-34s %-18s rel diff %g\n", what, t, (double)(e / n)));
  PetscCall(MatDestroy(&Xd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat      A, Ac, At, Dn, R, X, Rd;
  PetscInt N = 400, rs, re;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, N, N, 5, NULL, 5, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt    c[3] = {i - 1, i, (i + 37) % N};
    PetscScalar v[3] = {-1.0, 2.0 + i % 7, 0.5};
    if (i == 0) c[0] = N - 1;
    PetscCall(MatSetValues(A, 1, &i, 3, c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ac));
  PetscCall(MatConvert(A, "aijtuned", MAT_INITIAL_MATRIX, &At));
  PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, re - rs, 5, N, NULL, &Dn));
  PetscCall(MatSetRandom(Dn, NULL));
  PetscCall(MatMatMult(Dn, A, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
  PetscCall(MatConvert(R, MATDENSE, MAT_INITIAL_MATRIX, &Rd));
  PetscCall(MatMatMult(Dn, Ac, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &X));
  PetscCall(Diff("dense x aijcusparse", X, Rd));
  PetscCall(MatDestroy(&X));
  PetscCall(MatMatMult(Dn, At, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &X));
  PetscCall(Diff("dense x aijtuned", X, Rd));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&A)); PetscCall(MatDestroy(&Ac)); PetscCall(MatDestroy(&At)); PetscCall(MatDestroy(&Dn));
  PetscCall(MatDestroy(&R)); PetscCall(MatDestroy(&Rd));
  PetscCall(PetscFinalize());
  return 0;
}
