/*
   Host-to-device copies of pageable memory through two page-locked buffers of the process (aijt_dev_copy_in): the
   host copies one piece into a buffer while the device takes the other's, then the next.

   Why not cudaMemcpyAsync from the pageable array itself: the driver stages such a copy through its own buffers and
   holds the host thread for all of it; on the GPU machine it held the other threads' CUDA calls too.  The GPU
   planner in its thread beside the values' upload (plan_job.cu) then waited for the whole copy: its planning, seen
   by the caller, took 2x as long as alone (0.75 against 0.37 ms on circuit, H200,
   bench/results/2026-11-27-plan-beside-upload/first-try).  Here each CUDA call is short: the planner's calls go
   between them, and it took 0.01-0.03 ms beyond the copy (after/).  The copies ran faster too: from an assembled
   aij to the first product, lap3d and box27 took 0.89 of aijcusparse's time, 1.01 and 1.06 before.

   The buffers are made at the first upload of at least AIJT_COPY_IN_MIN bytes (smaller ones go as they are: one
   piece, nothing to overlap) and kept (aijt_dev_copy_in_free releases them); a mutex gives them to one upload at a
   time.  Each piece's copy is recorded in an event of its buffer's,
   which the next writer of that buffer waits for: when aijt_dev_copy_in returns, the source may be written again,
   and the last pieces may still be on their way, in stream order.
*/
#include "aijtkernels.h"

#include <mutex>
#include <string.h>

namespace {

#define COPY_IN_PIECE   ((size_t)4 << 20) /* bytes a buffer holds */
#define COPY_IN_DEVICES 16                /* devices with events of their own; past them copies go as they are */

std::mutex  copy_in_lock;
void       *piece[2];                    /* page-locked, portable: any device's stream copies from them */
cudaEvent_t copied[COPY_IN_DEVICES][2];   /* per device (an event is recorded on its own device's streams) */
int         last_device[2] = {-1, -1};   /* whose event last covered each buffer */

bool ready(int dev)
{
  for (int k = 0; k < 2; k++) {
    if (!piece[k] && cudaHostAlloc(&piece[k], COPY_IN_PIECE, cudaHostAllocPortable) != cudaSuccess) return piece[k] = NULL, false;
    if (!copied[dev][k] && cudaEventCreateWithFlags(&copied[dev][k], cudaEventDisableTiming) != cudaSuccess) return copied[dev][k] = NULL, false;
  }
  return true;
}

} // namespace

extern "C" cudaError_t aijt_dev_copy_in(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
  int dev = -1;

  if (bytes < AIJT_COPY_IN_MIN) return bytes ? cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream) : cudaSuccess;
  std::lock_guard<std::mutex> hold(copy_in_lock);
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= COPY_IN_DEVICES || !ready(dev)) {
    (void)cudaGetLastError(); /* no buffers: the plain copy */
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  }
  for (size_t at = 0, k = 0; at < bytes; at += COPY_IN_PIECE, k ^= 1) {
    const size_t n = bytes - at < COPY_IN_PIECE ? bytes - at : COPY_IN_PIECE;
    cudaError_t  err;
    if (last_device[k] >= 0 && (err = cudaEventSynchronize(copied[last_device[k]][k])) != cudaSuccess) return err; /* its last piece is on the device */
    memcpy(piece[k], (const char *)src + at, n);
    if ((err = cudaMemcpyAsync((char *)dst + at, piece[k], n, cudaMemcpyHostToDevice, stream)) != cudaSuccess) return err;
    if ((err = cudaEventRecord(copied[dev][k], stream)) != cudaSuccess) return err;
    last_device[k] = dev;
  }
  return cudaSuccess;
}

extern "C" void aijt_dev_copy_in_free(void)
{
  std::lock_guard<std::mutex> hold(copy_in_lock);
  for (int k = 0; k < 2; k++) {
    if (last_device[k] >= 0) (void)cudaEventSynchronize(copied[last_device[k]][k]);
    if (piece[k]) (void)cudaFreeHost(piece[k]);
    piece[k]       = NULL;
    last_device[k] = -1;
  }
  for (int d = 0; d < COPY_IN_DEVICES; d++)
    for (int k = 0; k < 2; k++) {
      if (copied[d][k]) (void)cudaEventDestroy(copied[d][k]); /* an event may be destroyed from any device */
      copied[d][k] = NULL;
    }
  (void)cudaGetLastError();
}
