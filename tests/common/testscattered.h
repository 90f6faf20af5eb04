/* The GPU tests' matrix of scattered rows (tests/mat/room.c, pool.c): row r of 'rows' holds 1 + (r * 7919) % 40
   entries, added at columns spread over the whole matrix (two may meet), valued 1 to 2, so that the model plans rows
   sorted by length.  Rows rstart to rend - 1 (each rank its own), not assembled. */
#pragma once

#include <petscmat.h>

static PetscErrorCode TestScatteredRows(Mat A, PetscInt rows, PetscInt rstart, PetscInt rend)
{
  PetscFunctionBeginUser;
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscInt len = 1 + (r * 7919) % 40;
    for (PetscInt q = 0; q < len; q++) PetscCall(MatSetValue(A, r, (r * 31 + q * 104729) % rows, 1.0 + (PetscReal)((r + q) % 17) / 16, ADD_VALUES));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
