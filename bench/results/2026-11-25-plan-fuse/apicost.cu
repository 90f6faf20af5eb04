// What the CUDA runtime calls of the GPU planner cost the host on this machine (no CUPTI), each the
// median of 200 calls after 20 untimed:  nvcc -O2 -o apicost apicost.cu && ./apicost
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}
static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
__global__ void empty_kernel(int *p)
{
  if (p && threadIdx.x == 1024) *p = 0;
}
__global__ void zero_kernel(unsigned *p, size_t n)
{
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = 0;
}

static void empty_on(cudaStream_t s) { empty_kernel<<<1, 32, 0, s>>>(NULL); }
static void zero_on(cudaStream_t s, void *d, size_t bytes) { zero_kernel<<<37, 256, 0, s>>>((unsigned *)d, bytes / 4); }

#define N 200
#define TIME(label, setup, call, after) \
  do { \
    double t[N]; \
    for (int r = -20; r < N; r++) { \
      setup; \
      double t0 = now_us(); \
      call; \
      double t1 = now_us(); \
      after; \
      if (r >= 0) t[r] = t1 - t0; \
    } \
    qsort(t, N, sizeof(double), cmp); \
    printf("%-44s median %7.2f us  (10%% %7.2f, 90%% %7.2f)\n", label, t[N / 2], t[N / 10], t[9 * N / 10]); \
  } while (0)

int main(void)
{
  cudaStream_t s;
  const size_t bytes = 37432;
  void        *d = NULL, *pin = NULL, *page = malloc(bytes);
  cudaMemPool_t pool;
  unsigned long long most = ~0ull;
  cudaDeviceProp prop;

  cudaGetDeviceProperties(&prop, 0);
  printf("device %s\n", prop.name);
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &most);
  cudaMallocHost(&pin, bytes);
  cudaMalloc(&d, bytes);
  empty_on(s);
  cudaStreamSynchronize(s);
  void *a = NULL;
  TIME("cudaMallocAsync 37 KB (pool warm)", , cudaMallocAsync(&a, bytes, s), cudaFreeAsync(a, s); cudaStreamSynchronize(s));
  TIME("cudaFreeAsync 37 KB", cudaMallocAsync(&a, bytes, s), cudaFreeAsync(a, s), cudaStreamSynchronize(s));
  TIME("cudaMemsetAsync 37 KB", , cudaMemsetAsync(d, 0, bytes, s), cudaStreamSynchronize(s));
  TIME("launch: empty kernel", , empty_on(s), cudaStreamSynchronize(s));
  TIME("launch: zero kernel 37 KB (37 blocks)", , zero_on(s, d, bytes), cudaStreamSynchronize(s));
  TIME("launch + wait: empty kernel", , (empty_on(s), cudaStreamSynchronize(s)), );
  TIME("memset + launch + wait", , (cudaMemsetAsync(d, 0, bytes, s), empty_on(s), cudaStreamSynchronize(s)), );
  TIME("copy 37 KB to pageable + wait", , (cudaMemcpyAsync(page, d, bytes, cudaMemcpyDeviceToHost, s), cudaStreamSynchronize(s)), );
  TIME("copy 37 KB to pinned + wait", , (cudaMemcpyAsync(pin, d, bytes, cudaMemcpyDeviceToHost, s), cudaStreamSynchronize(s)), );
  TIME("malloc+memset+launch+copy(pageable)+free+wait", , (cudaMallocAsync(&a, bytes, s), cudaMemsetAsync(a, 0, bytes, s), empty_on(s), cudaMemcpyAsync(page, a, bytes, cudaMemcpyDeviceToHost, s), cudaFreeAsync(a, s), cudaStreamSynchronize(s)), );
  TIME("zero-launch+launch+copy(pinned)+wait", , (zero_on(s, d, bytes), empty_on(s), cudaMemcpyAsync(pin, d, bytes, cudaMemcpyDeviceToHost, s), cudaStreamSynchronize(s)), );
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
