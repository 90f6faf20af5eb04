/*
   DIA: one thread per row of a run of consecutive original rows; slot (d, i) at d * ld + i (ld: nrows,
   or the whole strip's in a window) holds row i's entry on diagonal ptr[d], whose column is
   row + ptr[d].  No column indices: 8 bytes per slot plus a 4-byte mask per row, against CSR's 12 bytes per entry, and every load is coalesced (values of a
   diagonal, x at consecutive columns, y at consecutive rows).

   The mask says which diagonals the row really has: a missing entry is skipped, never multiplied, so an
   Inf or NaN in x reaches y exactly as through CSR, and columns outside the matrix are never read.
   Diagonals ascend, so a row's terms are added in CSR's column order.  The value is loaded before the
   mask test so that the loads of a step are in flight together.

   With value codes (dia_codes.cu) a slot is one byte: 0 for no entry, else its value's place in the
   strip's table, which stays in L1.  A row's codes are one or two loads, so that its loads of x go
   out together.  The same terms in the same order: the same sum.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

/* The coded rows: W 8-byte words of codes a row (aijt_dia_code_words), one or two loads. */
template <int W>
__device__ __forceinline__ void dia_coded_rows(const aijt_dev_strip &s, strip_range g, const double *__restrict__ x, const y_out &o)
{
  const unsigned long long *__restrict__ code = (const unsigned long long *)s.code;
  const double *__restrict__ table            = s.table;
  const int64_t stride                        = g.nblk * blockDim.x;
  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    const aijt_int     r = s.row0 + (aijt_int)i;
    unsigned long long w[W];
    double             sum = 0.0;
    if (W == 1) w[0] = __ldcs(code + i);
#pragma unroll
    for (int h = 0; h < W / 2; h++) { /* 16-byte loads: a row's codes are read once */
      const ulonglong2 v = __ldcs((const ulonglong2 *)code + i * (W / 2) + h);
      w[2 * h] = v.x, w[2 * h + 1] = v.y;
    }
#pragma unroll
    for (int d = 0; d < 8 * W; d++) {
      const unsigned c = (unsigned)(w[d / 8] >> (8 * (d % 8))) & 0xffu; /* 0 past the width */
      if (c) sum += __ldg(table + c) * __ldg(x + r + __ldg(s.ptr + d));
    }
    o.put(r, sum);
  }
}

__device__ __forceinline__ void dia_rows(const aijt_dev_strip &s, strip_range g, const double *__restrict__ x, const y_out &o)
{
  const double *__restrict__ val = s.val;
  const int64_t stride           = g.nblk * blockDim.x;
  const int64_t ld               = s.ld ? s.ld : s.nrows;

  if (s.code && __ldg(s.codes_state + AIJT_CODES_USED)) {
    if (s.width <= 8) dia_coded_rows<1>(s, g, x, o);
    else if (s.width <= 16) dia_coded_rows<2>(s, g, x, o);
    else dia_coded_rows<4>(s, g, x, o);
    return;
  }
  for (int64_t i = g.blk * blockDim.x + threadIdx.x; i < s.nrows; i += stride) {
    const aijt_int r   = s.row0 + (aijt_int)i;
    const uint32_t m   = __ldg(s.mask + i);
    double         sum = 0.0;
#pragma unroll 4
    for (aijt_int d = 0; d < s.width; d++) {
      const double v = __ldcs(val + (int64_t)d * ld + i); /* read once: leave the L1 to x */
      if (m >> d & 1u) sum += v * __ldg(x + r + __ldg(s.ptr + d));
    }
    o.put(r, sum);
  }
}

} // namespace aijt
