/*
   ELLPACK, column-major: one thread per row; slot (i, j) is at j * nrows + i, so at every step j the
   threads of a warp read consecutive col and val entries (coalesced).

   Padding (col < 0) is skipped, never multiplied: x[-1] is never read, and an Inf or NaN in x cannot
   reach a row through a padded zero.  val is loaded unconditionally (a padded slot holds 0.0 at a valid
   address) so that the col and val loads of a step are independent and in flight together; only the
   x gather waits for col.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

__device__ __forceinline__ void ell_rows(const aijt_dev_strip &s, strip_range g, const double *__restrict__ x, const double *z, double *y)
{
  const aijt_int *__restrict__ col = s.col;
  const double *__restrict__ val   = s.val;
  const int64_t stride             = g.nblk * blockDim.x;

  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    double sum = 0.0;
#pragma unroll 4
    for (aijt_int j = 0; j < s.width; j++) {
      const int64_t  k = (int64_t)j * s.nrows + i;
      const aijt_int c = __ldg(col + k);
      const double   v = __ldg(val + k);
      if (c >= 0) sum += v * __ldg(x + c);
    }
    const aijt_int r = __ldg(s.rows + i);
    y[r]             = row_start(z, r) + sum;
  }
}

} // namespace aijt
