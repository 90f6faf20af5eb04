/*
   ELLPACK, column-major: one thread per row; slot (i, j) is at j * ld + i (ld: nrows, or the
   whole strip's in a window), so at every step j the
   threads of a warp read consecutive col and val entries (coalesced).

   Padding (col < 0) is skipped, never multiplied (gather_dot): x[-1] is never read, and an Inf
   or NaN in x cannot reach a row through a padded zero.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <bool SPLIT>
__device__ __forceinline__ void ell_rows(const aijt_dev_strip &s, strip_range g, const x_source<SPLIT> &x, const y_out &o)
{
  const aijt_int *__restrict__ col = s.col;
  const double *__restrict__ val   = s.val;
  const int64_t stride             = g.nblk * blockDim.x;
  const int64_t ld                 = s.ld ? s.ld : s.nrows;

  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    const double sum = gather_dot(col, val, i, i + (int64_t)s.width * ld, ld, x);
    o.put(__ldg(s.rows + i), sum);
  }
}

} // namespace aijt
