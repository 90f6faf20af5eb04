/*
   BCSR: a matrix of dense bs x bs blocks in natural order, as CSR's rows and values but with one column
   index per block (aijtplan.h): row r's slot j reads column bcol[j / bs] * bs + j % bs, where bcol is its
   block row's block columns.  A 3-D elasticity matrix (3 unknowns a node, 81 entries a row) then streams
   8 bytes of value and 4 / 9 of an index per entry, against CSR's 12.

   A group of TPR lanes of one warp takes a block row, each lane whole blocks: it reads the block's column
   once, its bs values of x once, and its bs x bs values (row i's at i * len + the block's place in the
   row: the neighbouring lanes' blocks are the neighbouring bytes, which the L1 hands to the loads of the
   next columns), adding into a sum for each of the bs rows; the group then adds each row's sums by
   shuffles and its first lane writes the bs rows.  Entry by entry (a group per row, or per block row with
   a row test per slot) the kernel loaded the block's column and x bs times over and ran at 0.31-0.39 ns a
   row of 81 on an H100, against ELL's 0.33 for 12 bytes an entry (bench/results/2026-11-26-bcsr).
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <int BS, int TPR>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK) bcsr_kernel(const __grid_constant__ aijt_dev_strip s, const double *__restrict__ x, const y_out o)
{
  const unsigned lane = threadIdx.x % TPR;
  const unsigned mask = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  const int64_t  nbr = s.nrows / BS, ngroups = (int64_t)gridDim.x * (blockDim.x / TPR);

  for (int64_t b = (int64_t)blockIdx.x * (blockDim.x / TPR) + threadIdx.x / TPR; b < nbr; b += ngroups) {
    const int64_t begin = __ldg(s.ptr + b * BS), len = __ldg(s.ptr + b * BS + 1) - begin, nb = len / BS;
    const aijt_int *__restrict__ bcol = s.col + begin / (BS * BS);
    const double *__restrict__ val    = s.val + begin;
    double sum[BS];
#pragma unroll
    for (int i = 0; i < BS; i++) sum[i] = 0.0;
    for (int64_t t = lane; t < nb; t += TPR) {
      const int64_t c = (int64_t)__ldg(bcol + t) * BS;
      double        xv[BS];
#pragma unroll
      for (int j = 0; j < BS; j++) xv[j] = __ldg(x + c + j);
#pragma unroll
      for (int i = 0; i < BS; i++)
#pragma unroll
        for (int j = 0; j < BS; j++) sum[i] += __ldcs(val + i * len + t * BS + j) * xv[j];
    }
#pragma unroll
    for (int i = 0; i < BS; i++) {
#pragma unroll
      for (int off = TPR / 2; off > 0; off >>= 1) sum[i] += __shfl_down_sync(mask, sum[i], off, TPR);
    }
    if (lane == 0) {
#pragma unroll
      for (int i = 0; i < BS; i++) o.put(s.row0 + (aijt_int)(b * BS + i), sum[i]);
    }
  }
}

/* BCSR's launch: TPR lanes a block row, one block row per group. */
template <int BS>
cudaError_t launch_bcsr_bs(const aijt_dev_strip &s, unsigned block, const double *x, const y_out &o, cudaStream_t stream)
{
  const int64_t g = ((int64_t)(s.nrows / BS) * s.tpr + block - 1) / block;
  if (g > 0x7fffffff) return cudaErrorInvalidValue;
  switch (s.tpr) {
#define AIJT_BCSR_CASE(T) \
  case T: \
    bcsr_kernel<BS, T><<<(unsigned)(g > 0 ? g : 1), block, 0, stream>>>(s, x, o); \
    break;
    AIJT_TPR_LIST(AIJT_BCSR_CASE)
#undef AIJT_BCSR_CASE
  default:
    return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

/* The block sizes BCSR has a kernel for, 2 to AIJT_BCSR_MAX_BS. */
#define AIJT_BCSR_BS_LIST(X) X(2) X(3) X(4) X(5) X(6) X(7) X(8)
static_assert(AIJT_BCSR_MAX_BS == 8, "AIJT_BCSR_BS_LIST names every block size");

inline cudaError_t launch_bcsr(const aijt_dev_strip &s, unsigned block, const double *x, const y_out &o, cudaStream_t stream)
{
  switch (s.width) {
#define AIJT_BCSR_BS_CASE(BS) \
  case BS: \
    return launch_bcsr_bs<BS>(s, block, x, o, stream);
    AIJT_BCSR_BS_LIST(AIJT_BCSR_BS_CASE)
#undef AIJT_BCSR_BS_CASE
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace aijt
