/*
   The rows of a COO strip: their entries are in the tail, launched after the strips on the same
   stream; the strip only initialises them, y[row] = z ? z[row] : 0.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

__device__ __forceinline__ void coo_rows_init(const aijt_dev_strip &s, strip_range g, const y_out &o)
{
  const int64_t stride = g.nblk * blockDim.x;
  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    const aijt_int r = __ldg(s.rows + i);
    o.y[r]           = o.start(r);
  }
}

} // namespace aijt
