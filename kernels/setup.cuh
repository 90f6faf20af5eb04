/*
   Internal to the kernels: what the set-up kernels share (the GPU build, build.cu, its skeleton,
   skeleton.cu, and the DIA value codes, dia_codes.cu), a thread per item over a grid of at most 65535
   blocks.  Not for products: their launches are sized in spmv.cu.
*/
#pragma once

#include "aijtkernels.h"

#include <cuda_runtime.h>
#include <stdint.h>

namespace aijt {

/* Device allocations on a stream (at most 16), freed when it goes out of scope: set-up code's scratch. */
struct workspace {
  void        *p[16] = {};
  int          n    = 0;
  cudaStream_t stream;

  explicit workspace(cudaStream_t s = 0) : stream(s) {}
  template <typename T>
  cudaError_t get(T **out, size_t count)
  {
    cudaError_t err = n < 16 ? cudaMallocAsync((void **)out, (count ? count : 1) * sizeof(T), stream) : cudaErrorMemoryAllocation;
    if (err == cudaSuccess) p[n++] = *out;
    return err;
  }
  ~workspace()
  {
    for (int i = 0; i < n; i++) (void)cudaFreeAsync(p[i], stream);
  }
};

constexpr unsigned SETUP_BLOCK = 256;

/* A grid of b blocks, at least 1 and at most 65535: the kernels loop grid-stride over the rest. */
inline unsigned capped_blocks(int64_t b)
{
  return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

/* Blocks for n items, one per thread, capped: the kernels loop grid-stride (GRID_STRIDE). */
inline unsigned setup_blocks(int64_t n)
{
  return capped_blocks((n + SETUP_BLOCK - 1) / SETUP_BLOCK);
}

/* The first of a row's entries [lo, hi) (columns sorted, as PETSc keeps them) whose column is at least c; hi if
   none.  PANEL's offsets and slots (skeleton.cu, build.cu): a row's part in a column panel is a run of entries. */
__device__ inline aijt_int first_at_least(const aijt_int *colidx, aijt_int lo, aijt_int hi, int64_t c)
{
  while (lo < hi) {
    const aijt_int mid = lo + (hi - lo) / 2;
    if (colidx[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The original row of strip row i: rows listed on the device, or natural order from the strip's first (STREAM). */
__device__ inline aijt_int strip_row(const aijt_dev_strip &S, int64_t i)
{
  return S.rows ? S.rows[i] : S.row0 + (aijt_int)i;
}

} // namespace aijt

#define GRID_STRIDE(i, n) for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (int64_t)(n); i += (int64_t)gridDim.x * blockDim.x)
/* Over i in [0, n), as block of nblocks, in steps that keep every lane of a warp in the loop (blockDim a
   multiple of 32), so that the warp's lanes can match their keys; lanes past n hold i >= n. */
#define WARP_STRIDE(i, n, block, nblocks) for (int64_t i = (int64_t)(block) * blockDim.x + threadIdx.x; i - (threadIdx.x & 31) < (int64_t)(n); i += (int64_t)(nblocks) * blockDim.x)

/* Return the first failed CUDA call's error (set-up code that returns a cudaError_t). */
#define TRY(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) return err_; \
  } while (0)
