/*
   BCSR: a matrix of dense bs x bs blocks in natural order, as CSR's rows and values but with one column
   index per block (aijtplan.h): row r's slot j reads column bcol[j / bs] * bs + j % bs, where bcol is its
   block row's block columns.  A 3-D elasticity matrix (3 unknowns a node, 81 entries a row) then streams
   8 bytes of value and 4 / 9 of an index per entry, against CSR's 12.

   The rows run as CSR-vector's do (csr_vector.cuh): a group of TPR lanes per row, its lanes over the
   row's consecutive slots (coalesced), the group's partial sums added by shuffles within the group.  The
   bs rows of a block row read the same block columns, which the caches hand to all but the first; BS
   is a template parameter, so the division by it is a multiplication.
*/
#pragma once

#include "internal.cuh"

namespace aijt {

template <int BS, int TPR>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK) bcsr_kernel(const __grid_constant__ aijt_dev_strip s, const double *__restrict__ x, const double *z, double *y)
{
  constexpr int B    = AIJT_GATHER_BATCH;
  const unsigned lane = threadIdx.x % TPR;
  const unsigned mask = TPR == 32 ? AIJT_FULL_MASK : ((1u << (TPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(TPR - 1));
  const int64_t  ngroups = (int64_t)gridDim.x * (blockDim.x / TPR);

  for (int64_t i = (int64_t)blockIdx.x * (blockDim.x / TPR) + threadIdx.x / TPR; i < s.nrows; i += ngroups) {
    const int64_t begin = __ldg(s.ptr + i), end = __ldg(s.ptr + i + 1);
    const aijt_int *__restrict__ bcol = s.col + __ldg(s.ptr + (i - i % BS)) / (BS * BS);
    double sum = 0.0;
    for (int64_t j = lane; j < end - begin; j += B * TPR) { /* AIJT_GATHER_BATCH slots in flight, as gather_dot */
      double v[B], xv[B];
#pragma unroll
      for (int u = 0; u < B; u++) {
        const int64_t q = j + u * TPR;
        v[u]            = q < end - begin ? __ldcs(s.val + begin + q) : 0.0;
        xv[u]           = q < end - begin ? __ldg(x + (int64_t)__ldg(bcol + q / BS) * BS + q % BS) : 0.0;
      }
#pragma unroll
      for (int u = 0; u < B; u++)
        if (j + u * TPR < end - begin) sum += v[u] * xv[u];
    }
#pragma unroll
    for (int off = TPR / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, TPR);
    if (lane == 0) y[s.row0 + i] = row_start(z, s.row0 + (aijt_int)i) + sum;
  }
}

/* BCSR's launch: TPR lanes a row, one row per group. */
template <int BS>
cudaError_t launch_bcsr_bs(const aijt_dev_strip &s, unsigned block, const double *x, const double *z, double *y, cudaStream_t stream)
{
  const int64_t g = ((int64_t)s.nrows * s.tpr + block - 1) / block;
  if (g > 0x7fffffff) return cudaErrorInvalidValue;
  switch (s.tpr) {
#define AIJT_BCSR_CASE(T) \
  case T: \
    bcsr_kernel<BS, T><<<(unsigned)(g > 0 ? g : 1), block, 0, stream>>>(s, x, z, y); \
    break;
    AIJT_TPR_LIST(AIJT_BCSR_CASE)
#undef AIJT_BCSR_CASE
  default:
    return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

inline cudaError_t launch_bcsr(const aijt_dev_strip &s, unsigned block, const double *x, const double *z, double *y, cudaStream_t stream)
{
  switch (s.width) {
  case 2:
    return launch_bcsr_bs<2>(s, block, x, z, y, stream);
  case 3:
    return launch_bcsr_bs<3>(s, block, x, z, y, stream);
  case 4:
    return launch_bcsr_bs<4>(s, block, x, z, y, stream);
  case 5:
    return launch_bcsr_bs<5>(s, block, x, z, y, stream);
  case 6:
    return launch_bcsr_bs<6>(s, block, x, z, y, stream);
  case 7:
    return launch_bcsr_bs<7>(s, block, x, z, y, stream);
  case 8:
    return launch_bcsr_bs<8>(s, block, x, z, y, stream);
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace aijt
