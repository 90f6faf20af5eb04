/* aijtuned matrices under their base's type name for the length of one call into the base's code.

   PETSc's GPU products and factorizations check their operands' type names (seqaijcusparse) again in each phase.
   aijtuned keeps its base's data (A->data, A->spptr) and changes none of it, so that code works on an aijtuned
   matrix as it is once the matrix carries its base's name: aijtunedproduct.c and aijtunedfactor.c name their
   operands so around each phase, and give the names back after it, whatever it did.  A product PETSc offers under
   the host AIJ's names alone runs on the host, with its aijtuned operands under those names (seqaij, mpiaij). */
#include "aijtunedimpl.h"

/* M alone under its base's name (host_aij: the host AIJ's, seqaij or mpiaij), if it is aijtuned of a base other than
   the host's AIJ and not so named already (an operand twice, or an inner product); *mpi: whether M is an MPI
   aijtuned */
static PetscErrorCode NameOne(Mat M, PetscBool host_aij, MatAIJTunedNames *b, PetscBool *mpi)
{
  MatAIJTunedBase *base;
  PetscBool        seq, host, named;
  const char      *name;

  PetscFunctionBegin;
  *mpi = PETSC_FALSE;
  PetscCall(MatAIJTunedBaseFind(M, &base, &seq));
  if (!base) PetscFunctionReturn(PETSC_SUCCESS);
  *mpi = (PetscBool)!seq;
  PetscCall(PetscStrcmp(base->type, seq ? MATSEQAIJ : MATMPIAIJ, &host));
  name = host_aij ? (seq ? MATSEQAIJ : MATMPIAIJ) : base->type;
  PetscCall(PetscStrcmp(((PetscObject)M)->type_name, name, &named));
  if (host || named) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(b->n < (int)PETSC_STATIC_ARRAY_LENGTH(b->mats), PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: too many matrices renamed at once");
  b->mats[b->n]  = M;
  b->names[b->n] = ((PetscObject)M)->type_name;
  PetscCall(PetscStrallocpy(name, &((PetscObject)M)->type_name));
  b->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M under its base's name or the host AIJ's (NameOne); an MPI matrix's two blocks too (PETSc's device back-end
   multiplies them and asks for their base's name) */
static PetscErrorCode NameWithBlocks(Mat M, PetscBool host_aij, MatAIJTunedNames *b)
{
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(NameOne(M, host_aij, b, &mpi));
  if (mpi) {
    Mat             blocks[2];
    const PetscInt *garray;
    PetscCall(MatMPIAIJGetSeqAIJ(M, &blocks[0], &blocks[1], &garray));
    for (int k = 0; k < 2; k++)
      if (blocks[k]) PetscCall(NameWithBlocks(blocks[k], host_aij, b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedNameAsBase(Mat M, MatAIJTunedNames *b)
{
  PetscFunctionBegin;
  PetscCall(NameWithBlocks(M, PETSC_FALSE, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedNameAsHostAIJ(Mat M, MatAIJTunedNames *b)
{
  PetscFunctionBegin;
  PetscCall(NameWithBlocks(M, PETSC_TRUE, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M alone: for a call that replaces an MPI matrix's blocks (they must not be named back after it) */
PetscErrorCode MatAIJTunedNameAsBaseAlone(Mat M, MatAIJTunedNames *b)
{
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(NameOne(M, PETSC_FALSE, b, &mpi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The names the matrices had, back in reverse order */
PetscErrorCode MatAIJTunedNamesRestore(MatAIJTunedNames *b)
{
  PetscFunctionBegin;
  for (int i = b->n - 1; i >= 0; i--) {
    PetscCall(PetscFree(((PetscObject)b->mats[i])->type_name));
    ((PetscObject)b->mats[i])->type_name = b->names[i];
  }
  b->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
