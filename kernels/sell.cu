/*
   SELL-C-sigma: slices of C rows, each stored column-major with its own width; slot (l, j) of slice s
   is at ptr[s] + j * C + l.  One thread per row: the C threads of a slice read consecutive slots at
   every step, so with C = 32 (the planner's default) and blocks of a multiple of 32 threads each warp
   is exactly one slice and reads fully coalesced.  Any C >= 1 is correct: the row -> (slice, lane)
   mapping does not depend on the block (small C puts several slices in a warp, large C spreads a
   slice over several warps).  Rows past nrows in the last slice are padding and are not visited.

   CHUNK > 0 makes C a compile-time constant (division and stride become shifts for powers of two);
   CHUNK == 0 reads C at run time.  The loop runs k from the row's first slot to the slice end with
   stride C, which avoids computing the slice width.  Padding (col < 0) is skipped as in ELL.
*/
#include "internal.cuh"

namespace aijt {

template <int CHUNK>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK)
  sell_kernel(aijt_int nrows, int chunk, const aijt_int *__restrict__ rows, const aijt_int *__restrict__ ptr, const aijt_int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const aijt_int C      = CHUNK > 0 ? CHUNK : chunk;
  const int64_t  stride = (int64_t)gridDim.x * blockDim.x;

  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nrows; i += stride) {
    /* i < nrows fits aijt_int: divide in that width (a 64-bit division is several times dearer) */
    const aijt_int s   = (aijt_int)i / C, l = (aijt_int)i - s * C;
    const int64_t  end = __ldg(ptr + s + 1);
    double         sum = 0.0;
#pragma unroll 4
    for (int64_t k = (int64_t)__ldg(ptr + s) + l; k < end; k += C) {
      const aijt_int c = __ldg(col + k);
      const double   v = __ldg(val + k);
      if (c >= 0) sum += v * __ldg(x + c);
    }
    const aijt_int r = __ldg(rows + i);
    y[r]             = row_start(z, r) + sum;
  }
}

template <int CHUNK>
void launch_sell(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y)
{
  sell_kernel<CHUNK><<<cfg.grid, cfg.block, 0, cfg.stream>>>(s.nrows, s.chunk, s.rows, s.ptr, s.col, s.val, x, z, y);
}

template void launch_sell<32>(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);
template void launch_sell<0>(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);

} // namespace aijt
