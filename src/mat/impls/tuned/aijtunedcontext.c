/* Where each aijtuned type keeps its state: a container composed on the matrix under the type's name (the base
   type owns A->data and, for GPU bases, A->spptr).  The container holds the state's MatAIJTunedBase and frees
   the state when it goes: when the type gives the matrix back to its base, when the matrix is destroyed, and when
   MatHeaderMerge() replaces the merged matrix's container by the one it keeps. */
#include "aijtunedimpl.h"

/* Every state alive, by its base: MatHeaderMerge() (MatAXPY with another pattern, in-place transposes; PCGAMG's
   graph) calls the destroy of the matrix it merges into with the matrix's composed objects hidden, to free the
   base's data, and gives them back with the new data.  That destroy finds the base here by its owner. */
static MatAIJTunedBase *alive;

static PetscErrorCode FreeBase(MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  for (MatAIJTunedBase **b = &alive; *b; b = &(*b)->next)
    if (*b == base) {
      *b = base->next;
      break;
    }
  PetscCall(base->free_ctx(base->ctx)); /* base lives in it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A container's destroy (its argument changed in PETSc 3.23): of a state, or of a record (MatAIJTunedRecordAttach) */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscErrorCode (*ContainerDestroy)(void *);
static PetscErrorCode ContainerFree(void *base)
{
  return FreeBase((MatAIJTunedBase *)base);
}
static PetscErrorCode RecordFree(void *record)
{
  return PetscFree(record);
}
#else
typedef PetscErrorCode (*ContainerDestroy)(void **);
static PetscErrorCode ContainerFree(void **base)
{
  return FreeBase((MatAIJTunedBase *)*base);
}
static PetscErrorCode RecordFree(void **record)
{
  return PetscFree(*record);
}
#endif

/* ptr composed on obj under name in a container (replacing any earlier one), which frees it with destroy */
static PetscErrorCode ComposePointer(PetscObject obj, const char name[], void *ptr, ContainerDestroy destroy)
{
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &container));
  PetscCall(PetscContainerSetPointer(container, ptr));
#if PETSC_VERSION_LT(3, 23, 0)
  PetscCall(PetscContainerSetUserDestroy(container, destroy));
#else
  PetscCall(PetscContainerSetCtxDestroy(container, destroy));
#endif
  PetscCall(PetscObjectCompose(obj, name, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedContextAttach(Mat A, const char name[], MatAIJTunedBase *base, void *ctx, PetscErrorCode (*free_ctx)(void *))
{
  PetscFunctionBegin;
  base->ctx      = ctx;
  base->free_ctx = free_ctx;
  base->owner    = A;
  base->next     = alive;
  alive          = base;
  PetscCall(ComposePointer((PetscObject)A, name, base, ContainerFree));
  /* products found as the base's (aijtunedproduct.c); MatAIJTunedBaseRestore takes it away with the state */
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", MatAIJTunedProductSetFromOptions));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Either type's state of M (NULL if M is not aijtuned), and (unless seq is NULL) whether it is seqaijtuned's */
PetscErrorCode MatAIJTunedBaseFind(Mat M, MatAIJTunedBase **base, PetscBool *seq)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedRecordFind((PetscObject)M, MATSEQAIJTUNED_STATE, (void **)base));
  if (seq) *seq = (PetscBool)(*base != NULL);
  if (!*base) PetscCall(MatAIJTunedRecordFind((PetscObject)M, MATMPIAIJTUNED_STATE, (void **)base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *ctx is NULL when the matrix carries no such state */
PetscErrorCode MatAIJTunedContextFind(Mat A, const char name[], void **ctx)
{
  MatAIJTunedBase *base;

  PetscFunctionBegin;
  *ctx = NULL;
  PetscCall(MatAIJTunedRecordFind((PetscObject)A, name, (void **)&base));
  if (base && base->owner != A) { /* moved: MatHeaderReplace() swaps two matrices' contents, states included */
    for (MatAIJTunedBase *b = alive; b; b = b->next)
      if (b != base && b->owner == A) b->owner = base->owner;
    base->owner = A;
  }
  if (base) *ctx = base->ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A type's destroy called by MatHeaderMerge() (which hides the type name and the composed objects, *merging):
   the base's data go, the type's state stays (the matrix gets it back, over the new data) and learns of the
   merge.  The base is the last recorded for this matrix. */
PetscErrorCode MatAIJTunedDestroyMerged(Mat A, PetscBool *merging)
{
  MatAIJTunedBase *base = alive;

  PetscFunctionBegin;
  *merging = (PetscBool)!((PetscObject)A)->type_name;
  if (!*merging) PetscFunctionReturn(PETSC_SUCCESS);
  while (base && base->owner != A) base = base->next;
  PetscCheck(base, PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: no state for the matrix MatHeaderMerge() merges into");
  base->merged = PETSC_TRUE;
  PetscCall(base->ops.destroy(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* aijtuned's planner, layouts and kernels hold real double-precision values: on a PETSc of other scalars (complex,
   single, __float128) every converter to aijtuned, MatCreate's included, refuses the matrix instead of reading
   its values as doubles (they were wrong without an error: the suite against Debian's complex PETSc). */
PetscErrorCode MatAIJTunedCheckScalar(Mat A)
{
  PetscFunctionBegin;
  PetscCheck(PetscDefined(USE_REAL_DOUBLE) && !PetscDefined(USE_COMPLEX), PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
             "aijtuned needs real double-precision scalars; this PETSc was configured with %s %s scalars: use -mat_type aij (or aijcusparse)", PetscDefined(USE_COMPLEX) ? "complex" : "real",
             PetscDefined(USE_REAL_SINGLE) ? "single-precision" : PetscDefined(USE_REAL___FLOAT128) ? "__float128" : PetscDefined(USE_REAL___FP16) ? "half-precision" : "double-precision");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A matrix-free operator (MFFD, shell) is never made aijtuned.  PETSc's MatSetFromOptions applies a global -mat_type
   to such an operator too: SNESSetUpMatrices for -snes_mf_operator, and MatMult_MFFD at its first product for an
   operator the program never set from options (TS ex15 -Jtype 1).  MatSetType has destroyed the operator by the
   time a type's create function runs; with any type, aij included, the product then went on with its freed context:
   a crash or a wrong solve (bench/results/2026-11-26-ts-sweep).  Nothing can be saved here, but a clear error is
   better than either. */
PetscErrorCode MatAIJTunedCheckNotMatrixFree(Mat B)
{
  PetscBool matrix_free;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &matrix_free, MATMFFD, MATSHELL, ""));
  PetscCheck(!matrix_free, PetscObjectComm((PetscObject)B), PETSC_ERR_ARG_WRONG,
             "aijtuned: the matrix-free operator (%s) was given the type aijtuned (PETSc's MatSetFromOptions applies -mat_type to it, with -snes_mf_operator for instance) and is lost: give aijtuned to the assembled matrices alone, with -dm_mat_type aijtuned or an options prefix",
             ((PetscObject)B)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *flag made true on every rank of comm if it is true on every one (PetscBool's MPI type differs between PETSc
   versions: reduced as an int) */
PetscErrorCode MatAIJTunedAllRanks(MPI_Comm comm, PetscBool *flag)
{
  PetscInt all = *flag ? 1 : 0;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &all, 1, MPIU_INT, MPI_MIN, comm));
  *flag = (PetscBool)(all != 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix a converter works on: MAT_REUSE_MATRIX only copies values into *newmat (done), MAT_INITIAL_MATRIX
   converts a duplicate, MAT_INPLACE_MATRIX the matrix itself. */
PetscErrorCode MatAIJTunedConvertTarget(Mat A, MatReuse reuse, Mat *newmat, PetscBool *done)
{
  PetscFunctionBegin;
  *done = (PetscBool)(reuse == MAT_REUSE_MATRIX);
  if (reuse == MAT_REUSE_MATRIX) PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, newmat));
    PetscCall(MatPropagateSymmetryOptions(A, *newmat)); /* the base's converter may ask (to SBAIJ: "must be symmetric") */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On a CUDA build, a host AIJ about to become aijtuned gets the GPU base first, as MatCreate gives it: on a host
   base its products stayed on the host, and PETSc found none with a cuSPARSE-based aijtuned. */
PetscErrorCode MatAIJTunedGPUBase(Mat *B)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscBool seq, mpi;
  PetscCall(PetscObjectTypeCompare((PetscObject)*B, MATSEQAIJ, &seq));
  PetscCall(PetscObjectTypeCompare((PetscObject)*B, MATMPIAIJ, &mpi));
  if ((seq || mpi) && (*B)->assembled) PetscCall(MatConvert(*B, seq ? MATSEQAIJCUSPARSE : MATMPIAIJCUSPARSE, MAT_INPLACE_MATRIX, B));
#else
  (void)B;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A matrix of a base type (seqaij, seqaijcusparse, mpiaij, mpiaijcusparse) made aijtuned in place, its values where they
   are: a product's result (aijtunedproduct.c), a DM's interpolation (aijtunedinterp.c) */
PetscErrorCode MatAIJTunedFromBase(Mat *A)
{
  PetscBool seq;

  PetscFunctionBegin;
  PetscCall(PetscStrbeginswith(((PetscObject)*A)->type_name, "seq", &seq));
  if (seq) PetscCall(MatConvert_SeqAIJ_SeqAIJTuned(*A, MATSEQAIJTUNED, MAT_INPLACE_MATRIX, A));
  else PetscCall(MatConvert_MPIAIJ_MPIAIJTuned(*A, MATMPIAIJTUNED, MAT_INPLACE_MATRIX, A));
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

/* Composed function name of A: the base's kept in *kept and mine put in its place; none where the base has none (COO
   assembly: a base bound to the CPU, or a host AIJ, whose COO assembly is PETSc's generic one).  Hooked again, mine
   stays and *kept is left as it was. */
PetscErrorCode MatAIJTunedHookComposed(Mat A, const char name[], void (**kept)(void), void (*mine)(void))
{
  void (*now)(void) = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, name, &now));
  if (now != mine) *kept = now;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, name, *kept ? mine : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's composed function name given back, kept by MatAIJTunedHookComposed; none where the base had none (mine was
   not put in its place then), and an MPI type's own left where it never hooked one */
PetscErrorCode MatAIJTunedRestoreComposed(Mat A, const char name[], void (*kept)(void))
{
  PetscFunctionBegin;
  if (kept) PetscCall(PetscObjectComposeFunction((PetscObject)A, name, kept));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedBaseRecord(Mat A, MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  base->ops = *A->ops;
  PetscCall(PetscStrncpy(base->type, ((PetscObject)A)->type_name, sizeof(base->type)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Undo an in-place conversion: the base's operations and name, no converters, no state (the container's going
   frees it, base included). */
PetscErrorCode MatAIJTunedBaseRestore(Mat A, const char name[], const char *const converters[3], const MatAIJTunedBase *base)
{
  PetscFunctionBegin;
  *A->ops = base->ops;
  PetscCall(MatAIJTunedRestoreCOO(A, base));
  PetscCall(MatAIJTunedRestoreStore(A, base));
  for (int c = 0; c < 3; c++) PetscCall(PetscObjectComposeFunction((PetscObject)A, converters[c], (void (*)(void))NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", (void (*)(void))NULL));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, base->type));
  PetscCall(PetscObjectCompose((PetscObject)A, name, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedContextGet(Mat A, const char name[], const char type[], void **ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedContextFind(A, name, ctx));
  PetscCheck(*ctx, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Matrix of type %s is not a %s", ((PetscObject)A)->type_name, type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A record of size bytes, zeroed, composed on obj under name (replacing any earlier one) and freed with it: what
   aijtuned keeps on a product or a factor, whose data slots are the base's */
PetscErrorCode MatAIJTunedRecordAttach(PetscObject obj, const char name[], size_t size, void **record)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc(size, record));
  PetscCall(ComposePointer(obj, name, *record, RecordFree));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The record composed on obj under name (by MatAIJTunedRecordAttach, or a state by MatAIJTunedContextAttach); NULL
   if none */
PetscErrorCode MatAIJTunedRecordFind(PetscObject obj, const char name[], void **record)
{
  PetscContainer container;

  PetscFunctionBegin;
  *record = NULL;
  PetscCall(PetscObjectQuery(obj, name, (PetscObject *)&container));
  if (container) PetscCall(PetscContainerGetPointer(container, record));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B's host values are the current ones: a device copy marked current too, or alone, is marked stale, so that a GPU
   base copies the host's up at its next use (cuSPARSE's ILU of a reused block had factored the old ones). */
PetscErrorCode MatAIJTunedHostValuesCurrent(Mat B)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (B->offloadmask == PETSC_OFFLOAD_BOTH || B->offloadmask == PETSC_OFFLOAD_GPU) B->offloadmask = PETSC_OFFLOAD_CPU;
#else
  (void)B;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B's values were written into its host arrays behind its back (PETSc's MPIAIJ MatCreateSubMatrices: the whole
   matrix's block after its assembly, every reused block without one): its state rises, so that an aijtuned block
   refreshes its layouts at its next product, and the host's values become the current ones. */
PetscErrorCode MatAIJTunedHostValuesChanged(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedHostValuesCurrent(B));
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B's host values brought up to date where the device's are newer (a GPU base copies them down; B's state stays),
   for PETSc's code that reads the host's value array directly rather than through its accessors */
PetscErrorCode MatAIJTunedHostValuesUp(Mat B)
{
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetArrayRead(B, &a));
  PetscCall(MatSeqAIJRestoreArrayRead(B, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
