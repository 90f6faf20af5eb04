/* How long the GPU runs slow after it was left idle: after T ms of idle (host asleep), a read of 106 MB
   repeated 12 times back to back, each timed by CUDA events; then the same read right after an upload of
   the same 106 MB from pageable host memory (as aijtuned's planning follows its upload of the structure),
   once with the host waiting for the upload first, once queued behind it.  Offline probe.
     nvcc -O2 -arch=sm_90 ramp.cu -o ramp && ./ramp */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__global__ void read_all(const int4 *a, size_t n, int *out)
{
  int s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = a[i];
    s ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (s == 0x7fffffff) *out = s;
}

int main(void)
{
  const size_t n = 26463592 / 4;
  int4        *a;
  int         *out;
  cudaStream_t s;
  cudaEvent_t  e[13];
  char        *host = (char *)malloc(n * sizeof(int4));
  memset(host, 1, n * sizeof(int4));
  cudaMalloc(&a, n * sizeof(int4));
  cudaMalloc(&out, sizeof(int));
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int i = 0; i < 13; i++) cudaEventCreate(&e[i]);
  for (int w = 0; w < 20; w++) read_all<<<1056, 256, 0, s>>>(a, n, out);
  cudaStreamSynchronize(s);
  const int idles[] = {0, 1, 5, 20, 50, 200};
  printf("12 reads back to back after the idle (us each, median of 5 trials)\n");
  for (unsigned q = 0; q < sizeof(idles) / sizeof(idles[0]); q++) {
    float t[5][12];
    for (int r = 0; r < 5; r++) {
      if (idles[q]) usleep(idles[q] * 1000);
      for (int i = 0; i < 12; i++) {
        cudaEventRecord(e[i], s);
        read_all<<<1056, 256, 0, s>>>(a, n, out);
      }
      cudaEventRecord(e[12], s);
      cudaStreamSynchronize(s);
      for (int i = 0; i < 12; i++) cudaEventElapsedTime(&t[r][i], e[i], e[i + 1]);
    }
    printf("idle %4d ms:", idles[q]);
    for (int i = 0; i < 12; i++) {
      float v[5];
      for (int r = 0; r < 5; r++) v[r] = t[r][i];
      for (int x = 0; x < 5; x++)
        for (int y = x + 1; y < 5; y++)
          if (v[y] < v[x]) { float z = v[x]; v[x] = v[y]; v[y] = z; }
      printf(" %6.1f", 1e3 * v[2]);
    }
    printf("\n");
  }
  printf("after an upload of the same bytes from pageable memory, 200 ms idle before it (us, 5 trials)\n");
  for (int queued = 0; queued < 2; queued++) {
    printf("%s:", queued ? "queued behind the upload" : "host waits for the upload");
    for (int r = 0; r < 5; r++) {
      float ms;
      usleep(200 * 1000);
      cudaMemcpyAsync(a, host, n * sizeof(int4), cudaMemcpyHostToDevice, s);
      if (!queued) cudaStreamSynchronize(s);
      cudaEventRecord(e[0], s);
      read_all<<<1056, 256, 0, s>>>(a, n, out);
      cudaEventRecord(e[1], s);
      cudaStreamSynchronize(s);
      cudaEventElapsedTime(&ms, e[0], e[1]);
      printf(" %6.1f", 1e3 * ms);
    }
    printf("\n");
  }
  cudaError_t err = cudaGetLastError();
  if (err) printf("error %s\n", cudaGetErrorString(err));
  return 0;
}
