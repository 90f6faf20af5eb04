/*
   Internal to the kernels (C++/CUDA only): the launchers each kernel file exports to dispatch.cu, and
   the device helpers more than one file needs.

   Division of labour: dispatch.cu validates parameters and computes every grid; a kernel file only
   defines its kernels and a thin launcher that applies the configuration it is given.  Launchers do
   not check errors: the dispatcher reads cudaGetLastError() after them.

   Loop indices and slot offsets are int64_t: with 32-bit aijt_int a strip may hold close to
   INT32_MAX slots, and "k += stride" past the end must not overflow.  Every kernel loops grid-stride,
   so any grid (the dispatcher caps it) is correct.  __launch_bounds__(AIJT_MAX_BLOCK) on every kernel
   keeps the register count low enough that any block the dispatcher allows can launch.
*/
#pragma once

#include "aijtkernels.h"

#include <cuda_runtime.h>

#define AIJT_MAX_BLOCK 1024
#define AIJT_FULL_MASK 0xffffffffu

/* The CSR-vector instantiations, in log2 order: the dispatch table and the explicit instantiations
   in csr_vector.cu both expand this one list. */
#define AIJT_TPR_LIST(X) X(1) X(2) X(4) X(8) X(16) X(32)

namespace aijt {

struct launch_cfg {
  dim3         grid;
  unsigned     block;
  cudaStream_t stream;
};

template <int TPR>
void launch_csr_vector(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y);

/* SPLIT = false: one block per row writes y = z + sum.  SPLIT = true: gridDim.y blocks per row each
   atomically add their part; y[rows] must already hold z (launch_rows_init first, same stream). */
template <bool SPLIT>
void launch_csr_long(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y);

void launch_ell(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y);

/* CHUNK > 0: the slice height is a compile-time constant (must equal s.chunk); 0: read s.chunk. */
template <int CHUNK>
void launch_sell(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y);

/* y[rows[i]] = z ? z[rows[i]] : 0 for the strip's rows (COO strips; LONG strips before SPLIT). */
void launch_rows_init(const launch_cfg &cfg, aijt_int nrows, const aijt_int *rows, const double *z, double *y);

void launch_coo_tail(const launch_cfg &cfg, const aijt_dev_coo &t, const double *x, double *y);

/* Sum over the whole warp; every lane gets the total.  All 32 lanes must call it. */
__device__ __forceinline__ double warp_sum(double v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(AIJT_FULL_MASK, v, off);
  return v;
}

/* The row's initial value: z[r], or 0 for y = A x.  A plain load, not __ldg: z may be y. */
__device__ __forceinline__ double row_start(const double *z, aijt_int r)
{
  return z ? z[r] : 0.0;
}

} // namespace aijt
