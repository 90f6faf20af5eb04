/*
   Internal to the kernels (C++/CUDA only): the device helpers every format needs, and the contract
   between the one fused kernel (spmv.cu) and the formats' device functions (one header each).

   A format's device function runs its strip on a range of the grid: it is called by every thread of
   the blocks [first, first + nblk) of the launch with blk = blockIdx.x - first, and it loops
   grid-stride over its units of work (rows, row groups or row parts) with nblk blocks, so any nblk
   >= 1 is correct.  Whether a block enters a strip depends on blockIdx only, so functions that
   synchronize the block (LONG) see every thread of it.

   Loop indices and slot offsets are int64_t: with 32-bit aijt_int a strip may hold close to
   INT32_MAX slots, and "k += stride" past the end must not overflow.  __launch_bounds__(AIJT_MAX_BLOCK)
   on the kernels keeps the register count low enough that any block the dispatcher allows can launch.
*/
#pragma once

#include "aijtkernels.h"

#include <cuda_runtime.h>

#define AIJT_MAX_BLOCK 512 /* with 1024, ptxas spilled registers in the fused kernel */
#define AIJT_FULL_MASK 0xffffffffu

/* The CSR-vector instantiations, in log2 order. */
#define AIJT_TPR_LIST(X) X(1) X(2) X(4) X(8) X(16) X(32)

namespace aijt {

/* Where a strip runs in the launch: its block within its range, and the range's length. */
struct strip_range {
  int64_t blk, nblk;
};

/* Sum over the whole warp; every lane gets the total.  All 32 lanes must call it. */
__device__ __forceinline__ double warp_sum(double v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(AIJT_FULL_MASK, v, off);
  return v;
}

/* Sum over the block (blockDim.x a multiple of 32); the result is valid in thread 0.  Every thread of
   the block must call it (it synchronizes). */
__device__ __forceinline__ double block_sum(double v, double *shared32)
{
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  v = warp_sum(v);
  if (lane == 0) shared32[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < nwarps ? shared32[lane] : 0.0);
  __syncthreads(); /* shared32 is rewritten for the block's next row */
  return v;
}

/* Where the gathers find the value for a slot's column c.  SPLIT false: x[c].  SPLIT true, a plan with
   a column order: hot labels c < nhot read the small gathered copy xhot, which the caches keep, and the
   other labels nhot + (original column) read x itself (aijtkernels.h).  Plans without a column order
   run kernels without the comparison (fused_spmv_kernel's SPLIT). */
template <bool SPLIT>
struct x_source {
  const double *__restrict__ x, *__restrict__ hot;
  aijt_int nhot;

  __device__ __forceinline__ double operator()(aijt_int c) const
  {
    if (!SPLIT) return __ldg(x + c);
    return c < nhot ? __ldg(hot + c) : __ldg(x + (c - nhot));
  }
};

#ifndef AIJT_GATHER_BATCH
  /* slots per step of gather_dot (NVFLAGS_EXTRA=-DAIJT_GATHER_BATCH=8 to compare): 8 was slower than 4 on
     R-MAT and no faster elsewhere on an H100 (bench/results/2026-11-21-h100-gather-batch) */
  #define AIJT_GATHER_BATCH 4
#endif

/* sum of val[k] * x[col[k]] over k = first, first + stride, ... < end, AIJT_GATHER_BATCH slots per step
   with their loads issued before any product: that many independent gathers of x in flight per thread,
   where a plain loop (even unrolled) can wait on each col -> x chain in turn.  The last step is a
   partial one, its slots past end masked, not a loop of single slots: a row of 7 slots takes two steps,
   not one and three chains in turn.  The additions keep the order of k, so the result is the plain
   loop's.  Slots with col < 0 (ELL's and SELL's padding, and the masked slots of the last step) are
   skipped, never multiplied, so an Inf or NaN in x cannot reach a row through a padded zero, and x[-1]
   is never read.
   col and val are read once: streaming loads (__ldcs, evict first) leave the L1 to x, whose entries
   rows share (a power-law graph's popular columns). */
template <bool SPLIT>
__device__ __forceinline__ double gather_dot(const aijt_int *__restrict__ col, const double *__restrict__ val, int64_t first, int64_t end, int64_t stride, const x_source<SPLIT> &x)
{
  constexpr int B   = AIJT_GATHER_BATCH;
  double        sum = 0.0;
  for (int64_t k = first; k < end; k += B * stride) {
    aijt_int c[B];
    double   v[B], xv[B];
#pragma unroll
    for (int u = 0; u < B; u++) {
      const bool in = k + u * stride < end;
      c[u]          = in ? __ldcs(col + k + u * stride) : (aijt_int)-1;
      v[u]          = in ? __ldcs(val + k + u * stride) : 0.0;
    }
#pragma unroll
    for (int u = 0; u < B; u++) xv[u] = c[u] >= 0 ? x(c[u]) : 0.0;
#pragma unroll
    for (int u = 0; u < B; u++)
      if (c[u] >= 0) sum += v[u] * xv[u];
  }
  return sum;
}

/* Where a product's row sums go: y[r] = z[r] + scale * sum, z NULL for y = scale * A x.  scale is MatScale's
   factor that the slots' values do not hold yet (aijt_cuda_spmv); at 1 the store is z[r] + sum, bit for bit
   (1 * sum is exact, and a contracted fma(1, sum, z) rounds once as the addition does). */
struct y_out {
  const double *z; /* may equal y */
  double       *y;
  double        scale;

  /* the row's initial value: z[r] or 0.  A plain load, not __ldg: z may be y. */
  __device__ __forceinline__ double start(aijt_int r) const { return z ? z[r] : 0.0; }
  __device__ __forceinline__ void   put(aijt_int r, double sum) const { y[r] = start(r) + scale * sum; }
};

/* The COO tail, a launch of its own after the strips (coo_tail.cu). */
cudaError_t launch_coo_tail(dim3 grid, unsigned block, cudaStream_t stream, const aijt_dev_coo &t, const double *x, double scale, double *y);

} // namespace aijt
