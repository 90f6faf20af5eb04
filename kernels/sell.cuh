/*
   SELL-C-sigma: slices of C rows, each stored column-major with its own width; slot (l, j) of slice s
   is at ptr[s] + j * C + l.  One thread per row: the C threads of a slice read consecutive slots at
   every step, so with C = 32 (the planner's default) each warp is exactly one slice and reads fully
   coalesced.  Any C >= 1 is correct: the row -> (slice, lane) mapping does not depend on the block.
   Rows past nrows in the last slice are padding and are not visited.

   CHUNK > 0 makes C a compile-time constant (division and stride become shifts for powers of two);
   CHUNK == 0 reads C at run time.  The loop runs k from the row's first slot to the slice end with
   stride C, which avoids computing the slice width.  Padding (col < 0) is skipped (gather_dot).
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <int CHUNK, bool SPLIT>
__device__ __forceinline__ void sell_rows(const aijt_dev_strip &s, strip_range g, const x_source<SPLIT> &x, const y_out &o)
{
  const aijt_int *__restrict__ col = s.col;
  const double *__restrict__ val   = s.val;
  const aijt_int C                 = CHUNK > 0 ? CHUNK : s.chunk;
  const int64_t  stride            = g.nblk * blockDim.x;

  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    /* i < nrows fits aijt_int: divide in that width (a 64-bit division is several times dearer) */
    const aijt_int sl  = (aijt_int)i / C, l = (aijt_int)i - sl * C;
    const double   sum = gather_dot(col, val, (int64_t)__ldg(s.ptr + sl) + l, __ldg(s.ptr + sl + 1), C, x);
    o.put(__ldg(s.rows + i), sum);
  }
}

} // namespace aijt
