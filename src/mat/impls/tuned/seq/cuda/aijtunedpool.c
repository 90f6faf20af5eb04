/*
   The setup's passing device memory given back at its end.

   PETSc keeps every byte freed to the device's memory pool (it sets the pool's release threshold to UINT64_MAX),
   so the memory a new pattern's setup needs only for a while stayed reserved for the rest of the process: the
   structure the GPU planner and build read, the planner's sorts, the build's work space for rows sorted by
   column label.  On an H200 an R-MAT matrix of 34.5M entries then held 54 bytes an entry after its first product,
   its strips and values 25 of them (bench/results/2026-11-28-memory).  Memory the pool keeps serves the next
   cudaMallocAsync but not cudaMalloc, which cuSPARSE and the base's own device matrix use.

   MatSeqAIJTunedCUDAPoolMark notes how much of the pool lay unused when a setup began (the GPU planner's start, or
   the upload's where the host planned); MatSeqAIJTunedCUDAPoolGiveBack, at the end of the upload, waits for the
   stream (the pool can release only frees the host has seen done: setup, after the GPU build's own wait) and trims
   the pool back to what is in use plus that much: PETSc's own unused memory stays as it was.  What the matrix freed
   between setups (its copy of the values, once no strip reads it: DropValues in aijtunedcuda.c) is its own, not
   PETSc's: the next mark leaves it out of the amount kept.  The matrix's end
   (or its leaving aijtuned) does the same around freeing its device copies, as cudaFree gives back aijcusparse's.
*/
#include "aijtunedcuda.h"

/* Less than this left unused beyond the start's is not given back: no wait for it.  A 1000-row matrix's setup and
   first product took 70-85 us more with the wait and the trim each time (0.22 ms against 0.14-0.16, H200), for memory
   the pool holds in pieces of 32 MiB anyway. */
#define AIJT_POOL_GIVE_BACK_MIN ((uint64_t)32 << 20)

/* The device's current pool: the one cudaMallocAsync takes from */
static cudaError_t PoolOf(cudaMemPool_t *pool)
{
  int         device;
  cudaError_t err = cudaGetDevice(&device);

  return err == cudaSuccess ? cudaDeviceGetMemPool(pool, device) : err;
}

/* The pool and its reserved and used bytes */
static cudaError_t PoolNow(cudaMemPool_t *pool, uint64_t *reserved, uint64_t *used)
{
  cudaError_t err = PoolOf(pool);

  if (err == cudaSuccess) err = cudaMemPoolGetAttribute(*pool, cudaMemPoolAttrReservedMemCurrent, reserved);
  if (err == cudaSuccess) err = cudaMemPoolGetAttribute(*pool, cudaMemPoolAttrUsedMemCurrent, used);
  return err;
}

PetscErrorCode MatSeqAIJTunedCUDAPoolMark(Mat_SeqAIJTuned *ctx)
{
  cudaMemPool_t pool;
  uint64_t      reserved, used;

  PetscFunctionBegin;
  if (ctx->pool_marked) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(PoolNow(&pool, &reserved, &used));
  ctx->pool_idle   = (size_t)(reserved > used ? reserved - used : 0);
  ctx->pool_idle   = ctx->pool_idle > ctx->pool_left ? ctx->pool_idle - ctx->pool_left : 0; /* the matrix's own, given back too */
  ctx->pool_left   = 0;
  ctx->pool_marked = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedCUDAPoolGiveBack(Mat A, Mat_SeqAIJTuned *ctx)
{
  cudaMemPool_t pool;
  cudaStream_t  stream;
  uint64_t      reserved, used, after;

  PetscFunctionBegin;
  if (!ctx->pool_marked) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->pool_marked = PETSC_FALSE;
  PetscCallCUDA(PoolNow(&pool, &reserved, &used)); /* memory freed on a stream counts as unused at once */
  if (reserved < used + ctx->pool_idle + AIJT_POOL_GIVE_BACK_MIN) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream)); /* the one every free of the setup and of the matrix's end is on */
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCallCUDA(PoolNow(&pool, &reserved, &used));
  PetscCallCUDA(cudaMemPoolTrimTo(pool, (size_t)used + ctx->pool_idle));
  PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &after));
  PetscCall(PetscInfo(A, "Device memory given back from the pool: %.4g MB (it holds %.4g MB, %.4g MB of it in use)\n", (double)(reserved - after) / 1e6, (double)after / 1e6, (double)used / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* All the pool holds unused given back, PETSc's too, once the stream's work is done: the strips found no room
   (NoRoom in aijtunedcuda.c), and the base's own device matrix, which cudaMalloc makes, needs what is there. */
PetscErrorCode MatSeqAIJTunedCUDAPoolEmpty(Mat_SeqAIJTuned *ctx, cudaStream_t stream)
{
  cudaMemPool_t pool;

  PetscFunctionBegin;
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCallCUDA(PoolOf(&pool));
  PetscCallCUDA(cudaMemPoolTrimTo(pool, 0));
  ctx->pool_marked = PETSC_FALSE; /* all given back */
  ctx->pool_left   = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
