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

extern "C" cudaError_t aijt_dev_fetch(void *to, const void *from, size_t bytes, cudaStream_t stream)
{
  cudaError_t err;

  if (!bytes) return cudaSuccess;
  if (bytes <= STAGE_BYTES) {
    std::lock_guard<std::mutex> hold(stage_lock);
    if (!stage && cudaMallocHost(&stage, STAGE_BYTES) != cudaSuccess) {
      (void)cudaGetLastError(); /* no pinned memory: the pageable copy below does */
      stage = NULL;
    }
    if (stage) {
      if ((err = cudaMemcpyAsync(stage, from, bytes, cudaMemcpyDeviceToHost, stream)) != cudaSuccess) return err;
      if ((err = cudaStreamSynchronize(stream)) != cudaSuccess) return err;
      memcpy(to, stage, bytes);
      return cudaSuccess;
    }
  }
  if ((err = cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream)) != cudaSuccess) return err;
  return cudaStreamSynchronize(stream);
}

extern "C" void aijt_dev_stage_free(void)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  if (stage) (void)cudaFreeHost(stage);
  stage = NULL;
}
