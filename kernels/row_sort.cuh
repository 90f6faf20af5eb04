/*
   Internal to the GPU build (build.cu, step 1): the sorted part of each row, its entries by column label, as a
   stable sort of (label, position) pairs makes it (the host's layouts, bit for bit).

   CUB's segmented sort did it all, and gave every row of more than 112 entries (its sub-warp sorts' limit for
   32-bit keys and values) a block that radix-sorts a 5888-entry tile, all 32 bits in six passes, whatever the
   row's length: rmat's rows of more than 112 entries (at least 27,896 of them, up to 62,104 entries) took 4.05 ms
   that way, 16 of its products, in the first product after a conversion (H200,
   bench/results/2026-11-27-convert-cost).  Those rows, up to 4096
   entries, now go to merge sorts sized to them, launched per strip for the sizes its longest row reaches:
     113 to 256      a warp (CUB's WarpMergeSort, 8 entries a lane)
     257 to 4096     a block, in shared memory, in four tile sizes (CUB's BlockMergeSort)
   CUB's segmented sort keeps the shorter rows, which its sub-warp sorts take well (on rmat a warp a row, by rank up
   to 32 entries, took 0.64 ms for its rows of 3 to 256 entries, against CUB's 0.27 for those up to 112 and a warp
   merge sort's 0.15 for the rest), and the longer ones, with their segments emptied of the rows sorted here.
   Every sort is stable, so the order is the one CUB alone gave (bench/results/2026-11-27-row-sort).
*/
#pragma once

#include "setup.cuh"

#include <cub/block/block_merge_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

namespace aijt {

constexpr aijt_int ROW_SORT_CUB_SMALL = 112;  /* CUB's sub-warp sorts take rows up to this (Policy860, int pairs) */
constexpr aijt_int ROW_SORT_MAX       = 4096; /* the largest tile below; longer rows are CUB's */
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

/* Whether CUB sorts a sorted part of n entries (otherwise its segment is made empty). */
__host__ __device__ inline bool row_sort_by_cub(aijt_int n)
{
  return n <= ROW_SORT_CUB_SMALL || n > ROW_SORT_MAX;
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

/* Rows of more than ROW_SORT_CUB_SMALL and at most 256 entries, a warp each. */
__global__ void __launch_bounds__(128) row_sort_warp_kernel(row_sort_args a)
{
  using sorter_t = cub::WarpMergeSort<aijt_int, 8, 32, aijt_int>;
  __shared__ typename sorter_t::TempStorage tmp[4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  sorter_t  sorter(tmp[warp]);

  for (int64_t i = (int64_t)blockIdx.x * 4 + warp; i < a.S.nrows; i += (int64_t)gridDim.x * 4) {
    const aijt_int r = strip_row(a.S, i), start = a.rowptr[r], n = a.segend[r] - start;
    if (n <= ROW_SORT_CUB_SMALL || n > 256) continue; /* the whole warp: one row */
    row_sort_merge<sorter_t, 8>(sorter, lane, start, n, a);
    __syncwarp(); /* tmp is the next row's */
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

/* How many of a row's entries its slots hold in sorted order: all (CSR, LONG, SELL), the first width (ELL), none
   (COO, DIA: their columns are not relabelled). */
__host__ __device__ inline aijt_int sorted_part(aijt_format f, aijt_int len, aijt_int width)
{
  if (f == AIJT_CSR || f == AIJT_LONG || f == AIJT_SELL) return len;
  if (f == AIJT_ELL) return len < width ? len : width;
  return 0;
}

/* Every strip's sorted parts (plan P's strips on the device: strips).  idx holds each entry's CSR position (the
   values CUB's sort takes), nnz entries in nrows rows; cubend, CUB's segments' ends by row (segment_kernel).  Launches
   only, on w's stream; scratch from w. */
inline cudaError_t row_sort(const aijt_plan *P, const aijt_dev_strip *strips, const aijt_int *rowptr, const aijt_int *segend, const aijt_int *cubend, const aijt_int *lab, const aijt_int *idx, aijt_int nrows, aijt_int nnz, aijt_int *skey, aijt_int *sidx, workspace &w)
{
  static const struct {
    aijt_int lo;
    void (*kernel)(row_sort_args, aijt_int);
    unsigned threads;
  } block_sorts[] = {{256, row_sort_block_kernel<64, 8>, 64}, {512, row_sort_block_kernel<128, 8>, 128}, {1024, row_sort_block_kernel<128, 16>, 128}, {2048, row_sort_block_kernel<256, 16>, 256}};
  void  *tmp  = NULL;
  size_t need = 0;

  for (int s = 0; s < P->nstrips; s++) {
    const row_sort_args a = {strips[s], rowptr, segend, lab, skey, sidx};
    const int64_t       n = strips[s].nrows;
    const aijt_int      m = sorted_part(strips[s].format, P->strips[s].max_len, strips[s].width);
    if (!n || m <= ROW_SORT_CUB_SMALL) continue;
    row_sort_warp_kernel<<<capped_blocks((n + 3) / 4), 128, 0, w.stream>>>(a); /* 4 rows a block */
    for (const auto &b : block_sorts)
      if (m > b.lo) b.kernel<<<capped_blocks(n), b.threads, 0, w.stream>>>(a, b.lo);
  }
  TRY(cudaGetLastError());
  TRY(cub::DeviceSegmentedSort::StableSortPairs(NULL, need, lab, skey, idx, sidx, (int64_t)nnz, (int64_t)nrows, rowptr, cubend, w.stream));
  TRY(w.get((char **)&tmp, need));
  return cub::DeviceSegmentedSort::StableSortPairs(tmp, need, lab, skey, idx, sidx, (int64_t)nnz, (int64_t)nrows, rowptr, cubend, w.stream);
}

} // namespace aijt
