// Host-to-device copies of a matrix's values as a Newton step brings them: from pageable memory (what the refill
// does today) and from the same array registered with cudaHostRegister; the registration's own cost; and whether the
// copy from registered memory leaves the host free (asynchronous) before an event wait.
// nvcc -O2 -o probe probe.cu && ./probe 3.5 28 228 648
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

int main(int argc, char **argv)
{
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaFree(0));
  for (int a = 1; a < argc; a++) {
    size_t bytes = (size_t)(atof(argv[a]) * 1e6);
    double *h = (double *)malloc(bytes), *d, tp[5], tr, tu, tq[5], tasync;
    memset(h, 1, bytes);
    CK(cudaMalloc(&d, bytes));
    for (int r = 0; r < 5; r++) { double t0 = now(); CK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s)); tp[r] = now() - t0; }
    double t0 = now(); CK(cudaHostRegister(h, bytes, cudaHostRegisterDefault)); tr = now() - t0;
    for (int r = 0; r < 5; r++) { double t1 = now(); CK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s)); tasync = now() - t1; CK(cudaStreamSynchronize(s)); tq[r] = now() - t1; }
    t0 = now(); CK(cudaHostUnregister(h)); tu = now() - t0;
    double bp = 1e99, bq = 1e99;
    for (int r = 1; r < 5; r++) { if (tp[r] < bp) bp = tp[r]; if (tq[r] < bq) bq = tq[r]; }
    printf("%8.1f MB: pageable %.3f ms (%.1f GB/s, first %.3f)  registered %.3f ms (%.1f GB/s, first %.3f, host returned after %.3f ms)  register %.3f ms, unregister %.3f ms\n",
           bytes / 1e6, 1e3 * bp, bytes / bp / 1e9, 1e3 * tp[0], 1e3 * bq, bytes / bq / 1e9, 1e3 * tq[0], 1e3 * tasync, 1e3 * tr, 1e3 * tu);
    CK(cudaFree(d));
    free(h);
  }
  return 0;
}
