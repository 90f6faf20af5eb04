/*
   Internal to the GPU build (build.cu, step 1): the sorted part of each row, its entries by column label, as a
   stable sort of (label, position) pairs makes it (the host's layouts, bit for bit).

   CUB's segmented sort did it all, and gave every row of more than 112 entries a block that radix-sorts a
   5888-entry tile, all 32 bits in six passes, whatever the row's length: rmat's 30 thousand rows of 113 to 3279
   entries took 4.0 ms that way, 16 of its products, in the first product after a conversion (H200,
   bench/results/2026-11-27-convert-cost), and its small rows 0.27 ms more.  Here each row goes to a sort sized
   to it, launched per strip for the sizes its longest row reaches:
     1 or 2 entries        a thread (row_sort_pair_kernel)
     3 to 32               a warp, each lane's entry placed by its rank
     33 to 256             a warp's merge sort (CUB's WarpMergeSort)
     257 to 4096           a block's merge sort in shared memory, in four tile sizes (CUB's BlockMergeSort)
     more than 4096        CUB's segmented sort over that strip's rows alone (LONG's few)
   Every one is stable, so the order is the one CUB's segmented sort gave.
*/
#pragma once

#include "setup.cuh"

#include <cub/block/block_merge_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

namespace aijt {

constexpr aijt_int ROW_SORT_MAX = 4096; /* the largest tile below; longer rows are CUB's */
constexpr aijt_int ROW_SORT_PAD = sizeof(aijt_int) == 8 ? (aijt_int)INT64_MAX : (aijt_int)INT32_MAX; /* after any label */

struct label_less {
  __device__ bool operator()(aijt_int a, aijt_int b) const { return a < b; }
};

/* What each sort reads and writes: row r's sorted part is [rowptr[r], segend[r]) of lab (labels by CSR position),
   sorted into the same places of skey (labels) and sidx (CSR positions). */
struct row_sort_args {
  aijt_dev_strip  S;
  const aijt_int *rowptr, *segend, *lab;
  aijt_int       *skey, *sidx;
};

/* Rows of 1 or 2 entries, a thread each. */
__global__ void row_sort_pair_kernel(row_sort_args a)
{
  GRID_STRIDE(i, a.S.nrows)
  {
    const aijt_int r = strip_row(a.S, i), start = a.rowptr[r], n = a.segend[r] - start;
    if (n < 1 || n > 2) continue;
    const aijt_int l0 = a.lab[start], l1 = n == 2 ? a.lab[start + 1] : 0, swap = n == 2 && l1 < l0;
    a.skey[start] = swap ? l1 : l0, a.sidx[start] = start + swap;
    if (n == 2) a.skey[start + 1] = swap ? l0 : l1, a.sidx[start + 1] = start + !swap;
  }
}

/* One row's sorted part by thread t of a merge sorter of ITEMS entries a thread. */
template <typename Sorter, int ITEMS>
__device__ void row_sort_merge(Sorter &sorter, int t, aijt_int start, aijt_int n, const row_sort_args &a)
{
  aijt_int key[ITEMS], pos[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    const aijt_int k = (aijt_int)t * ITEMS + j;
    key[j]           = k < n ? a.lab[start + k] : ROW_SORT_PAD;
    pos[j]           = start + k;
  }
  sorter.StableSort(key, pos, label_less(), (int)n, ROW_SORT_PAD);
#pragma unroll
  for (int j = 0; j < ITEMS; j++) {
    const aijt_int k = (aijt_int)t * ITEMS + j;
    if (k < n) a.skey[start + k] = key[j], a.sidx[start + k] = pos[j];
  }
}

/* Rows of 3 to 256 entries, a warp each: up to 32 each lane's entry goes after those before it in order (its rank
   among the row's pairs), past that a warp merge sort of 8 entries a lane. */
__global__ void __launch_bounds__(128) row_sort_warp_kernel(row_sort_args a)
{
  using sorter_t = cub::WarpMergeSort<aijt_int, 8, 32, aijt_int>;
  __shared__ typename sorter_t::TempStorage tmp[4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  sorter_t  sorter(tmp[warp]);

  for (int64_t i = (int64_t)blockIdx.x * 4 + warp; i < a.S.nrows; i += (int64_t)gridDim.x * 4) {
    const aijt_int r = strip_row(a.S, i), start = a.rowptr[r], n = a.segend[r] - start;
    if (n < 3 || n > 256) continue; /* the whole warp: one row */
    if (n <= 32) {
      const aijt_int mine = lane < n ? a.lab[start + lane] : ROW_SORT_PAD;
      aijt_int       rank = 0;
      for (int k = 0; k < n; k++) {
        const aijt_int other = __shfl_sync(0xffffffffu, mine, k);
        rank += other < mine || (other == mine && k < lane);
      }
      if (lane < n) a.skey[start + rank] = mine, a.sidx[start + rank] = start + lane;
    } else {
      row_sort_merge<sorter_t, 8>(sorter, lane, start, n, a);
      __syncwarp(); /* tmp is the next row's */
    }
  }
}

/* Rows of more than lo and at most THREADS x ITEMS entries, a block each. */
template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS) row_sort_block_kernel(row_sort_args a, aijt_int lo)
{
  using sorter_t = cub::BlockMergeSort<aijt_int, THREADS, ITEMS, aijt_int>;
  __shared__ typename sorter_t::TempStorage tmp;
  sorter_t sorter(tmp);

  for (int64_t i = blockIdx.x; i < a.S.nrows; i += gridDim.x) {
    const aijt_int r = strip_row(a.S, i), start = a.rowptr[r], n = a.segend[r] - start;
    if (n <= lo || n > THREADS * ITEMS) continue; /* the whole block: one row */
    row_sort_merge<sorter_t, ITEMS>(sorter, threadIdx.x, start, n, a);
    __syncthreads(); /* tmp is the next row's */
  }
}

/* CUB's segments for a strip's rows of more than ROW_SORT_MAX entries, by strip row; the others' are empty. */
__global__ void row_sort_long_segments_kernel(row_sort_args a, aijt_int *begin, aijt_int *end)
{
  GRID_STRIDE(i, a.S.nrows)
  {
    const aijt_int r = strip_row(a.S, i), start = a.rowptr[r], n = a.segend[r] - start;
    begin[i] = start, end[i] = n > ROW_SORT_MAX ? start + n : start;
  }
}

/* How many of a row's entries its slots hold in sorted order: all (CSR, LONG, SELL), the first width (ELL), none
   (COO, DIA: their columns are not relabelled). */
__host__ __device__ inline aijt_int sorted_part(aijt_format f, aijt_int len, aijt_int width)
{
  if (f == AIJT_CSR || f == AIJT_LONG || f == AIJT_SELL) return len;
  if (f == AIJT_ELL) return len < width ? len : width;
  return 0;
}

/* Every strip's sorted parts (plan P's strips on the device: strips).  idx holds each entry's CSR position (the
   values CUB's sort takes); nnz entries in all.  Launches only, on w's stream; scratch from w. */
inline cudaError_t row_sort(const aijt_plan *P, const aijt_dev_strip *strips, const aijt_int *rowptr, const aijt_int *segend, const aijt_int *lab, const aijt_int *idx, aijt_int nnz, aijt_int *skey, aijt_int *sidx, workspace &w)
{
  static const struct {
    aijt_int lo;
    void (*kernel)(row_sort_args, aijt_int);
    unsigned threads;
  } block_sorts[] = {{256, row_sort_block_kernel<64, 8>, 64}, {512, row_sort_block_kernel<128, 8>, 128}, {1024, row_sort_block_kernel<128, 16>, 128}, {2048, row_sort_block_kernel<256, 16>, 256}};
  aijt_int longest = 0, *begin = NULL, *end = NULL;
  void    *tmp     = NULL;
  size_t   bytes   = 0;

  for (int s = 0; s < P->nstrips; s++) {
    const row_sort_args a = {strips[s], rowptr, segend, lab, skey, sidx};
    const int64_t       n = strips[s].nrows;
    const aijt_int      m = sorted_part(strips[s].format, P->strips[s].max_len, strips[s].width);
    if (!n || m < 1) continue;
    row_sort_pair_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, w.stream>>>(a);
    if (m > 2) row_sort_warp_kernel<<<(unsigned)((n + 3) / 4 < 65535 ? (n + 3) / 4 : 65535), 128, 0, w.stream>>>(a);
    for (const auto &b : block_sorts)
      if (m > b.lo) b.kernel<<<(unsigned)(n < 65535 ? n : 65535), b.threads, 0, w.stream>>>(a, b.lo);
    if (m > ROW_SORT_MAX) { /* CUB's, below: its scratch for this strip */
      size_t need = 0;
      TRY(cub::DeviceSegmentedSort::StableSortPairs(NULL, need, lab, skey, idx, sidx, (int64_t)nnz, n, begin, end, w.stream));
      longest = n > longest ? (aijt_int)n : longest;
      bytes   = need > bytes ? need : bytes;
    }
  }
  TRY(cudaGetLastError());
  if (!longest) return cudaSuccess;
  TRY(w.get(&begin, (size_t)longest));
  TRY(w.get(&end, (size_t)longest));
  TRY(w.get((char **)&tmp, bytes));
  for (int s = 0; s < P->nstrips; s++) { /* one strip after another through begin and end, in the stream's order */
    const row_sort_args a    = {strips[s], rowptr, segend, lab, skey, sidx};
    size_t              need = bytes;
    if (!strips[s].nrows || sorted_part(strips[s].format, P->strips[s].max_len, strips[s].width) <= ROW_SORT_MAX) continue;
    row_sort_long_segments_kernel<<<setup_blocks(strips[s].nrows), SETUP_BLOCK, 0, w.stream>>>(a, begin, end);
    TRY(cub::DeviceSegmentedSort::StableSortPairs(tmp, need, lab, skey, idx, sidx, (int64_t)nnz, (int64_t)strips[s].nrows, begin, end, w.stream));
  }
  return cudaGetLastError();
}

} // namespace aijt
