/*
   The host's value array page-locked for the copies of new values to the GPU.

   Values assembled anew on the host (each Newton or time step's Jacobian) go up to the GPU as the CSR's value array
   (RefillOnDevice, aijtunedcuda.c).  From pageable memory that copy ran at 6.4-6.9 GB/s on an H100 machine (28 to
   648 MB); from the same array registered with CUDA, at 48-55 GB/s, and the registration took 1.0 ms at 3.5 MB,
   12.6 ms at 228 MB (bench/results/2026-11-26-pinned): about what one or two pageable copies of the same bytes cost
   from 8 MiB up.  So the array is registered at its first copy of new values when it holds at least
   -mat_aijtuned_pin_mib MiB (default 8; negative: never), and stays so while it is the same array.  The base's own
   copies of it (aijcusparse's, for its kernels and factorizations) then run as fast.

   The array is the base's (SeqAIJ's a->a), which the base may free or replace: it is unregistered when aijtuned's
   state goes (MatDestroy, a conversion away: before the base frees it), when the plan goes (a new pattern, for which
   the base may have allocated anew), and when a copy finds another array.  A registration that fails (pages another
   registration holds, a driver refusing) leaves the copies pageable, with a PetscInfo message.

   A smaller array, of at least PIN_LATE_MIB, is page-locked at its PIN_LATE_COPIES-th copy of new values in a row:
   by then the program is in a loop of steps (a time loop's Jacobians).  On an H100 a step of new values and a product
   on matrices of 1-5 MB then took 0.06-0.13 ms instead of 0.16-0.47, and the registration 1.2-4.8 ms, a few times
   8-29 ms (bench/results/2026-11-27-pin-late): repaid within 10-20 steps, about 100 at worst.  A short solve's few Newton
   steps, or a loop of fewer steps than the count, pay nothing for it.
*/
#include "aijtunedcuda.h"

#define PIN_LATE_MIB    1.0
#define PIN_LATE_COPIES 16

/* aa page-locked for a copy of bytes from it where it can be: registered before, or now if register_now (a copy of
   new values) and it is large enough, or has been copied often enough.  A registration of another array goes.
   Afterwards ctx->pinned == aa says whether it is (the copy, HostToDevice in aijtunedcuda.c, reads that). */
PetscErrorCode MatSeqAIJTunedCUDAPin(Mat A, Mat_SeqAIJTuned *ctx, const void *aa, size_t bytes, PetscBool register_now)
{
  const double mib = (double)bytes / 1048576.0;
  cudaError_t  err;

  PetscFunctionBegin;
  if (ctx->pinned && ctx->pinned == aa && ctx->pinned_bytes >= bytes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDAUnpin(A, ctx));
  if (!register_now || !bytes || ctx->settings.pin_mib < 0 || aa == ctx->pin_refused) PetscFunctionReturn(PETSC_SUCCESS);
  if (mib < (double)ctx->settings.pin_mib) { /* a smaller array: at its PIN_LATE_COPIES-th copy of new values in a row */
    if (aa != ctx->pin_candidate) ctx->pin_candidate = aa, ctx->pin_copies = 0; /* compared, never read */
    if (mib < PIN_LATE_MIB || ++ctx->pin_copies < PIN_LATE_COPIES) PetscFunctionReturn(PETSC_SUCCESS);
  }
  err = cudaHostRegister((void *)aa, bytes, cudaHostRegisterDefault);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: clear it, the copy goes on from pageable memory */
    ctx->pin_refused = aa;
    PetscCall(PetscInfo(A, "aijtuned: the host's values (%.1f MiB) not page-locked (%s): their copies to the GPU stay pageable\n", mib, cudaGetErrorString(err)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ctx->pinned       = aa;
  ctx->pinned_bytes = bytes;
  ctx->pin_refused  = NULL;
  PetscCall(PetscInfo(A, "aijtuned: the host's values (%.1f MiB) page-locked for their copies to the GPU\n", mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The registration given back, if any (A may be NULL: no message). */
PetscErrorCode MatSeqAIJTunedCUDAUnpin(Mat A, Mat_SeqAIJTuned *ctx)
{
  cudaError_t err;

  PetscFunctionBegin;
  if (!ctx->pinned) PetscFunctionReturn(PETSC_SUCCESS);
  err         = cudaHostUnregister((void *)ctx->pinned);
  ctx->pinned = NULL;
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    if (A) PetscCall(PetscInfo(A, "aijtuned: unregistering the host's values failed (%s)\n", cudaGetErrorString(err)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
