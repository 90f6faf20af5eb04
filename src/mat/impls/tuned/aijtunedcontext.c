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

PetscErrorCode MatAIJTunedContextGet(Mat A, const char name[], const char type[], void **ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedContextFind(A, name, ctx));
  PetscCheck(*ctx, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Matrix of type %s is not a %s", ((PetscObject)A)->type_name, type);
  PetscFunctionReturn(PETSC_SUCCESS);
}
