/*
   CSR-vector: a group of TPR consecutive lanes of one warp per row (seed 003/004), TPR a power of two
   in [1, 32].  The lanes of a group read the row's slots with stride TPR, so a group reads contiguous
   memory, and reduce their partial sums with shuffles confined to the group.

   Groups never straddle warps: the dispatcher only launches blocks of a multiple of 32 threads, and
   32 is a multiple of TPR.  All lanes of a group share the row index, so they enter and leave the
   grid-stride loop together, which is what the group mask of __shfl_down_sync requires; the other
   groups of the warp may be elsewhere.
*/
#include "internal.cuh"

namespace aijt {

template <int TPR>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK)
  csr_vector_kernel(aijt_int nrows, const aijt_int *__restrict__ rows, const aijt_int *__restrict__ ptr, const aijt_int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  static_assert(TPR >= 1 && TPR <= 32 && (TPR & (TPR - 1)) == 0, "TPR must be a power of two in [1, 32]");
  const unsigned lane = threadIdx.x % TPR; /* lane within the group */
  /* the group's lanes within the warp: TPR bits starting at the group's first lane */
  const unsigned mask           = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  const unsigned groups_per_blk = blockDim.x / TPR;
  const int64_t  ngroups        = (int64_t)gridDim.x * groups_per_blk;

  for (int64_t i = (int64_t)blockIdx.x * groups_per_blk + threadIdx.x / TPR; i < nrows; i += ngroups) {
    const int64_t begin = __ldg(ptr + i), end = __ldg(ptr + i + 1);
    double        sum   = 0.0;
    /* unrolled so that several col -> x loads are in flight per lane */
#pragma unroll 4
    for (int64_t k = begin + lane; k < end; k += TPR) sum += __ldg(val + k) * __ldg(x + __ldg(col + k));
#pragma unroll
    for (int off = TPR / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, TPR);
    if (lane == 0) {
      const aijt_int r = __ldg(rows + i);
      y[r]             = row_start(z, r) + sum;
    }
  }
}

template <int TPR>
void launch_csr_vector(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y)
{
  csr_vector_kernel<TPR><<<cfg.grid, cfg.block, 0, cfg.stream>>>(s.nrows, s.rows, s.ptr, s.col, s.val, x, z, y);
}

#define AIJT_INSTANTIATE_CSR_VECTOR(T) template void launch_csr_vector<T>(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);
AIJT_TPR_LIST(AIJT_INSTANTIATE_CSR_VECTOR)
#undef AIJT_INSTANTIATE_CSR_VECTOR

} // namespace aijt
