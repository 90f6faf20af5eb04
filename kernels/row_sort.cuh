/*
   Internal to the GPU build (build.cu, step 1): the sorted part of each row, its entries by column label, for
   the rows CUB's segmented sort serves badly.

   CUB's segmented sort gives a row longer than its sub-warp sorts take (112 entries of 32-bit keys and values)
   a block that radix-sorts a 5888-entry tile, all 32 bits in six passes, whatever the row's length.  rmat's
   30 thousand rows of 113 to 3279 entries took 4.0 ms that way, 16 of its products, in the first product after
   a conversion (H200, bench/results/2026-11-27-convert-cost).  Here the rows of more than ROW_SORT_CUB_SMALL
   and at most ROW_SORT_MAX entries are merge-sorted in registers and shared memory sized to them: a warp a row
   up to 256 entries, a block of 128 threads up to 1024, of 256 up to 4096.  A stable sort, as CUB's, so the
   order is the same bit for bit; the shorter and the longer rows stay CUB's (row_sort_cub_end).
*/
#pragma once

#include "setup.cuh"

#include <cub/block/block_merge_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

namespace aijt {

constexpr aijt_int ROW_SORT_CUB_SMALL = 112;  /* CUB's sub-warp sorts take rows up to this (Policy860, int pairs) */
constexpr aijt_int ROW_SORT_MAX       = 4096; /* the largest block sort below: 256 threads of 16 entries */
constexpr aijt_int ROW_SORT_PAD       = sizeof(aijt_int) == 8 ? (aijt_int)INT64_MAX : (aijt_int)INT32_MAX; /* after every label */

struct label_less {
  __device__ bool operator()(aijt_int a, aijt_int b) const { return a < b; }
};

/* Whether CUB sorts a sorted part of n entries (where its segment ends; otherwise the segment is made empty). */
__host__ __device__ inline bool row_sort_by_cub(aijt_int n)
{
  return n <= ROW_SORT_CUB_SMALL || n > ROW_SORT_MAX;
}

/* One row's sorted part [start, start + n) by thread t of a sorter of ITEMS entries a thread: its labels (lab,
   by CSR position) and positions, sorted into skey and sidx. */
template <typename Sorter, int ITEMS>
__device__ void row_sort_one(Sorter &sorter, int t, aijt_int start, aijt_int n, const aijt_int *lab, aijt_int *skey, aijt_int *sidx)
{
  aijt_int key[ITEMS], pos[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    const aijt_int k = (aijt_int)t * ITEMS + j;
    key[j]           = k < n ? lab[start + k] : ROW_SORT_PAD;
    pos[j]           = start + k;
  }
  sorter.StableSort(key, pos, label_less(), (int)n, ROW_SORT_PAD);
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    const aijt_int k = (aijt_int)t * ITEMS + j;
    if (k < n) skey[start + k] = key[j], sidx[start + k] = pos[j];
  }
}

/* A warp per strip row whose sorted part (segend) holds more than lo and at most 32 x ITEMS entries. */
template <int ITEMS>
__global__ void __launch_bounds__(128) row_sort_warp_kernel(aijt_dev_strip S, const aijt_int *rowptr, const aijt_int *segend, aijt_int lo, const aijt_int *lab, aijt_int *skey, aijt_int *sidx)
{
  using sorter_t = cub::WarpMergeSort<aijt_int, ITEMS, 32, aijt_int>;
  __shared__ typename sorter_t::TempStorage tmp[4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  sorter_t  sorter(tmp[warp]);

  for (int64_t i = (int64_t)blockIdx.x * 4 + warp; i < S.nrows; i += (int64_t)gridDim.x * 4) {
    const aijt_int r = strip_row(S, i), start = rowptr[r], n = segend[r] - start;
    if (n <= lo || n > 32 * ITEMS) continue; /* the whole warp: one row */
    row_sort_one<sorter_t, ITEMS>(sorter, lane, start, n, lab, skey, sidx);
    __syncwarp(); /* tmp is the next row's */
  }
}

/* A block of THREADS per strip row whose sorted part holds more than lo and at most THREADS x ITEMS entries. */
template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS) row_sort_block_kernel(aijt_dev_strip S, const aijt_int *rowptr, const aijt_int *segend, aijt_int lo, const aijt_int *lab, aijt_int *skey, aijt_int *sidx)
{
  using sorter_t = cub::BlockMergeSort<aijt_int, THREADS, ITEMS, aijt_int>;
  __shared__ typename sorter_t::TempStorage tmp;
  sorter_t sorter(tmp);

  for (int64_t i = blockIdx.x; i < S.nrows; i += gridDim.x) {
    const aijt_int r = strip_row(S, i), start = rowptr[r], n = segend[r] - start;
    if (n <= lo || n > THREADS * ITEMS) continue; /* the whole block: one row */
    row_sort_one<sorter_t, ITEMS>(sorter, threadIdx.x, start, n, lab, skey, sidx);
    __syncthreads(); /* tmp is the next row's */
  }
}

/* The sorts of a strip whose longest row has max_len entries (its sorted part at most that), each launched only
   where some row may be its own. */
inline cudaError_t row_sort_strip(const aijt_dev_strip &S, aijt_int max_len, const aijt_int *rowptr, const aijt_int *segend, const aijt_int *lab, aijt_int *skey, aijt_int *sidx, cudaStream_t stream)
{
  const int64_t  n      = S.nrows;
  const unsigned warps  = (unsigned)((n + 3) / 4 < 65535 ? (n + 3) / 4 : 65535);
  const unsigned blocks = (unsigned)(n < 65535 ? n : 65535);

  if (!n || max_len <= ROW_SORT_CUB_SMALL) return cudaSuccess;
  row_sort_warp_kernel<8><<<warps, 128, 0, stream>>>(S, rowptr, segend, ROW_SORT_CUB_SMALL, lab, skey, sidx);
  if (max_len > 256) row_sort_block_kernel<128, 8><<<blocks, 128, 0, stream>>>(S, rowptr, segend, 256, lab, skey, sidx);
  if (max_len > 1024) row_sort_block_kernel<256, 16><<<blocks, 256, 0, stream>>>(S, rowptr, segend, 1024, lab, skey, sidx);
  return cudaGetLastError();
}

} // namespace aijt
