/* Holding a stream while the host queues launches behind it (hold.h). */
#include "hold.h"

namespace {

/* flag[0]: released by the host; flag[1]: the kernel gave up first.  Mapped pinned memory, made at the
   first hold and kept for the process (a few bytes). */
volatile int *flag_host;
int          *flag_dev;

__device__ unsigned long long now_ns(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(volatile int *flag)
{
  const unsigned long long t0 = now_ns();
  while (!flag[0]) {
    if (now_ns() - t0 > 1000000000ull) { /* a second */
      flag[1] = 1;
      return;
    }
    __nanosleep(1000);
  }
}

} // namespace

extern "C" cudaError_t aijt_dev_hold(cudaStream_t stream)
{
  cudaError_t err;

  if (!flag_host) {
    void *p = NULL;
    if ((err = cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocMapped)) != cudaSuccess) return err;
    if ((err = cudaHostGetDevicePointer((void **)&flag_dev, p, 0)) != cudaSuccess) {
      (void)cudaFreeHost(p);
      return err;
    }
    flag_host = (volatile int *)p;
  }
  flag_host[0] = 0;
  flag_host[1] = 0;
  spin_kernel<<<1, 1, 0, stream>>>(flag_dev);
  return cudaGetLastError();
}

extern "C" void aijt_dev_release(void)
{
  if (flag_host) flag_host[0] = 1;
}

extern "C" int aijt_dev_hold_timed_out(void)
{
  return flag_host && flag_host[1];
}
