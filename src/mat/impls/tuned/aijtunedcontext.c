/* Where each aijtuned type keeps its state: a container composed on the matrix under the type's name
   (the base type owns A->data and, for GPU bases, A->spptr).  The type's MatDestroy frees the state. */
#include "aijtunedimpl.h"

PetscErrorCode MatAIJTunedContextAttach(Mat A, const char name[], void *ctx)
{
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, ctx));
  PetscCall(PetscObjectCompose((PetscObject)A, name, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *ctx is NULL when the matrix carries no such state */
PetscErrorCode MatAIJTunedContextFind(Mat A, const char name[], void **ctx)
{
  PetscContainer container;

  PetscFunctionBegin;
  *ctx = NULL;
  PetscCall(PetscObjectQuery((PetscObject)A, name, (PetscObject *)&container));
  if (container) PetscCall(PetscContainerGetPointer(container, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix a converter works on: MAT_REUSE_MATRIX only copies values into *newmat (done), MAT_INITIAL_MATRIX
   converts a duplicate, MAT_INPLACE_MATRIX the matrix itself. */
PetscErrorCode MatAIJTunedConvertTarget(Mat A, MatReuse reuse, Mat *newmat, PetscBool *done)
{
  PetscFunctionBegin;
  *done = (PetscBool)(reuse == MAT_REUSE_MATRIX);
  if (reuse == MAT_REUSE_MATRIX) PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The type's destroy goes in only over the base's own.  PETSc wraps the destroy of matrices it has made
   (MatCreateSubMatrices: MatDestroySubMatrix_SeqAIJ keeps the destroy it replaced, ours, and calls it);
   taken over again at the next assembly, the wrapper ran inside ours, and called ours a second time on a
   matrix already given back to its base (PETSc's KSP ex45 with -pc_type exotic or a telescope coarse
   solve).  A base that converts the matrix in place (MatDuplicate_SeqAIJCUSPARSE) puts back its own
   destroy, and that one is taken over again. */
void MatAIJTunedHookDestroy(Mat A, const MatAIJTunedBase *base, PetscErrorCode (*destroy)(Mat))
{
  if (A->ops->destroy == base->ops.destroy) A->ops->destroy = destroy;
}

PetscErrorCode MatAIJTunedBaseRecord(Mat A, MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  base->ops = *A->ops;
  PetscCall(PetscStrncpy(base->type, ((PetscObject)A)->type_name, sizeof(base->type)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Undo an in-place conversion: the base's operations and name, no converters, no state.  The caller
   frees its context after this (base may live in it). */
PetscErrorCode MatAIJTunedBaseRestore(Mat A, const char name[], const char *const converters[2], const MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  *A->ops = base->ops;
  for (int c = 0; c < 2; c++) PetscCall(PetscObjectComposeFunction((PetscObject)A, converters[c], (void (*)(void))NULL));
  PetscCall(PetscObjectCompose((PetscObject)A, name, NULL));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, base->type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedContextGet(Mat A, const char name[], const char type[], void **ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedContextFind(A, name, ctx));
  PetscCheck(*ctx, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Matrix of type %s is not a %s", ((PetscObject)A)->type_name, type);
  PetscFunctionReturn(PETSC_SUCCESS);
}
