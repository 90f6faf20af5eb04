/* A product of a matrix of any type against AIJ's for the same values, for the small programs that check one
   operation's sequence on a GPU (bench/results/2026-11-28-store-values, -host-reads): each prints a line with the
   largest difference relative to AIJ's largest, "WRONG" past rounding. */
#pragma once

#include <petscmat.h>

/* what, then the largest d over the largest s of every rank, in a column width wide */
static inline PetscErrorCode AgainstAIJPrint(const char *what, int width, PetscReal d, PetscReal s)
{
  PetscReal in[2] = {d, s}, all[2];

  PetscFunctionBeginUser;
  PetscCallMPI(MPIU_Allreduce(in, all, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-*s %.1e%s\n", width, what, (double)(all[0] / all[1]), all[0] / all[1] > 1e-12 ? "   WRONG" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x against y = R x (R: AIJ), x the same, through the vectors' host arrays (A's may be CUDA vectors) */
static inline PetscErrorCode AgainstAIJ(Mat A, Mat R, const char *what, int width)
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
  PetscCall(AgainstAIJPrint(what, width, d, s));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
