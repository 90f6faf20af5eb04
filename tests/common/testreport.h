/* Test-only, for the PETSc programs of tests/mat that check aijtuned against an AIJ twin: one line per check
   ("what ... ok" or "FAILED", failures counted) and the largest difference of two vectors of any types. */
#pragma once

#include <petscvec.h>

static PetscInt failures = 0;

static PetscErrorCode Report(const char *what, PetscBool ok)
{
  PetscFunctionBeginUser;
  if (!ok) failures++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-58s %s\n", what, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max_i |a_i - b_i| over all ranks, and max(1, max_i |a_i|) to scale it by; a and b may be of different vector types
   (host and CUDA).  Every rank calls it, on vectors of PETSC_COMM_WORLD or each on its own block's. */
static PetscErrorCode MaxDiff(Vec a, Vec b, PetscReal *d, PetscReal *scale)
{
  const PetscScalar *pa, *pb;
  PetscInt           n;
  PetscReal          loc[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetArrayRead(a, &pa));
  PetscCall(VecGetArrayRead(b, &pb));
  for (PetscInt i = 0; i < n; i++) {
    loc[0] = PetscMax(loc[0], PetscAbsScalar(pa[i] - pb[i]));
    loc[1] = PetscMax(loc[1], PetscAbsScalar(pa[i]));
  }
  PetscCall(VecRestoreArrayRead(b, &pb));
  PetscCall(VecRestoreArrayRead(a, &pa));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, loc, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD)); /* every rank calls it */
  *d     = loc[0];
  *scale = PetscMax(1.0, loc[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
