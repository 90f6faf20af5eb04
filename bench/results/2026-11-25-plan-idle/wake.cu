/* What a GPU pass costs after the GPU was left idle: a read of 106 MB (box27's column indices) and an
   empty launch, each after T ms of idle, the host either asleep (usleep) or spinning, timed by CUDA events
   (the GPU's time) and by the host's wall clock (launch to the end of the wait).  Offline probe.
     nvcc -O2 -arch=sm_90 wake.cu -o wake && ./wake */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * t.tv_sec + 1e-6 * t.tv_nsec;
}

__global__ void read_all(const int4 *a, size_t n, int *out)
{
  int s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = a[i];
    s ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (s == 0x7fffffff) *out = s;
}

__global__ void empty(int *out)
{
  if (threadIdx.x == 1000) *out = 0;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void)
{
  const size_t n = 26463592 / 4; /* int4s */
  int4        *a;
  int         *out;
  cudaStream_t s;
  cudaEvent_t  e0, e1;
  cudaMalloc(&a, n * sizeof(int4));
  cudaMemset(a, 1, n * sizeof(int4));
  cudaMalloc(&out, sizeof(int));
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  for (int w = 0; w < 20; w++) read_all<<<1056, 256, 0, s>>>(a, n, out);
  cudaStreamSynchronize(s);
  printf("%-6s %-5s %8s | %10s %10s | %10s %10s\n", "kernel", "host", "idle_ms", "gpu_us", "wall_us", "gpu_max", "wall_max");
  const int idles[] = {0, 1, 2, 5, 10, 20, 50, 200};
  for (int k = 0; k < 2; k++)
    for (int spin = 0; spin < 2; spin++)
      for (unsigned q = 0; q < sizeof(idles) / sizeof(idles[0]); q++) {
        double g[9], h[9];
        for (int r = 0; r < 9; r++) {
          if (spin) {
            double t = now_ms();
            while (now_ms() - t < idles[q]) {}
          } else if (idles[q]) usleep(idles[q] * 1000);
          double t0 = now_ms();
          float  ms;
          cudaEventRecord(e0, s);
          if (k == 0) read_all<<<1056, 256, 0, s>>>(a, n, out);
          else empty<<<1, 32, 0, s>>>(out);
          cudaEventRecord(e1, s);
          cudaStreamSynchronize(s);
          h[r] = 1e3 * (now_ms() - t0);
          cudaEventElapsedTime(&ms, e0, e1);
          g[r] = 1e3 * ms;
        }
        qsort(g, 9, sizeof(double), cmp), qsort(h, 9, sizeof(double), cmp);
        printf("%-6s %-5s %8d | %10.1f %10.1f | %10.1f %10.1f\n", k ? "empty" : "read", spin ? "spin" : "sleep", idles[q], g[4], h[4], g[8], h[8]);
      }
  cudaError_t e = cudaGetLastError();
  if (e) printf("error %s\n", cudaGetErrorString(e));
  return 0;
}
