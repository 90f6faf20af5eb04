/*
   Test-only: a tridiagonal n x n matrix on PETSC_COMM_WORLD, (-1, 2 + i/n + shift, -1) in row i.  Its diagonal
   varies, so that a product that mixes up rows shows.
*/
#pragma once

#include <petscmat.h>

/* The matrix of type type (and the options' -mat_type), preallocated for the three entries of a row */
static inline PetscErrorCode TestTridiagonalCreate(MatType type, PetscInt n, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 3, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 3, NULL, 1, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Its values in the rows this rank owns, then the matrix assembled */

static inline PetscErrorCode TestTridiagonalFill(Mat A, PetscInt n, PetscReal shift)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, i, 2.0 + (PetscReal)i / n + shift, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
