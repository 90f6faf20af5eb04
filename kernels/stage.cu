/*
   What the set-up passes keep for the process, so that a pass is a launch and a wait:

   - One pinned host buffer for their small results (statistics, counts, flags).  A copy into pageable
     memory goes through the driver's own staging: on an H100 the call returned about 20 us after the data
     had arrived (bench/results/2026-11-22-h100-actor-variants, box27's plan), and a plan waits for 3 to 5
     such copies.  It is mapped, so that a kernel may write its result there itself (aijt_dev_stage_begin).
   - Per device, a zeroed scratch that such a kernel accumulates in and leaves zeroed.  Inside PETSc on an
     H100 the allocation, memset and free it replaces took 40-55 us of a stencil's 0.18-0.26 ms plan
     (bench/results/2026-11-25-plan-fuse).

   - Per device, a non-blocking stream for aijt_dev_wake's launch beside an upload, and the GPU planner's in its
     thread (plan_job.cu), made once rather than for each planning.

   All are made at their first use; aijt_dev_stage_free releases them (the PETSc package does at
   PetscFinalize).  One mutex gives them to one pass at a time.
*/
#include "aijtkernels.h"

#include <mutex>
#include <string.h>

namespace {

#define STAGE_BYTES   ((size_t)256 << 10) /* the planner's statistics (about 37 KB) and degree counts */
#define STAGE_DEVICES 16                  /* devices with a zeroed scratch; past them a pass makes its own */

std::mutex stage_lock; /* held by aijt_dev_fetch, and from aijt_dev_stage_begin to aijt_dev_stage_end */
void      *stage;      /* pinned, mapped host memory of STAGE_BYTES, or NULL */
struct {
  void  *p; /* device memory, zeroed between passes */
  size_t bytes;
} zeroed[STAGE_DEVICES];
cudaStream_t wake_stream[STAGE_DEVICES]; /* aijt_dev_wake's, or NULL */

__device__ int wake_word;

/* One warp that reads a word: enough to wake the device (bench/results/2026-11-26-wake) */
__global__ void wake_kernel(void)
{
  const int v = *(volatile int *)&wake_word;
  if (v == 0x7fffffff && threadIdx.x == 0) wake_word = 0; /* never: the read is the point */
}

} // namespace

/* The buffer, made at its first use; NULL where no pinned memory is to be had (a pageable copy does). */
static void *stage_buffer(void)
{
  if (!stage && cudaHostAlloc(&stage, STAGE_BYTES, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
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

/* Device d made current for a release, the current one kept in *cur; false where it cannot be */
static bool device_enter(int d, int *cur)
{
  return cudaGetDevice(cur) == cudaSuccess && (*cur == d || cudaSetDevice(d) == cudaSuccess);
}

/* The device current before device_enter(d, &cur) made current again, and the releases' failures dropped */
static void device_leave(int d, int cur)
{
  if (cur != d) (void)cudaSetDevice(cur);
  (void)cudaGetLastError();
}

/* Device d's zeroed scratch released (lock held), with d current for the call. */
static void zeroed_drop(int d)
{
  int cur = d;

  if (!zeroed[d].p) return;
  if (device_enter(d, &cur)) (void)cudaFree(zeroed[d].p);
  device_leave(d, cur);
  zeroed[d].p = NULL, zeroed[d].bytes = 0;
}

/* The current device's zeroed scratch of at least bytes (lock held), made and zeroed on stream when
   missing or too small; NULL where it cannot be. */
static void *zeroed_scratch(size_t bytes, cudaStream_t stream)
{
  int dev = -1;

  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= STAGE_DEVICES) return NULL;
  if (zeroed[dev].p && zeroed[dev].bytes >= bytes) return zeroed[dev].p;
  zeroed_drop(dev); /* too small */
  void *p = NULL;
  if (cudaMalloc(&p, bytes) != cudaSuccess) return NULL;
  if (cudaMemsetAsync(p, 0, bytes, stream) != cudaSuccess) {
    (void)cudaFree(p);
    return NULL;
  }
  zeroed[dev].p = p, zeroed[dev].bytes = bytes;
  return p;
}

extern "C" int aijt_dev_stage_begin(size_t host_bytes, size_t zeroed_bytes, cudaStream_t stream, aijt_dev_stage_pass *pass)
{
  memset(pass, 0, sizeof(*pass));
  stage_lock.lock();
  if (host_bytes <= STAGE_BYTES && (pass->host = stage_buffer()) && cudaHostGetDevicePointer(&pass->host_dev, pass->host, 0) == cudaSuccess &&
      (pass->zeroed = zeroed_scratch(zeroed_bytes, stream)))
    return 1;
  (void)cudaGetLastError(); /* not the caller's failure: it makes its own memory */
  memset(pass, 0, sizeof(*pass));
  stage_lock.unlock();
  return 0;
}

extern "C" void aijt_dev_stage_end(int dirty)
{
  int dev = -1;

  if (dirty && cudaGetDevice(&dev) == cudaSuccess && dev >= 0 && dev < STAGE_DEVICES) zeroed_drop(dev); /* not known to be zeroed: made again */
  stage_lock.unlock();
}

/* Device d's wake stream destroyed (lock held), with d current for the call. */
static void wake_drop(int d)
{
  int cur = d;

  if (!wake_stream[d]) return;
  if (device_enter(d, &cur)) (void)cudaStreamDestroy(wake_stream[d]);
  device_leave(d, cur);
  wake_stream[d] = NULL;
}

/* The device's side stream: non-blocking, at the highest priority, so that the planner's short passes take the
   multiprocessors ahead of the waiting blocks of a long kernel beside them (a COO assembly's, MatSetValuesCOO); NULL
   where it cannot be had. */
static cudaStream_t side_stream_make(void)
{
  int          least = 0, greatest = 0;
  cudaStream_t s   = NULL;

  if (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess) greatest = 0;
  if (cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest) != cudaSuccess) {
    (void)cudaGetLastError();
    s = NULL;
  }
  return s;
}

extern "C" void aijt_dev_wake(void)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  int                         dev = -1;

  if (cudaPeekAtLastError() != cudaSuccess) return; /* someone else's failure, left for its owner to find */
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= STAGE_DEVICES) return;
  if (!wake_stream[dev]) wake_stream[dev] = side_stream_make();
  if (wake_stream[dev]) wake_kernel<<<1, 32, 0, wake_stream[dev]>>>();
  (void)cudaGetLastError(); /* only the wake's own failure can be pending here: it costs nothing but the wake */
}

extern "C" cudaStream_t aijt_dev_side_stream(void)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  int                         dev = -1;

  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= STAGE_DEVICES) return NULL;
  if (!wake_stream[dev]) wake_stream[dev] = side_stream_make();
  return wake_stream[dev];
}

extern "C" void aijt_dev_stage_free(void)
{
  std::lock_guard<std::mutex> hold(stage_lock);
  if (stage) (void)cudaFreeHost(stage);
  stage = NULL;
  for (int d = 0; d < STAGE_DEVICES; d++) zeroed_drop(d), wake_drop(d);
}
