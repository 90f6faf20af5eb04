/* The base's operations that check their matrix's type name in a debug PETSc, called there under the base's name.

   aijtuned keeps the base's operations for everything but MatMult.  A debug PETSc (--with-debugging=1) checks, in
   cuSPARSE's code, that the matrix is named seqaijcusparse (PetscCheckTypeName: MatSeqAIJCUSPARSEInvalidateTranspose,
   which every upload of stale values calls, and the value-array accessors), so MatMultTranspose, MatScale, MatAXPY
   and MatSetOption failed there (COO assembly too: aijtunedcoo.c) with "Object (seqaijtuned) is not seqaijcusparse" (the suite against a debug
   CUDA PETSc, bench/results/2026-11-26-petsc-debug).  Those operations run here under the base's name in a debug
   PETSc; an optimized PETSc compiles the checks out, and there nothing is renamed (no allocation).  An MPI
   matrix's blocks are seqaijtuned, so its own operations, which call the blocks', need nothing of their own.
   MatScale also scales a DIA plan's device copies in place, and MatShift, MatGetDiagonal and MatZeroEntries run on the
   GPU (Scale, Shift, GetDiagonal and ZeroEntries below). */
#include "../aijtunedimpl.h"

/* The base's operation op of A (recorded by MatSeqAIJTunedHookBaseOps) */
#define BASE_OP(A, op) \
  Mat_SeqAIJTuned *ctx; \
  PetscFunctionBegin; \
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx)); \
  PetscCheck(ctx->base.ops.op, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no " #op)

/* name: the base's op with A under the base's name in a debug PETSc */
#define AS_BASE(name, op, params, args) \
  static PetscErrorCode name params \
  { \
    BASE_OP(A, op); \
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, ctx->base.ops.op args); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
AS_BASE(MultTranspose_AsBase, multtranspose, (Mat A, Vec x, Vec y), (A, x, y))
AS_BASE(MultTransposeAdd_AsBase, multtransposeadd, (Mat A, Vec x, Vec z, Vec y), (A, x, z, y))
AS_BASE(MultHermitianTranspose_AsBase, multhermitiantranspose, (Mat A, Vec x, Vec y), (A, x, y))
AS_BASE(MultHermitianTransposeAdd_AsBase, multhermitiantransposeadd, (Mat A, Vec x, Vec z, Vec y), (A, x, z, y))
AS_BASE(SetOption_AsBase, setoption, (Mat A, MatOption o, PetscBool flg), (A, o, flg))

/* MatScale: the base's, then, on the GPU, a DIA plan's device copies scaled in place if they held the values it
   began with (MatSeqAIJTunedCUDAScalesInPlace): no refill and no new coding at the next product. */
static PetscErrorCode Scale(Mat A, PetscScalar a)
{
#if defined(PETSC_HAVE_CUDA)
  PetscBool in_place;
#endif

  BASE_OP(A, scale);
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAScalesInPlace(A, ctx, a, &in_place));
#endif
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, ctx->base.ops.scale(A, a));
#if defined(PETSC_HAVE_CUDA)
  if (in_place) PetscCall(MatSeqAIJTunedCUDAScale(A, ctx, a));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatShift: on the GPU where it can (MatSeqAIJTunedCUDAShift), else the base's (which assembles A: under its own
   name) */
static PetscErrorCode Shift(Mat A, PetscScalar a)
{
  PetscBool done = PETSC_FALSE;

  BASE_OP(A, shift);
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAShift(A, ctx, a, &done));
#endif
  if (!done) {
    PetscCall(PetscInfo(A, "MatShift by the base: the values not current on the GPU, or a row without its diagonal entry\n"));
    PetscCall(ctx->base.ops.shift(A, a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatGetDiagonal: on the GPU where A's values and v are there (MatSeqAIJTunedCUDAGetDiagonal), else the base's */
static PetscErrorCode GetDiagonal(Mat A, Vec v)
{
  PetscBool done = PETSC_FALSE;

  BASE_OP(A, getdiagonal);
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAGetDiagonal(A, v, &done));
#endif
  if (!done) PetscCall(ctx->base.ops.getdiagonal(A, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatZeroEntries: the device values alone where they are current (MatSeqAIJTunedCUDAZeroEntries), else the base's */
static PetscErrorCode ZeroEntries(Mat A)
{
  PetscBool done = PETSC_FALSE;

  BASE_OP(A, zeroentries);
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAZeroEntries(A, &done));
#endif
  if (!done) PetscCall(ctx->base.ops.zeroentries(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y's operation: X, if aijtuned, is renamed too (cuSPARSE's MatAXPY reads both operands' arrays) */
static PetscErrorCode AXPY_AsBase(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  BASE_OP(Y, axpy);
  MatAIJTunedDebugAsBase(Y, X, MatAIJTunedNameAsBase, ctx->base.ops.axpy(Y, a, X, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedHookBaseOps(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  /* the base's operation kept, and the wrapper put in its place where the base has one (a base bound to the CPU
     has no Hermitian transposes) */
#define HOOK_BASE(op, fn) MatAIJTunedHookOp(A, &ctx->base, op, fn, 1)
  HOOK_BASE(multtranspose, MultTranspose_AsBase);
  HOOK_BASE(multtransposeadd, MultTransposeAdd_AsBase);
  HOOK_BASE(multhermitiantranspose, MultHermitianTranspose_AsBase);
  HOOK_BASE(multhermitiantransposeadd, MultHermitianTransposeAdd_AsBase);
  HOOK_BASE(scale, Scale);
  HOOK_BASE(shift, Shift);
  HOOK_BASE(getdiagonal, GetDiagonal);
  HOOK_BASE(zeroentries, ZeroEntries);
  HOOK_BASE(axpy, AXPY_AsBase);
  HOOK_BASE(setoption, SetOption_AsBase);
#undef HOOK_BASE
  PetscCall(MatAIJTunedHookCOO(A, &ctx->base, MatAIJTunedCOOPreallocation));
  PetscFunctionReturn(PETSC_SUCCESS);
}
