/*
   The set-up passes' small results (statistics, counts, flags) come back to the host through one pinned
   buffer.  A copy into pageable memory goes through the driver's own staging: on an H100 the call
   returned about 20 us after the data had arrived (bench/results/2026-11-22-h100-actor-variants, box27's
   plan), and a plan waits for 3 to 5 such copies.  The buffer is made at the first fetch that fits it and
   kept for the process; aijt_dev_stage_free releases it (the PETSc package does at PetscFinalize).  A
   mutex keeps two host threads from sharing it at once.
*/
#include "aijtkernels.h"

#include <mutex>
#include <string.h>

namespace {

#define STAGE_BYTES ((size_t)256 << 10) /* the planner's statistics (about 37 KB) and degree counts */

std::mutex stage_lock;
void      *stage; /* pinned host memory of STAGE_BYTES, or NULL */

} // namespace

/* The buffer, made at its first use; NULL where no pinned memory is to be had (a pageable copy does). */
static void *stage_buffer(void)
{
  if (!stage && cudaMallocHost(&stage, STAGE_BYTES) != cudaSuccess) {
    (void)cudaGetLastError();
    stage = NULL;
  }
  return stage;
}

extern "C" cudaError_t aijt_dev_fetch(void *to, const void *from, size_t bytes, cudaStream_t stream)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  void                       *buf = bytes && bytes <= STAGE_BYTES ? stage_buffer() : NULL;
  cudaError_t                 err;

  if (bytes && (err = cudaMemcpyAsync(buf ? buf : to, from, bytes, cudaMemcpyDeviceToHost, stream)) != cudaSuccess) return err;
  if ((err = cudaStreamSynchronize(stream)) != cudaSuccess) return err;
  if (buf) memcpy(to, buf, bytes);
  return cudaSuccess;
}

extern "C" void aijt_dev_stage_free(void)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  if (stage) (void)cudaFreeHost(stage);
  stage = NULL;
}
