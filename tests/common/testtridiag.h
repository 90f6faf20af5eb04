/*
   Test-only: the values of a tridiagonal n x n matrix, (-1, 2 + i/n + shift, -1) in row i, set in the rows this rank
   owns, then the matrix assembled.  Its diagonal varies, so that a product that mixes up rows shows.
*/
#pragma once

#include <petscmat.h>

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
