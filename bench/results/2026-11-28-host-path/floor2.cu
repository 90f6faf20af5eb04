/* The host's cost of one launch call, by kernel: floor2 [CALLS].  Each round launches every variant once, in turn,
   each between two event records on the legacy stream as bench_spmv times a product (paced: the device runs them as
   they come); the launch call alone is timed with clock_gettime.  Medians over CALLS rounds (default 3000), ns.
     empty7    an empty kernel of seven scalar and pointer parameters (sellcuda's kernels' shape)
     empty160  an empty kernel of a 160-byte __grid_constant__ block
     empty2376 an empty kernel of a 2376-byte __grid_constant__ block (the fused launch's size)
     fused1    the fused kernel for one DIA strip (fused_args<1>), its strip empty
     fused16   the fused kernel of every format (fused_args<AIJT_FUSED_MAX>: 16 strips when h200-call2 ran, 8 since),
               one empty CSR strip
     dense16   the same, compiled for 32 registers (DENSE)
   Every variant reads nothing: what differs is the launch's parameters and the kernel launched. */
#include "spmv.cu"
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vector>

template <int B>
struct block {
  char b[B];
};
__global__ void empty7(const int *a, const int *b, const double *c, const double *x, double *y, int n, int m)
{
  if (n < 0) y[0] = x[0] + c[0] + a[0] + b[0] + m;
}
template <int B>
__global__ void empty_block(const __grid_constant__ block<B> p, double *y)
{
  if (p.b[B - 1] == 7) y[0] = 1;
}
static double now_ns()
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
#define CK(e) do { cudaError_t e_ = (e); if (e_ != cudaSuccess) { printf("%s: %s\n", #e, cudaGetErrorString(e_)); exit(1); } } while (0)

int main(int argc, char **argv)
{
  const int   calls = argc > 1 ? atoi(argv[1]) : 3000;
  const char *names[] = {"empty7", "empty160", "empty2376", "fused1", "fused16", "dense16"};
  const int   nv      = 6;
  double     *y;
  cudaEvent_t e0, e1;
  CK(cudaMalloc(&y, 1024 * sizeof(double)));
  CK(cudaMemset(y, 0, 1024 * sizeof(double)));
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  block<160>                       b160  = {};
  block<2376>                      b2376 = {};
  aijt::fused_args<1>              f1    = {};
  aijt::fused_args<AIJT_FUSED_MAX> f16   = {};
  f1.nstrips = 1, f1.first[1] = 1, f1.strip[0].format = AIJT_DIA;
  f16.nstrips = 1, f16.first[1] = 1, f16.strip[0].format = AIJT_CSR, f16.strip[0].tpr = 1;
  printf("fused_args<1> %zu bytes, fused_args<%d> %zu bytes\n", sizeof f1, AIJT_FUSED_MAX, sizeof f16);
  {
    const void *fn[] = {(const void *)empty7, (const void *)empty_block<160>, (const void *)empty_block<2376>, (const void *)aijt::fused_spmv_kernel<1, false, false, false>, (const void *)aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, false>, (const void *)aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, true>};
    for (int v = 0; v < 6; v++) {
      cudaFuncAttributes fa;
      CK(cudaFuncGetAttributes(&fa, fn[v]));
      printf("%-10s registers %d, local %zu bytes, static shared %zu bytes\n", names[v], fa.numRegs, fa.localSizeBytes, fa.sharedSizeBytes);
    }
  }
  std::vector<std::vector<double>> t(nv);
  for (int r = -50; r < calls; r++) {
    for (int v = 0; v < nv; v++) {
      CK(cudaEventRecord(e0, 0));
      const double t0 = now_ns();
      switch (v) {
      case 0: empty7<<<1, 256>>>(NULL, NULL, NULL, NULL, y, 1, 2); break;
      case 1: empty_block<160><<<1, 256>>>(b160, y); break;
      case 2: empty_block<2376><<<1, 256>>>(b2376, y); break;
      case 3: aijt::fused_spmv_kernel<1, false, false, false><<<1, 256>>>(f1, NULL, NULL, y, 1.0); break;
      case 4: aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, false><<<1, 256>>>(f16, NULL, NULL, y, 1.0); break;
      case 5: aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, true><<<1, 256>>>(f16, NULL, NULL, y, 1.0); break;
      }
      const double t1 = now_ns();
      CK(cudaGetLastError());
      CK(cudaEventRecord(e1, 0));
      if (r >= 0) t[v].push_back(t1 - t0);
    }
  }
  CK(cudaDeviceSynchronize());
  for (int v = 0; v < nv; v++) {
    std::sort(t[v].begin(), t[v].end());
    const size_t n = t[v].size();
    printf("%-10s launch call %7.0f ns median (%7.0f to %7.0f, 10th-90th)\n", names[v], t[v][n / 2], t[v][n / 10], t[v][9 * n / 10]);
  }
  return 0;
}
