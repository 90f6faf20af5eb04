/*
   The base's device values brought up to date by aijtuned, before its operations on the GPU and with its product's new host values.

   Values assembled on the host go to the GPU with aijtuned's product (RefillOnDevice, aijtunedcuda.c), into its own
   copy of the CSR's value array: page-locked where large (aijtunedpin.c), at 48-55 GB/s on an H100 machine against
   6.4-6.9 for pageable memory.  The base's device copy (cuSPARSE's) stays stale, and its next operation on the GPU
   (MatScale, MatAXPY, a transposed product) copied every value up again itself, from pageable memory unless
   aijtuned had page-locked the array.  A time loop whose right-hand side's Jacobian is assembled on the host at each
   step and then scaled and shifted on the GPU (TSComputeIJacobian) paid that pageable copy at each step, as
   aijcusparse does: new host values, MatScale twice and the first product took 19.0 ms on lap2d on an H200, 3.5 with
   this, against aijcusparse's 24.0 (bench/results/2026-11-27-base-values).

   Here, before those operations, the base's device values are written by aijtuned: from its copy, device to device,
   where that holds the matrix's values, else the host's values sent straight up into them the way the product sends
   its own (page-locked where large).  The product does the same with new host values
   (MatSeqAIJTunedCUDABaseValuesFromHost, from RefillOnDevice): where the base's device matrix exists they go up into
   it, and the refill reads them there, so aijtuned keeps no copy of its own beside it (8 bytes an entry: a TS step's
   matrix took 36-44 bytes an entry after its base's operations against aijcusparse's 12-15,
   bench/results/2026-11-28-memory).  That needs the base's device matrix for this pattern: it is made by the base's
   first operation on the GPU (its structure, in 32-bit indices, is its own), so the first after each new pattern
   runs as before.  The base's values then count as current on the host and the device (PETSC_OFFLOAD_BOTH), as after
   its own copy, and the matrix's object state is left as it was: the values did not change, and what was set up on
   them (a preconditioner) stays.
*/
#include "aijtunedcuda.h"

/* Whether the base's device matrix exists for A's pattern and its values are stale there alone: the host's are A's */
static PetscBool BaseMatrixStale(Mat A, Mat_SeqAIJTuned *ctx)
{
  MatAIJTunedNoteBaseMatrix(A, ctx);
  return (PetscBool)(A->offloadmask == PETSC_OFFLOAD_CPU && !A->boundtocpu && A->preallocated && !ctx->base_host_kernel && ctx->base_pattern == A->nonzerostate + 1 && ctx->nonzerostate == A->nonzerostate);
}

/* The base's device values written with A's values of state: from ours (d->values, which hold them) where given,
   else from the host's; the state stays.  *done false where the base refuses (no CSR there): it copies them itself. */
static PetscErrorCode BaseValuesWrite(Mat A, Mat_SeqAIJTuned *ctx, PetscObjectState state, const double *ours, PetscBool new_values, cudaStream_t stream, PetscBool *done)
{
  const size_t       bytes = (size_t)ctx->dev->nnz * sizeof(PetscScalar);
  const PetscScalar *aa    = NULL;
  PetscScalar       *av    = NULL;
  PetscErrorCode     ierr  = PETSC_SUCCESS;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  /* the host's array first: the base's write access marks its device values current, and a read of the host's after
     it would bring those down over them */
  if (!ours) PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* a refusal (no CSR there) is an answer: the base copies */
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, (ierr = MatSeqAIJCUSPARSEGetArrayWrite(A, &av), PETSC_SUCCESS));
  PetscCall(PetscPopErrorHandler());
  if (!ierr && av) {
    if (ours) PetscCallCUDA(cudaMemcpyAsync(av, ours, bytes, cudaMemcpyDeviceToDevice, stream));
    else PetscCall(MatSeqAIJTunedCUDASendValues(A, ctx, av, aa, new_values, stream));
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayWrite(A, &av));
    *done = PETSC_TRUE;
  }
  if (!ours) PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectStateSet((PetscObject)A, state)); /* undoes the restore's increase: the same values */
  A->offloadmask = PETSC_OFFLOAD_BOTH;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before an operation of the base on the GPU: where A's values are current on the host alone and the base's device
   matrix exists for its pattern, the base's device values written from aijtuned's copy where that holds them, else
   with upload from the host's.  Without upload, only from aijtuned's copy (an operation that would otherwise read the
   host's values where they are). */
PetscErrorCode MatSeqAIJTunedCUDABaseValuesUp(Mat A, PetscBool upload)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;
  PetscObjectState state;
  cudaStream_t     stream;
  PetscBool        ours, done;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  d = ctx->dev;
  if (!BaseMatrixStale(A, ctx)) PetscFunctionReturn(PETSC_SUCCESS);
  /* aijtuned's copy, for this pattern (the refill's order is the host's CSR) */
  if (!d || !d->nnz || d->plans_made != ctx->plans_made) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  ours = (PetscBool)(d->values && d->values_state == state);
  if (!ours && !upload) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0)); /* inside the base's operation's event */
  PetscCall(BaseValuesWrite(A, ctx, state, ours ? d->values : NULL, PETSC_TRUE, stream, &done));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  if (done) PetscCall(PetscInfo(A, "aijtuned: the base's device values written from %s (%" PetscInt_FMT " entries)\n", ours ? "aijtuned's" : "the host's", (PetscInt)d->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* New host values for the product's refill (RefillOnDevice), where the base's device matrix exists for A's pattern:
   up into it, not into d->values.  *done false where it does not, or refuses them: nothing was done. */
PetscErrorCode MatSeqAIJTunedCUDABaseValuesFromHost(Mat A, Mat_SeqAIJTuned *ctx, PetscBool new_values, cudaStream_t stream, PetscBool *done)
{
  PetscObjectState state;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!ctx->dev->nnz || !BaseMatrixStale(A, ctx)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  PetscCall(BaseValuesWrite(A, ctx, state, NULL, new_values, stream, done));
  if (*done) PetscCall(PetscInfo(A, "aijtuned: new host values up into the base's device matrix (%" PetscInt_FMT " entries)\n", (PetscInt)ctx->dev->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
