/*
   Long rows (CSR layout): whole thread blocks per row, so a row of 50k entries is not left to one warp.

   SPLIT = false (blocks_per_row == 1): block b reduces row b (grid-stride over rows) and writes
   y[row] = z[row] + sum itself.

   SPLIT = true (blocks_per_row == P > 1): the row is cut into P contiguous parts, one per blockIdx.y,
   and each block atomically adds its part's sum into y[row].  That needs y[row] to hold z[row] (or 0)
   before the first atomic, and blocks of one launch have no order among them.  So the dispatcher
   launches launch_rows_init for the strip's rows first, on the same stream: stream order makes the
   initialisation complete before any partial is added, without a host synchronization, a workspace or
   a grid-wide flag.  With z == y the init kernel writes y[row] = y[row], which is harmless.  Cost: one
   extra small launch and an nrows-long pass, negligible next to rows of thousands of entries.  The
   order of the atomic additions varies from run to run, so the last bits of y may too.
*/
#include "internal.cuh"

namespace aijt {

/* Sum over the block (blockDim.x a multiple of 32); the result is valid in thread 0.  Every thread of
   the block must call it (it synchronizes). */
__device__ __forceinline__ double block_sum(double v, double *shared32)
{
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  v = warp_sum(v);
  if (lane == 0) shared32[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < nwarps ? shared32[lane] : 0.0);
  __syncthreads(); /* shared32 is rewritten for the block's next row */
  return v;
}

template <bool SPLIT>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK)
  csr_long_kernel(aijt_int nrows, const aijt_int *__restrict__ rows, const aijt_int *__restrict__ ptr, const aijt_int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  __shared__ double partial[32];
  const int64_t     nparts = gridDim.y, part = blockIdx.y;

  /* the loop bounds depend only on blockIdx, so every thread of the block takes the same path
     through block_sum's __syncthreads */
  for (int64_t i = blockIdx.x; i < nrows; i += gridDim.x) {
    const int64_t begin = __ldg(ptr + i), end = __ldg(ptr + i + 1);
    int64_t       lo = begin, hi = end;
    if (SPLIT) {
      /* equal parts, rounded up to a multiple of 32 slots so that warps read whole segments */
      const int64_t seg = ((end - begin + nparts - 1) / nparts + 31) & ~(int64_t)31;
      lo                = begin + part * seg;
      hi                = lo + seg < end ? lo + seg : end;
      if (lo >= hi) continue; /* an empty part adds nothing; uniform across the block */
    }
    double sum = 0.0;
#pragma unroll 4
    for (int64_t k = lo + threadIdx.x; k < hi; k += blockDim.x) sum += __ldg(val + k) * __ldg(x + __ldg(col + k));
    sum = block_sum(sum, partial);
    if (threadIdx.x == 0) {
      const aijt_int r = __ldg(rows + i);
      if (SPLIT) atomicAdd(y + r, sum);
      else y[r] = row_start(z, r) + sum;
    }
  }
}

template <bool SPLIT>
void launch_csr_long(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y)
{
  csr_long_kernel<SPLIT><<<cfg.grid, cfg.block, 0, cfg.stream>>>(s.nrows, s.rows, s.ptr, s.col, s.val, x, z, y);
}

template void launch_csr_long<false>(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);
template void launch_csr_long<true>(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);

} // namespace aijt
