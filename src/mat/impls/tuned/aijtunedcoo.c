/* COO assembly (MatSetPreallocationCOO, MatSetValuesCOO) of aijtuned matrices: the base's, under its name in a debug PETSc.

   The base composes its COO functions on the matrix (cuSPARSE's: on the GPU, values from device arrays too), and
   aijtuned keeps them: the next assembly or product plans again or refreshes the values as after any other (in an
   optimized PETSc, tests/mat/coo.c on 1-3 ranks).  A debug PETSc checks, in cuSPARSE's uploads and value
   accessors, that the matrix is named seqaijcusparse (seq/aijtunedbaseops.c says more), so aijtuned composes its
   own functions in their place, which call the base's under the base's name there. */
#include "aijtunedimpl.h"

#define COO_PREALLOCATION "MatSetPreallocationCOO_C"
#define COO_VALUES        "MatSetValuesCOO_C"

typedef void (*VoidFn)(void);

/* A's base; *seq (unless seq is NULL): whether A is a seqaijtuned matrix */
static PetscErrorCode BaseOf(Mat A, MatAIJTunedBase **base, PetscBool *seq)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedBaseFind(A, base, seq));
  PetscCheck(*base, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: COO assembly of a matrix without aijtuned's state");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix alone renamed: MPIAIJ's preallocation replaces the blocks, whose names must not be given back after it
   (its new blocks take the root type of the matrix's name: seqaijcusparse in a debug PETSc; the MPI type makes
   them aijtuned afterwards) */
PetscErrorCode MatAIJTunedCOOPreallocation(Mat A, PetscCount n, PetscInt i[], PetscInt j[])
{
  MatAIJTunedBase *base;

  PetscFunctionBegin;
  PetscCall(BaseOf(A, &base, NULL));
  PetscCheck(base->coo_preallocation, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no COO preallocation");
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBaseAlone, base->coo_preallocation(A, n, i, j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix and an MPI matrix's blocks renamed: MPIAIJCUSPARSE's values go into the blocks' arrays.  A seqaijtuned
   matrix of a new pattern begins its planning first, beside the base's assembly of the values (seq/aijtuned.c). */
static PetscErrorCode COOValues(Mat A, const PetscScalar v[], InsertMode mode)
{
  MatAIJTunedBase *base;
  PetscBool        seq = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(BaseOf(A, &base, &seq));
  PetscCheck(base->coo_values, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no COO values");
  if (seq) PetscCall(MatSeqAIJTunedPlanBesideCOO(A));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, base->coo_values(A, v, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedHookCOO(Mat A, MatAIJTunedBase *base, PetscErrorCode (*preallocation)(Mat, PetscCount, PetscInt[], PetscInt[]))
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedHookComposed(A, COO_PREALLOCATION, (VoidFn *)&base->coo_preallocation, (VoidFn)preallocation));
  PetscCall(MatAIJTunedHookComposed(A, COO_VALUES, (VoidFn *)&base->coo_values, (VoidFn)COOValues));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's own back (aijtuned leaves the matrix) */
PetscErrorCode MatAIJTunedRestoreCOO(Mat A, const MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedRestoreComposed(A, COO_PREALLOCATION, (VoidFn)base->coo_preallocation));
  PetscCall(MatAIJTunedRestoreComposed(A, COO_VALUES, (VoidFn)base->coo_values));
  PetscFunctionReturn(PETSC_SUCCESS);
}
