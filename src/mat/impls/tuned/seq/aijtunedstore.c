/* MatStoreValues and MatRetrieveValues of seqaijtuned matrices (SNES's way to keep a Jacobian's linear part): the
   base's, through the host's values as the base keeps them.

   SeqAIJ's own copy the host's value array to its stash and back directly.  Where the values are newer on the GPU
   (MatScale, MatShift or a COO assembly there), the host's stale ones were stored; the retrieved ones went into the
   host's array with nothing told: the base's device copy still counted as current, and the matrix kept its state,
   so aijtuned's strips kept the values they had (with the strips' host reference, the products after a retrieve
   without an assembly differed from AIJ's, tests/mat/ops.c).  Here the store reads the host's values after the
   base has brought them up to date (a copy down only where the device's are newer), and the retrieve writes them as
   MatSetValues does, through the value array's accessors: the base marks its host values current, the matrix gets
   a new state, and the next product takes the retrieved values.  An mpiaijtuned matrix keeps MPIAIJ's, which call
   these on its blocks. */
#include "../aijtunedimpl.h"

#define STORE_VALUES    "MatStoreValues_C"
#define RETRIEVE_VALUES "MatRetrieveValues_C"

typedef void (*VoidFn)(void);

static PetscErrorCode BaseOf(Mat A, MatAIJTunedBase **base)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedBaseFind(A, base, NULL));
  PetscCheck(*base && (*base)->store_values && (*base)->retrieve_values, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the values' store of a matrix without the base's");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StoreValues(Mat A)
{
  MatAIJTunedBase *base;

  PetscFunctionBegin;
  PetscCall(BaseOf(A, &base));
  PetscCall(MatAIJTunedHostValuesUp(A));
  PetscCall(base->store_values(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where the device's values are newer, MatSeqAIJGetArray copies them down first, and the stash then overwrites them;
   the base's checks (the pattern frozen, values stored) come after that copy, so an error loses nothing. */
static PetscErrorCode RetrieveValues(Mat A)
{
  MatAIJTunedBase *base;
  PetscScalar     *a;

  PetscFunctionBegin;
  PetscCall(BaseOf(A, &base));
  PetscCall(MatSeqAIJGetArray(A, &a));
  PetscCall(base->retrieve_values(A));
  PetscCall(MatSeqAIJRestoreArray(A, &a)); /* a new state; the host's values the current ones */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedHookStore(Mat A, MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedHookComposed(A, STORE_VALUES, (VoidFn *)&base->store_values, (VoidFn)StoreValues));
  PetscCall(MatAIJTunedHookComposed(A, RETRIEVE_VALUES, (VoidFn *)&base->retrieve_values, (VoidFn)RetrieveValues));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's own back (aijtuned leaves the matrix) */
PetscErrorCode MatAIJTunedRestoreStore(Mat A, const MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedRestoreComposed(A, STORE_VALUES, (VoidFn)base->store_values));
  PetscCall(MatAIJTunedRestoreComposed(A, RETRIEVE_VALUES, (VoidFn)base->retrieve_values));
  PetscFunctionReturn(PETSC_SUCCESS);
}
