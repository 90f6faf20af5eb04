/*
   Long rows (CSR layout): whole thread blocks per row, so a row of 50k entries is not left to one warp.

   blocks_per_row == 1: a block reduces a row and writes y[row] = z[row] + sum itself.

   blocks_per_row == P > 1: the row is cut into P contiguous parts, a block per part.  Blocks of one
   launch have no order among them, so the parts meet in a workspace: each part stores its sum in
   partial[row * P + part], fences, and counts itself in count[row]; the part that counts last adds the
   P partial sums in part order, writes y[row] = z[row] + total and puts count[row] back to 0 for the
   next call.  The result does not depend on which part finishes last (the order of the additions is
   fixed), there is one store per row into y, and no initialisation launch (seed 003's long-row kernel
   atomically added into a pre-initialised y instead).
*/
#pragma once

#include "internal.cuh"

namespace aijt {

/* Sum of slots [lo, hi) of the strip over the block; valid in thread 0.  Every thread must call it. */
template <bool SPLIT>
__device__ __forceinline__ double block_dot(const aijt_dev_strip &s, int64_t lo, int64_t hi, const x_source<SPLIT> &x, double *shared32)
{
  return block_sum(gather_dot(s.col, s.val, lo + threadIdx.x, hi, blockDim.x, x), shared32);
}

template <bool SPLIT>
__device__ __forceinline__ void csr_long_rows(const aijt_dev_strip &s, strip_range g, const x_source<SPLIT> &x, const y_out &o)
{
  __shared__ double partial32[32];
  const int64_t     parts = s.blocks_per_row;

  /* unit u is part u % parts of row u / parts; the loop bounds depend only on blockIdx, so every
     thread of the block takes the same path through block_dot's __syncthreads */
  for (int64_t u = g.blk; u < (int64_t)s.nrows * parts; u += g.nblk) {
    const int64_t i = u / parts, part = u - i * parts;
    const int64_t begin = __ldg(s.ptr + i), end = __ldg(s.ptr + i + 1);
    /* equal parts, rounded up to a multiple of 32 slots so that warps read whole segments */
    const int64_t seg = parts == 1 ? end - begin : ((end - begin + parts - 1) / parts + 31) & ~(int64_t)31;
    const int64_t lo  = begin + part * seg < end ? begin + part * seg : end;
    const int64_t hi  = lo + seg < end ? lo + seg : end;
    const double  sum = block_dot(s, lo, hi, x, partial32);
    const aijt_int r  = __ldg(s.rows + i);

    if (parts == 1) {
      if (threadIdx.x == 0) o.put(r, sum);
      continue;
    }
    if (threadIdx.x == 0) { /* the block's sum lives in thread 0 only: the rest is thread 0's work */
      s.partial[u] = sum;
      __threadfence(); /* the partial is visible before the count says so */
      if (atomicAdd(s.count + i, 1u) == (unsigned)parts - 1u) {
        __threadfence(); /* and the other parts' partials are read after their counts */
        double total = 0.0;
        for (int64_t p = 0; p < parts; p++) total += __ldcg(s.partial + i * parts + p); /* from L2: other SMs wrote them */
        o.put(r, total);
        s.count[i] = 0;
      }
    }
  }
}

} // namespace aijt
