/*
   Column panels (PANEL, plan/panel.c): block b copies panel p = b / groups of x into shared memory and
   runs the rows of group b % groups (chunk rows each) over their entries in that panel, TPR lanes per
   row as in CSR-vector (csr_vector.cuh), columns relative to the panel.  Each row's sum in the panel goes
   to partial[p * nrows + i]; panel_sum then adds a row's partial sums in a fixed order and writes
   y[row] = z[row] + total once: deterministic, no atomics.

   Two launches, apart from the fused kernel: the panel launch needs width * 8 bytes of dynamic shared
   memory (48 KiB at AIJT_PANEL_WIDTH, the most a launch gets without opting in), and the sum must
   wait for every panel.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

__device__ __forceinline__ int64_t panel_count(const aijt_dev_strip &s)
{
  return s.ncols <= s.width ? 1 : ((int64_t)s.ncols + s.width - 1) / s.width;
}

template <int TPR>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK) panel_kernel(const __grid_constant__ aijt_dev_strip s, const double *__restrict__ x)
{
  extern __shared__ double sx[];
  const int64_t groups = ((int64_t)s.nrows + s.chunk - 1) / s.chunk;
  const int64_t p = blockIdx.x / groups, g = blockIdx.x - p * groups;
  const int64_t c0 = p * s.width, w = s.ncols - c0 < s.width ? s.ncols - c0 : s.width;

  for (int64_t j = threadIdx.x; j < w; j += blockDim.x) sx[j] = __ldg(x + c0 + j);
  __syncthreads();

  const aijt_int *__restrict__ ptr = s.ptr + p * s.nrows;
  const int64_t  r1   = (g + 1) * s.chunk < s.nrows ? (g + 1) * s.chunk : s.nrows;
  const unsigned lane = threadIdx.x % TPR;
  const unsigned mask = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  for (int64_t i = g * s.chunk + threadIdx.x / TPR; i < r1; i += blockDim.x / TPR) {
    const int64_t begin = __ldg(ptr + i), end = __ldg(ptr + i + 1);
    double        sum   = 0.0;
    for (int64_t k = begin + lane; k < end; k += TPR) sum += __ldcs(s.val + k) * sx[__ldcs(s.col + k)]; /* read once: stream past L1 */
#pragma unroll
    for (int off = TPR / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, TPR);
    if (lane == 0) s.partial[p * s.nrows + i] = sum;
  }
}

/* 32 rows per block of PANEL_SUM_WARPS warps: warp w adds panels w, w + PANEL_SUM_WARPS, ... for the
   block's rows (a lane per row, reads of 32 neighbouring partials), then warp 0 adds the warps' sums in
   warp order. */
#define PANEL_SUM_WARPS 8

__global__ void __launch_bounds__(32 * PANEL_SUM_WARPS) panel_sum(const __grid_constant__ aijt_dev_strip s, const y_out o)
{
  __shared__ double part[PANEL_SUM_WARPS][32];
  const int64_t     np = panel_count(s), i = (int64_t)blockIdx.x * 32 + (threadIdx.x & 31u);
  const unsigned    w  = threadIdx.x / 32;
  double            sum = 0.0;

  if (i < s.nrows)
    for (int64_t p = w; p < np; p += PANEL_SUM_WARPS) sum += __ldcg(s.partial + p * s.nrows + i); /* written by other SMs */
  part[w][threadIdx.x & 31u] = sum;
  __syncthreads();
  if (w == 0 && i < s.nrows) {
    double total = 0.0;
#pragma unroll
    for (int k = 0; k < PANEL_SUM_WARPS; k++) total += part[k][threadIdx.x];
    o.put(__ldg(s.rows + i), total);
  }
}

} // namespace aijt
