/* The base's operations that check their matrix's type name in a debug PETSc, called there under the base's name.

   aijtuned keeps the base's operations for everything but MatMult.  A debug PETSc (--with-debugging=1) checks, in
   cuSPARSE's code, that the matrix is named seqaijcusparse (PetscCheckTypeName: MatSeqAIJCUSPARSEInvalidateTranspose,
   which every upload of stale values calls, and the value-array accessors), so MatMultTranspose, MatScale, MatAXPY
   and MatSetOption failed there (COO assembly too: aijtunedcoo.c) with "Object (seqaijtuned) is not seqaijcusparse" (the suite against a debug
   CUDA PETSc, bench/results/2026-11-26-petsc-debug).  Those operations run here under the base's name in a debug
   PETSc; an optimized PETSc compiles the checks out, and there nothing is renamed (no allocation).  An MPI
   matrix's blocks are seqaijtuned, so its own operations, which call the blocks', need nothing of their own.
   MatScale leaves the device copies as they are and has the products multiply by its factor, and MatShift,
   MatGetDiagonal and MatZeroEntries run on the GPU (Scale, Shift, GetDiagonal and ZeroEntries below).  The transposed products take host vectors on the host, which
   a CUDA base's cannot (Transposed below).  Before the base's operations on the GPU, its device values, where stale,
   are written from aijtuned's (BaseValuesUp below). */
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
AS_BASE(SetOption_AsBase, setoption, (Mat A, MatOption o, PetscBool flg), (A, o, flg))

/* Before an operation of the base on the GPU: A's device values, where they are current on the host alone, written
   from aijtuned's copy on the device (MatSeqAIJTunedCUDABaseValuesUp), which upload brings up to date first where it
   is stale; else the base copies them up itself */
static PetscErrorCode BaseValuesUp(Mat A, PetscBool upload)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDABaseValuesUp(A, upload));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the base's transposed products take these vectors.  A CUDA base's kernel (cuSPARSE) reads device arrays
   only: with host vectors PETSc 3.24's optimized build gives wrong values without an error (a debug build stops:
   "Object (seq) is not seqcuda"), for aijcusparse as well.  SNES's trust-region and VI methods and NEWTONLS's check
   for a local minimum multiply by the transposed Jacobian, on a DM's host vectors unless told otherwise
   (bench/results/2026-11-26-ts-sweep: SNES ex35 with newtontrdc stopped after one step).  Those products run on the
   host here, as MatMult's do (TransposeOnHost). */
static PetscErrorCode BaseTakesVectors(Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *takes)
{
  PetscFunctionBegin;
  *takes = PETSC_TRUE;
  if (!ctx->base_host_kernel) PetscCall(MatAIJTunedVecsAreCUDA(x, z, y, takes)); /* a host vector: the base does not take it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A^T x (z NULL) or y = A^T x + z on the host, from the host's values (copied down first where the device's are
   newer), in AIJ's order: the same rounding as AIJ's host kernel.  Real scalars: the Hermitian transpose too. */
static PetscErrorCode TransposeOnHost(Mat A, Vec x, Vec z, Vec y)
{
  aijt_csr           csr;
  const PetscScalar *xa, *za;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetCSR(A, &csr));
  PetscCall(MatAIJTunedGetVecArrays(&MatAIJTunedHostArrays, x, z, y, &xa, &za, &ya));
  aijt_csr_spmv_transpose(&csr, (const double *)xa, (const double *)za, (double *)ya);
  PetscCall(MatAIJTunedRestoreVecArrays(&MatAIJTunedHostArrays, x, z, y, &xa, &za, &ya));
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)csr.rowptr[csr.nrows]));
  PetscCall(MatSeqAIJTunedRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A^T x (z NULL) or y = A^T x + z, or the Hermitian transposes: by the base (under its name in a debug PETSc)
   where it takes the vectors, else on the host */
static PetscErrorCode Transposed(Mat A, Vec x, Vec z, Vec y, PetscBool hermitian)
{
  Mat_SeqAIJTuned *ctx;
  PetscBool        takes;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(BaseTakesVectors(ctx, x, z, y, &takes));
  if (!takes) {
    PetscCall(TransposeOnHost(A, x, z, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(BaseValuesUp(A, PETSC_TRUE));
  if (z) {
    PetscErrorCode (*op)(Mat, Vec, Vec, Vec) = hermitian ? ctx->base.ops.multhermitiantransposeadd : ctx->base.ops.multtransposeadd;
    PetscCheck(op, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no transposed product");
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, op(A, x, z, y));
  } else {
    PetscErrorCode (*op)(Mat, Vec, Vec) = hermitian ? ctx->base.ops.multhermitiantranspose : ctx->base.ops.multtranspose;
    PetscCheck(op, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no transposed product");
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, op(A, x, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* name: one of the four transposed products through Transposed */
#define TRANSPOSED(name, params, z, hermitian) \
  static PetscErrorCode name params \
  { \
    PetscFunctionBegin; \
    PetscCall(Transposed(A, x, z, y, hermitian)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
TRANSPOSED(TransposeMult, (Mat A, Vec x, Vec y), NULL, PETSC_FALSE)
TRANSPOSED(TransposeMultAdd, (Mat A, Vec x, Vec z, Vec y), z, PETSC_FALSE)
TRANSPOSED(HermitianTransposeMult, (Mat A, Vec x, Vec y), NULL, PETSC_TRUE)
TRANSPOSED(HermitianTransposeMultAdd, (Mat A, Vec x, Vec z, Vec y), z, PETSC_TRUE)

/* MatScale: the base's, then, on the GPU, the factor kept for the products where the device copies held the values
   it began with (MatSeqAIJTunedCUDAScaleDeferrable): no refill and no new coding at the next product. */
static PetscErrorCode Scale(Mat A, PetscScalar a)
{
#if defined(PETSC_HAVE_CUDA)
  PetscBool deferred;
#endif

  BASE_OP(A, scale);
  PetscCall(BaseValuesUp(A, PETSC_TRUE));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAScaleDeferrable(A, a, &deferred));
#endif
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, ctx->base.ops.scale(A, a));
#if defined(PETSC_HAVE_CUDA)
  if (deferred) PetscCall(MatSeqAIJTunedCUDAScale(A, ctx, a));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatShift: on the GPU where it can (MatSeqAIJTunedCUDAShift), else the base's (which assembles A: under its own
   name) */
static PetscErrorCode Shift(Mat A, PetscScalar a)
{
  PetscBool done = PETSC_FALSE;

  BASE_OP(A, shift);
  PetscCall(BaseValuesUp(A, PETSC_FALSE)); /* else the base's on the host, where the values are */
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
  PetscCall(BaseValuesUp(A, PETSC_FALSE)); /* else the base's on the host, where the values are */
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

/* SeqAIJ's operations that read the host's value array directly, not through its accessors: MatGetColumnNorms'
   reductions, and MatEliminateZeros, which compacts the array it reads.  Where the values were newer on the GPU (a
   CUDA base's MatScale or MatShift) they read stale ones (tests/mat/ops.c): the host's are brought up to date first.
   A pattern the elimination changed keeps its values on the host alone: the base's device copy holds the old
   pattern, which its next use replaces, and aijtuned plans from the host's. */
static PetscErrorCode GetColumnReductions(Mat A, PetscInt type, PetscReal *reductions)
{
  BASE_OP(A, getcolumnreductions);
  PetscCall(MatAIJTunedHostValuesUp(A));
  PetscCall(ctx->base.ops.getcolumnreductions(A, type, reductions));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PETSC_VERSION_GE(3, 21, 0) /* the operation since */
static PetscErrorCode EliminateZeros(Mat A, PetscBool keep)
{
  PetscObjectState pattern = A->nonzerostate;

  BASE_OP(A, eliminatezeros);
  PetscCall(MatAIJTunedHostValuesUp(A));
  PetscCall(ctx->base.ops.eliminatezeros(A, keep));
  if (A->nonzerostate != pattern) PetscCall(MatAIJTunedHostValuesCurrent(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* Y's operation: X, if aijtuned, is renamed too (cuSPARSE's MatAXPY reads both operands' arrays) */
static PetscErrorCode AXPY_AsBase(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  BASE_OP(Y, axpy);
#if defined(PETSC_HAVE_CUDA)
  {
    PetscBool tuned;
    PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJTUNED, &tuned));
    if (tuned && !Y->boundtocpu && !X->boundtocpu) { /* the base's runs on the GPU, both operands' values there */
      PetscCall(BaseValuesUp(Y, PETSC_TRUE));
      PetscCall(BaseValuesUp(X, PETSC_TRUE));
    }
  }
#endif
  MatAIJTunedDebugAsBase(Y, X, MatAIJTunedNameAsBase, ctx->base.ops.axpy(Y, a, X, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z by the base's own kernel on the GPU (cuSPARSE's), where the strips' kernels are off
   there (-mat_aijtuned_gpu_strips 0) and every vector is a CUDA one: *done.  Until this, such products fell through
   to the strips' host reference on the host: SNES ex19 with multigrid took 54 s in MatMult against 0.24 s
   (bench/results/2026-11-27-dm-interp/e). */
#if defined(PETSC_HAVE_CUDA)
PetscErrorCode MatSeqAIJTunedBaseMultOnDevice(Mat A, Vec x, Vec z, Vec y, PetscBool *done)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  if (ctx->base_host_kernel || A->boundtocpu) PetscFunctionReturn(PETSC_SUCCESS); /* a host base's: Multiply's own path */
  PetscCall(BaseTakesVectors(ctx, x, z, y, done));
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BaseValuesUp(A, PETSC_TRUE));
  if (z) MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, ctx->base.ops.multadd(A, x, z, y));
  else MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, ctx->base.ops.mult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode MatSeqAIJTunedHookBaseOps(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  /* the base's operation kept, and the wrapper put in its place where the base has one (a base bound to the CPU
     has no Hermitian transposes) */
#define HOOK_BASE(op, fn) MatAIJTunedHookOp(A, &ctx->base, op, fn, 1)
  HOOK_BASE(multtranspose, TransposeMult);
  HOOK_BASE(multtransposeadd, TransposeMultAdd);
  HOOK_BASE(multhermitiantranspose, HermitianTransposeMult);
  HOOK_BASE(multhermitiantransposeadd, HermitianTransposeMultAdd);
  HOOK_BASE(scale, Scale);
  HOOK_BASE(shift, Shift);
  HOOK_BASE(getdiagonal, GetDiagonal);
  HOOK_BASE(zeroentries, ZeroEntries);
  HOOK_BASE(axpy, AXPY_AsBase);
  HOOK_BASE(setoption, SetOption_AsBase);
  HOOK_BASE(getcolumnreductions, GetColumnReductions);
#if PETSC_VERSION_GE(3, 21, 0)
  HOOK_BASE(eliminatezeros, EliminateZeros);
#endif
#undef HOOK_BASE
  PetscCall(MatAIJTunedHookCOO(A, &ctx->base, MatAIJTunedCOOPreallocation));
  PetscCall(MatSeqAIJTunedHookStore(A, &ctx->base));
  PetscFunctionReturn(PETSC_SUCCESS);
}
