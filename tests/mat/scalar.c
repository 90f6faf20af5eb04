static char help[] = "aijtuned on a PETSc of other scalars (complex, single, __float128) refuses the matrix with PETSC_ERR_SUP,\n\
never reading its values as doubles; on real double it gives AIJ's product.\n\n";

#include <petscmataijtuned.h>
#include "../common/testtridiag.h"

static char first_message[1024];

/* Keep the first message of the error, return the code, print nothing. */
static PetscErrorCode Record(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) PetscStrncpy(first_message, mess ? mess : "", sizeof(first_message));
  return n;
}

/* A tridiagonal n x n matrix of type type (testtridiag.h), assembled, or the error of its MatSetType. */
static PetscErrorCode Tridiagonal(MatType type, PetscInt n, Mat *A, PetscErrorCode *set_type)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(PetscPushErrorHandler(Record, NULL));
  *set_type = MatSetType(*A, type);
  PetscCall(PetscPopErrorHandler());
  if (*set_type) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSetUp(*A));
  PetscCall(TestTridiagonalFill(*A, n, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat            A, T, C;
  Vec            x, y, z;
  PetscErrorCode set_type, ignored;
  PetscInt       n = 100;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(Tridiagonal(MATAIJ, n, &A, &ignored));
  PetscCall(Tridiagonal(MATAIJTUNED, n, &T, &set_type));
  if (set_type) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatSetType(aijtuned): %s\n  %s\n", set_type == PETSC_ERR_SUP ? "PETSC_ERR_SUP" : "another error", first_message));
    first_message[0] = 0;
    PetscCall(PetscPushErrorHandler(Record, NULL)); /* and a converter refuses it too */
    set_type = MatConvert(A, MATAIJTUNED, MAT_INITIAL_MATRIX, &C);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatConvert(aij, aijtuned): %s\n", set_type == PETSC_ERR_SUP ? "PETSC_ERR_SUP" : "another error"));
  } else {
    PetscReal diff;
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecDuplicate(y, &z));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(MatMult(A, x, y));
    PetscCall(MatMult(T, x, z));
    PetscCall(VecAXPY(z, -1.0, y));
    PetscCall(VecNorm(z, NORM_INFINITY, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "real double scalars: aijtuned's product %s AIJ's\n", diff < 1e-12 ? "equals" : "DIFFERS FROM"));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(MatDestroy(&T));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: real
      nsize: {{1 2}}
      requires: double !complex
      output_file: output/scalar_real.out

   test:
      suffix: complex
      nsize: {{1 2}}
      requires: complex
      output_file: output/scalar_other.out

   test:
      suffix: other
      nsize: {{1 2}}
      requires: !double !complex
      output_file: output/scalar_other.out
      filter: sed -e "s/real [a-z_0-9-]* scalars:/complex double-precision scalars:/"

TEST*/
