/*
   The base's device values brought up to date, before its operations on the GPU, from aijtuned's own copy of them.

   Values assembled on the host go to the GPU with aijtuned's product (RefillOnDevice, aijtunedcuda.c), into its own
   copy of the CSR's value array: page-locked where large (aijtunedpin.c), at 48-55 GB/s on an H100 machine against
   6.4-6.9 for pageable memory.  The base's device copy (cuSPARSE's) stays stale, and its next operation on the GPU
   (MatScale, MatAXPY, a transposed product) copied every value up again itself, from pageable memory unless
   aijtuned had page-locked the array.  A time loop whose right-hand side's Jacobian is assembled on the host at each
   step and then scaled and shifted on the GPU (TSComputeIJacobian) paid that pageable copy at each step, as
   aijcusparse does: new host values, MatScale twice and the first product took 19.0 ms on lap2d on an H200, 3.5 with
   this, against aijcusparse's 24.0 (bench/results/2026-11-27-base-values).

   Here, before those operations, the base's device values are written from aijtuned's copy, device to device: the
   copy as it is where it holds the matrix's values, else the host's values first copied into it the way the product
   does (MatSeqAIJTunedCUDAValuesUp), which the next product's refill then reads where they are.  That needs the
   base's device matrix for this pattern: it is made by the base's first operation on the GPU (its structure, in
   32-bit indices, is its own), so the first after each new pattern runs as before.  The base's values then count as
   current on the host and the device (PETSC_OFFLOAD_BOTH), as after its own copy, and the matrix's object state is
   left as it was: the values did not change, and what was set up on them (a preconditioner) stays.
*/
#include "aijtunedcuda.h"

/* The base's device values written from d->values, which hold A's values of state; the state stays: *done */
static PetscErrorCode BaseValuesFromOurs(Mat A, Mat_SeqAIJTuned *ctx, PetscObjectState state, cudaStream_t stream, PetscBool *done)
{
  PetscScalar   *av   = NULL;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* a refusal (no CSR there) is an answer: the base copies */
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, (ierr = MatSeqAIJCUSPARSEGetArrayWrite(A, &av), PETSC_SUCCESS));
  PetscCall(PetscPopErrorHandler());
  if (ierr || !av) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMemcpyAsync(av, ctx->dev->values, (size_t)ctx->dev->nnz * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, stream));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayWrite(A, &av));
  PetscCall(PetscObjectStateSet((PetscObject)A, state)); /* undoes the restore's increase: the same values */
  A->offloadmask = PETSC_OFFLOAD_BOTH;
  *done          = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before an operation of the base on the GPU: where A's values are current on the host alone and the base's device
   matrix exists for its pattern, the base's device values written from aijtuned's copy, which upload (the host's
   values up into it where it does not hold them) may bring up to date first.  Without upload, only where aijtuned's
   copy holds them already (an operation that would otherwise read the host's values where they are). */
PetscErrorCode MatSeqAIJTunedCUDABaseValuesUp(Mat A, PetscBool upload)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;
  PetscObjectState state;
  cudaStream_t     stream;
  PetscBool        ours, done = PETSC_FALSE, room = PETSC_TRUE; /* ours: aijtuned's copy holds A's values */

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  MatAIJTunedNoteBaseMatrix(A, ctx);
  d = ctx->dev;
  if (A->offloadmask != PETSC_OFFLOAD_CPU || A->boundtocpu || !A->preallocated || ctx->base_host_kernel || ctx->base_pattern != A->nonzerostate + 1) PetscFunctionReturn(PETSC_SUCCESS);
  /* aijtuned's copy, for this pattern (the refill's order is the host's CSR) */
  if (!d || !d->nnz || d->plans_made != ctx->plans_made || ctx->nonzerostate != A->nonzerostate) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  ours = (PetscBool)(d->values_state == state);
  if (!ours && !upload) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0)); /* inside the base's operation's event */
  if (!ours) PetscCall(MatSeqAIJTunedCUDAValuesUp(A, ctx, state, PETSC_TRUE, stream, &room));
  if (room) PetscCall(BaseValuesFromOurs(A, ctx, state, stream, &done)); /* else the base copies them itself */
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  if (done) PetscCall(PetscInfo(A, "aijtuned: the base's device values written from aijtuned's (%" PetscInt_FMT " entries)\n", (PetscInt)d->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
