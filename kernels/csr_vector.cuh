/*
   CSR-vector: a group of TPR consecutive lanes of one warp per row (seed 003/004), TPR a power of two
   in [1, 32].  The lanes of a group read the row's slots with stride TPR, so a group reads contiguous
   memory, and reduce their partial sums with shuffles confined to the group.

   Groups never straddle warps: blocks are a multiple of 32 threads, and 32 is a multiple of TPR.  All
   lanes of a group share the row index, so they enter and leave the loop together, which is what the
   group mask of __shfl_down_sync requires; the other groups of the warp may be elsewhere.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <int TPR, bool SPLIT>
__device__ __forceinline__ void csr_vector_rows(const aijt_dev_strip &s, strip_range g, const x_source<SPLIT> &x, const y_out &o)
{
  static_assert(TPR >= 1 && TPR <= 32 && (TPR & (TPR - 1)) == 0, "TPR must be a power of two in [1, 32]");
  const aijt_int *__restrict__ rows = s.rows;
  const aijt_int *__restrict__ ptr  = s.ptr;
  const aijt_int *__restrict__ col  = s.col;
  const double *__restrict__ val    = s.val;
  const unsigned lane               = threadIdx.x % TPR; /* lane within the group */
  /* the group's lanes within the warp: TPR bits starting at the group's first lane */
  const unsigned mask           = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  const unsigned groups_per_blk = blockDim.x / TPR;
  const int64_t  ngroups        = g.nblk * groups_per_blk;

  for (int64_t i = g.blk * groups_per_blk + threadIdx.x / TPR; i < s.nrows; i += ngroups) {
    const int64_t begin = __ldg(ptr + i), end = __ldg(ptr + i + 1);
    double        sum   = gather_dot(col, val, begin + lane, end, TPR, x);
#pragma unroll
    for (int off = TPR / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, TPR);
    if (lane == 0) o.put(__ldg(rows + i), sum);
  }
}

} // namespace aijt
