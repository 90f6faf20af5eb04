/*
   Row blocks (STREAM, CSR-stream): thread block b takes the rows whose first slot lies in its share of
   AIJT_STREAM_SHARE slots (their starts follow the row offsets in ptr, plan/layout.c), in natural order.
   Its threads load the share's columns and values coalesced, four slots each with all their gathers of
   x in flight at once, and keep each product in shared memory; then TPR lanes per row add a row's
   products from there and write y[row] = z[row] + sum once.

   What it is for: rows of mixed short lengths in natural order (a graph's incidence matrix), where a
   row per thread or group waits on its own chain of loads and sorting by length scatters y.  On an H100
   actor_movie_incidence (127k rows of 1 to 294 entries) ran in 13.2 us against 16.2 for the model's
   sorted CSR + SELL plan and 17.2 for cuSPARSE (bench/results/2026-11-25-h100-stream-probe).

   A launch of its own: dynamic shared memory for the share and the strip's longest row.  With TPR = 1 (and no
   MatScale factor) a row's products are added in column order after z[row]: the host reference's sums, bit for bit.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <int TPR>
__global__ void __launch_bounds__(AIJT_STREAM_BLOCK) stream_kernel(const __grid_constant__ aijt_dev_strip s, const double *__restrict__ x, const y_out o)
{
  constexpr int PER = AIJT_STREAM_SHARE / AIJT_STREAM_BLOCK;
  extern __shared__ double prod[];
  const aijt_int *__restrict__ ptr    = s.ptr;
  const aijt_int *__restrict__ starts = s.ptr + s.nrows + 1;
  const aijt_int *__restrict__ col    = s.col;
  const double *__restrict__ val      = s.val;
  const int64_t r0 = __ldg(starts + blockIdx.x), r1 = __ldg(starts + blockIdx.x + 1);

  if (r0 >= r1) return; /* the whole block: a long row of the block before spans this share */
  const int64_t k0 = __ldg(ptr + r0);
  const int     n  = (int)(__ldg(ptr + r1) - k0); /* < AIJT_STREAM_SHARE + the longest row */
  for (int base = 0; base < n; base += AIJT_STREAM_SHARE) {
    aijt_int c[PER];
    double   v[PER], xv[PER];
#pragma unroll
    for (int u = 0; u < PER; u++) {
      const int  i  = base + u * AIJT_STREAM_BLOCK + (int)threadIdx.x;
      const bool in = i < n;
      c[u]          = in ? __ldcs(col + k0 + i) : (aijt_int)-1;
      v[u]          = in ? __ldcs(val + k0 + i) : 0.0;
    }
#pragma unroll
    for (int u = 0; u < PER; u++) xv[u] = c[u] >= 0 ? __ldg(x + c[u]) : 0.0;
#pragma unroll
    for (int u = 0; u < PER; u++)
      if (c[u] >= 0) prod[base + u * AIJT_STREAM_BLOCK + threadIdx.x] = v[u] * xv[u];
  }
  __syncthreads();

  const unsigned lane   = threadIdx.x % TPR;
  const bool     in_row = TPR == 1 && o.scale == 1.0; /* the sum starts at z[row], as the host reference's */
  const unsigned mask   = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  /* the lanes of a group share r, so they leave the loop together, as the group's shuffles need */
  for (int64_t r = r0 + threadIdx.x / TPR; r < r1; r += AIJT_STREAM_BLOCK / TPR) {
    const int a = (int)(__ldg(ptr + r) - k0), b = (int)(__ldg(ptr + r + 1) - k0);
    double    sum = in_row ? o.start(s.row0 + (aijt_int)r) : 0.0;
    for (int k = a + (int)lane; k < b; k += TPR) sum += prod[k];
#pragma unroll
    for (int off = TPR / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, TPR);
    if (lane == 0) {
      if (in_row) o.y[s.row0 + r] = sum; /* z[row] is in it already */
      else o.put(s.row0 + (aijt_int)r, sum);
    }
  }
}

/* The strip's launch: a block per share, shared memory for a share and its longest row. */
inline cudaError_t launch_stream(const aijt_dev_strip &s, const double *x, const y_out &o, cudaStream_t stream)
{
  const int64_t nb   = AIJT_STREAM_BLOCKS((int64_t)s.nslots);
  const size_t  smem = ((size_t)AIJT_STREAM_SHARE + (size_t)s.width) * sizeof(double);
  if (nb > 0x7fffffff || s.width > AIJT_STREAM_MAX_LEN) return cudaErrorInvalidValue;
  if (s.tpr == 4) stream_kernel<4><<<(unsigned)nb, AIJT_STREAM_BLOCK, smem, stream>>>(s, x, o);
  else stream_kernel<1><<<(unsigned)nb, AIJT_STREAM_BLOCK, smem, stream>>>(s, x, o);
  return cudaGetLastError();
}

} // namespace aijt
