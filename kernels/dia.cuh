/*
   DIA: one thread per row of a run of consecutive original rows; slot (d, i) at d * nrows + i holds row
   i's entry on diagonal ptr[d], whose column is row + ptr[d].  No column indices: 8 bytes per slot plus
   a 4-byte mask per row, against CSR's 12 bytes per entry, and every load is coalesced (values of a
   diagonal, x at consecutive columns, y at consecutive rows).

   The mask says which diagonals the row really has: a missing entry is skipped, never multiplied, so an
   Inf or NaN in x reaches y exactly as through CSR, and columns outside the matrix are never read.
   Diagonals ascend, so a row's terms are added in CSR's column order.  The value is loaded before the
   mask test so that the loads of a step are in flight together.

   With value codes (dia_codes.cu) a slot is one byte: 0 for no entry, else its value's place in the
   strip's table, which stays in L1.  The same terms in the same order: the same sum.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

__device__ __forceinline__ void dia_rows(const aijt_dev_strip &s, strip_range g, const double *__restrict__ x, const double *z, double *y)
{
  const double *__restrict__ val = s.val;
  const int64_t stride           = g.nblk * blockDim.x;

  if (s.code && __ldg(s.codes_state + AIJT_CODES_USED)) {
    const uint8_t *__restrict__ code  = s.code;
    const double *__restrict__ table  = s.table;
    for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
      const aijt_int r   = s.row0 + (aijt_int)i;
      double         sum = 0.0;
#pragma unroll 4
      for (aijt_int d = 0; d < s.width; d++) {
        const uint8_t c = __ldcs(code + (int64_t)d * s.nrows + i);
        if (c) sum += __ldg(table + c) * __ldg(x + r + __ldg(s.ptr + d));
      }
      y[r] = row_start(z, r) + sum;
    }
    return;
  }
  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    const aijt_int r   = s.row0 + (aijt_int)i;
    const uint32_t m   = __ldg(s.mask + i);
    double         sum = 0.0;
#pragma unroll 4
    for (aijt_int d = 0; d < s.width; d++) {
      const double v = __ldcs(val + (int64_t)d * s.nrows + i); /* read once: leave the L1 to x */
      if (m >> d & 1u) sum += v * __ldg(x + r + __ldg(s.ptr + d));
    }
    y[r] = row_start(z, r) + sum;
  }
}

} // namespace aijt
