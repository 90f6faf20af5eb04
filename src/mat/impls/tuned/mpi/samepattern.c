/*
   Whether two MPI AIJ matrices have one pattern on this rank, for MatAXPY of a pattern not known to be the same.

   The sequential AIJ compares the two patterns when MatAXPY is not told they are the same, and adds in place when
   they are; MPIAIJ does not: it builds a new matrix of the union pattern on the host, row by row, and merges it into
   Y (MatHeaderMerge), a new pattern, so aijtuned plans its blocks again.  TS forms its implicit Jacobian so at every
   step (TSComputeIJacobian: MatAXPY of the right-hand side's Jacobian with the pattern TSSetMatStructure gives,
   unknown by default): PETSc's TS ex4 at 8M points on two H100s took 60-70 s for 20 steps with aijcusparse and
   with aijtuned, 75% of it in MatAXPY (bench/results/2026-11-26-x2-ts).  The blocks' structures are compared here
   (rows' offsets, columns, and the off-diagonal block's ghost columns), as the sequential AIJ does, and the result
   is kept for the blocks it was found for: their object ids and pattern states.
*/
#include "../aijtunedimpl.h"

/* Whether blocks B and C hold entries in the same places (their host structure, which AIJ keeps current) */
static PetscErrorCode SameBlockPattern(Mat B, Mat C, PetscBool *same)
{
  const PetscInt *bi, *bj, *ci, *cj;
  PetscInt        bn, cn;
  PetscBool       bdone, cdone;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &bn, &bi, &bj, &bdone));
  PetscCall(MatGetRowIJ(C, 0, PETSC_FALSE, PETSC_FALSE, &cn, &ci, &cj, &cdone));
  *same = (PetscBool)(bdone && cdone && bn == cn && B->cmap->n == C->cmap->n);
  if (*same) PetscCall(PetscArraycmp(bi, ci, bn + 1, same));
  if (*same) PetscCall(PetscArraycmp(bj, cj, bi[bn], same));
  PetscCall(MatRestoreRowIJ(C, 0, PETSC_FALSE, PETSC_FALSE, &cn, &ci, &cj, &cdone));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &bn, &bi, &bj, &bdone));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks' identity and pattern states: equal keys, equal patterns as before */
static PetscErrorCode PatternKey(Mat Yd, Mat Yo, Mat Xd, Mat Xo, MatAIJTunedPatternKey *key)
{
  Mat blocks[4] = {Yd, Yo, Xd, Xo};

  PetscFunctionBegin;
  for (int b = 0; b < 4; b++) {
    PetscCall(PetscObjectGetId((PetscObject)blocks[b], &key->id[b]));
    key->state[b] = blocks[b]->nonzerostate;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether X's pattern on this rank is Y's (both MPI AIJ): *same; *last, the blocks last found so, skips the
   comparison when they are still the same blocks of the same patterns, and is updated. */
PetscErrorCode MatMPIAIJTunedSamePattern(Mat Y, Mat X, MatAIJTunedPatternKey *last, PetscBool *same)
{
  Mat                   Yd, Yo, Xd, Xo;
  const PetscInt       *yg, *xg;
  MatAIJTunedPatternKey key;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(Y, &Yd, &Yo, &yg));
  PetscCall(MatMPIAIJGetSeqAIJ(X, &Xd, &Xo, &xg));
  PetscCall(PatternKey(Yd, Yo, Xd, Xo, &key));
  PetscCall(PetscMemcmp(&key, last, sizeof(key), same));
  if (*same) PetscFunctionReturn(PETSC_SUCCESS);
  *same = (PetscBool)(Yo->cmap->n == Xo->cmap->n);
  if (*same && Yo->cmap->n) PetscCall(PetscArraycmp(yg, xg, Yo->cmap->n, same));
  if (*same) PetscCall(SameBlockPattern(Yd, Xd, same));
  if (*same) PetscCall(SameBlockPattern(Yo, Xo, same));
  if (*same) *last = key;
  PetscFunctionReturn(PETSC_SUCCESS);
}
