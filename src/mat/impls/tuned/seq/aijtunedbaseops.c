/* The base's operations that check their matrix's type name in a debug PETSc, called there under the base's name.

   aijtuned keeps the base's operations for everything but MatMult.  A debug PETSc (--with-debugging=1) checks, in
   cuSPARSE's code, that the matrix is named seqaijcusparse (PetscCheckTypeName: MatSeqAIJCUSPARSEInvalidateTranspose,
   which every upload of stale values calls, and the value-array accessors), so MatMultTranspose, MatScale, MatAXPY
   and MatSetOption failed there (COO assembly too: aijtunedcoo.c) with "Object (seqaijtuned) is not seqaijcusparse" (the suite against a debug
   CUDA PETSc, bench/results/2026-11-26-petsc-debug).  Those operations run here under the base's name in a debug
   PETSc; an optimized PETSc compiles the checks out, and there nothing is renamed (no allocation).  An MPI
   matrix's blocks are seqaijtuned, so its own operations, which call the blocks', need nothing of their own. */
#include "../aijtunedimpl.h"

/* The base's operation op of A (recorded by MatSeqAIJTunedHookBaseOps) */
#define BASE_OP(A, op) \
  Mat_SeqAIJTuned *ctx; \
  PetscFunctionBegin; \
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx)); \
  PetscCheck(ctx->base.ops.op, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no " #op)

static PetscErrorCode MultTranspose_AsBase(Mat A, Vec x, Vec y)
{
  BASE_OP(A, multtranspose);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.multtranspose(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MultTransposeAdd_AsBase(Mat A, Vec x, Vec z, Vec y)
{
  BASE_OP(A, multtransposeadd);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.multtransposeadd(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MultHermitianTranspose_AsBase(Mat A, Vec x, Vec y)
{
  BASE_OP(A, multhermitiantranspose);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.multhermitiantranspose(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MultHermitianTransposeAdd_AsBase(Mat A, Vec x, Vec z, Vec y)
{
  BASE_OP(A, multhermitiantransposeadd);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.multhermitiantransposeadd(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Scale_AsBase(Mat A, PetscScalar a)
{
  BASE_OP(A, scale);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.scale(A, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y's operation: X, if aijtuned, is renamed too (cuSPARSE's MatAXPY reads both operands' arrays) */
static PetscErrorCode AXPY_AsBase(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  BASE_OP(Y, axpy);
  if (PetscDefined(USE_DEBUG)) {
    MatAIJTunedNames names = {.n = 0};
    PetscErrorCode   ierr;
    PetscCall(MatAIJTunedNameAsBase(Y, &names));
    if (X != Y) PetscCall(MatAIJTunedNameAsBase(X, &names));
    ierr = ctx->base.ops.axpy(Y, a, X, str);
    PetscCall(MatAIJTunedNamesRestore(&names));
    PetscCall(ierr);
  } else PetscCall(ctx->base.ops.axpy(Y, a, X, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetOption_AsBase(Mat A, MatOption op, PetscBool flg)
{
  BASE_OP(A, setoption);
  MatAIJTunedDebugAsBase(A, MatAIJTunedNameAsBase, ctx->base.ops.setoption(A, op, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedHookBaseOps(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  /* the base's operation kept, and the wrapper put in its place where the base has one (a base bound to the CPU
     has no Hermitian transposes) */
#define HOOK_BASE(op, fn) \
  do { \
    if (A->ops->op != fn) ctx->base.ops.op = A->ops->op; \
    A->ops->op = ctx->base.ops.op ? fn : NULL; \
  } while (0)
  HOOK_BASE(multtranspose, MultTranspose_AsBase);
  HOOK_BASE(multtransposeadd, MultTransposeAdd_AsBase);
  HOOK_BASE(multhermitiantranspose, MultHermitianTranspose_AsBase);
  HOOK_BASE(multhermitiantransposeadd, MultHermitianTransposeAdd_AsBase);
  HOOK_BASE(scale, Scale_AsBase);
  HOOK_BASE(axpy, AXPY_AsBase);
  HOOK_BASE(setoption, SetOption_AsBase);
#undef HOOK_BASE
  PetscCall(MatAIJTunedHookCOO(A, &ctx->base, MatAIJTunedCOOPreallocation));
  PetscFunctionReturn(PETSC_SUCCESS);
}
