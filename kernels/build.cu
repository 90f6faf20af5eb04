/*
   The GPU build: the slots of a skeleton (aijt_layouts_skeleton) filled on the device from the CSR,
   bit for bit the layouts aijt_layouts_build makes on the host (the kernel test compares every array).

   On the host, building the slots meant a pass over every entry into freshly allocated memory, and with
   a column order a sort of every row by label: 0.7 s (lap3d), 1.4 s (elast), 2.8 s (rmat) more than
   aijcusparse's setup on the benchmark machine (bench/results/2026-11-21-h100-colhot/raw4).  Here the
   host uploads the CSR, as aijcusparse does, and the device does the rest:

   1. With a column order, each row's entries in the order the layouts keep them: by label (hot columns
      by degree, then the others), a stable sort of each row's (label, position) pairs (row_sort.cuh: a
      sort sized to each row).  The sorted part of
      a row is what its strip's slots hold (the whole row, an ELL row's first width entries, nothing for
      COO); entries past it keep the CSR's order, as on the host.
   2. Where each row's tail entries go: the tail holds the entries ELL leaves out and COO rows, in plan
      order, so an exclusive scan of the counts by plan position gives every row its first place.
   3. One kernel per strip writes its slots: col (the label), src (the position in the CSR values, which
      refreshes read), val; padding -1, -1, 0.0.  CSR, STREAM and PANEL rows a warp each (their slots are
      consecutive, PANEL's within each panel); LONG rows a block per chunk of a row; ELL and short SELL
      rows a thread each (consecutive rows' slots are neighbours); long SELL rows a block per slice and DIA
      a block per 128 rows, through shared memory, so that both their reads and their writes are whole.

   Setup code, not the product: it allocates its workspace on the stream and waits once, for the
   pattern check of DIA, LONG, STREAM, PANEL and BCSR strips.
*/
#include "aijtblockrow.h"
#include "aijtkernels.h"
#include "row_sort.cuh"
#include "setup.cuh"
#include "slot_source.cuh"

#include <cub/device/device_scan.cuh>
#include <limits.h>

namespace {

using aijt::first_at_least;
using aijt::setup_blocks;
using aijt::sorted_part;
using aijt::strip_row;
using aijt::SETUP_BLOCK;
using aijt::workspace;

/* aijt_col_label on the device: hot columns by degree position, every other one nhot + c. */
__device__ aijt_int label_of(const aijt_int *col_pos, aijt_int nhot, aijt_int c)
{
  return col_pos[c] < nhot ? col_pos[c] : nhot + c;
}

/* Where entry j of row r comes from in layout order: the sorted pairs below seg (the row's part its
   slots hold, with a column order), the CSR itself past it, its column as a label. */
struct entries {
  const aijt_int *rowptr, *colidx, *col_pos, *skey, *sidx;
  aijt_int        nhot;

  __device__ void get(aijt_int start, aijt_int seg, aijt_int j, aijt_int &col, aijt_int &src) const
  {
    const aijt_int k = start + j;
    if (j < seg) {
      col = skey[k];
      src = sidx[k];
      return;
    }
    src = k;
    col = colidx[k];
    if (col_pos) col = label_of(col_pos, nhot, col);
  }
};

__global__ void label_kernel(entries e, aijt_int nnz, aijt_int *lab, aijt_int *idx)
{
  GRID_STRIDE(k, nnz)
  {
    lab[k] = label_of(e.col_pos, e.nhot, e.colidx[k]);
    idx[k] = (aijt_int)k;
  }
}

/* Per strip row: the end of its sorted part (segend, by original row), the end of CUB's segment for it (cubend: the
   same, or empty where row_sort.cuh's own sorts take the row) and its tail count (by plan position: ELL's entries
   past width, every entry of a COO row). */
__global__ void segment_kernel(aijt_dev_strip S, aijt_int begin, const aijt_int *rowptr, aijt_int *segend, aijt_int *cubend, aijt_int *tail_count)
{
  GRID_STRIDE(i, S.nrows)
  {
    const aijt_int r = strip_row(S, i), len = rowptr[r + 1] - rowptr[r], seg = sorted_part(S.format, len, S.width);
    if (segend) {
      segend[r] = rowptr[r] + seg;
      cubend[r] = rowptr[r] + (aijt::row_sort_by_cub(seg) ? seg : 0);
    }
    if (tail_count) tail_count[begin + i] = S.format == AIJT_ELL ? (len > S.width ? len - S.width : 0) : S.format == AIJT_COO ? len : 0;
  }
}

/* A slot's column, source and value.  A strip whose slots are the CSR's values themselves (S.val == values, the
   caller's choice for STREAM and BCSR in natural order) has no refill map (src NULL) and no value to copy. */
__device__ void put_slot(const aijt_dev_strip &S, aijt_int *src, int64_t slot, aijt_int c, aijt_int k, const double *values)
{
  double *const v           = (double *)S.val + slot;
  ((aijt_int *)S.col)[slot] = c;
  if (src) src[slot] = k;
  if (v != values + k) *v = k < 0 ? 0.0 : values[k];
}

__device__ aijt_int seg_of(const aijt_int *segend, const aijt_int *rowptr, aijt_int r)
{
  return segend ? segend[r] - rowptr[r] : 0;
}

/* CSR and STREAM: a warp per row, its lanes over the row's consecutive slots.  A STREAM row longer
   than the strip's width (the launch's shared memory) means another pattern: *bad. */
__global__ void fill_csr_kernel(aijt_dev_strip S, aijt_int *src, entries e, const aijt_int *segend, const double *values, int *bad)
{
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, nwarps = (int64_t)gridDim.x * blockDim.x / 32;
  const int     lane = threadIdx.x % 32;
  for (int64_t i = warp; i < S.nrows; i += nwarps) {
    const aijt_int r = strip_row(S, i), start = e.rowptr[r], len = e.rowptr[r + 1] - start, seg = seg_of(segend, e.rowptr, r);
    if (S.format == AIJT_STREAM && len > S.width) *bad = 1;
    for (aijt_int j = lane; j < len; j += 32) {
      aijt_int c, k;
      e.get(start, seg, j, c, k);
      put_slot(S, src, (int64_t)S.ptr[i] + j, c, k, values);
    }
  }
}

/* LONG: a few long rows (circuit's 8 hub rows of up to 73,698 entries), where a warp per row made each warp walk
   tens of thousands of entries one load after another: 1.7 ms for circuit's 469k, 43 of its products, in set-up
   (bench/results/2026-11-27-setup-from-aij).  Here a block takes LONG_FILL_CHUNK consecutive entries of one row:
   blockIdx.x the chunk, blockIdx.y the row (striding by gridDim.y past 65535 rows).  A row whose length is not
   its slots' count means another pattern: *bad, and no slot written. */
#define LONG_FILL_CHUNK 2048
__global__ void fill_long_kernel(aijt_dev_strip S, aijt_int *src, entries e, const aijt_int *segend, const double *values, int *bad)
{
  for (int64_t i = blockIdx.y; i < S.nrows; i += gridDim.y) {
    const aijt_int r = strip_row(S, i), start = e.rowptr[r], len = e.rowptr[r + 1] - start, seg = seg_of(segend, e.rowptr, r);
    if (len != S.ptr[i + 1] - S.ptr[i]) {
      *bad = 1;
      continue;
    }
    const int64_t  lo = (int64_t)blockIdx.x * LONG_FILL_CHUNK, hi = lo + LONG_FILL_CHUNK < len ? lo + LONG_FILL_CHUNK : len;
    for (int64_t j = lo + threadIdx.x; j < hi; j += blockDim.x) {
      aijt_int c, k;
      e.get(start, seg, (aijt_int)j, c, k);
      put_slot(S, src, (int64_t)S.ptr[i] + j, c, k, values);
    }
  }
}

/* PANEL: a warp per row, its lanes over the row's entries.  Entry k, column c, lies in panel p = c / width,
   at slot ptr[p * nrows + i] + (k - the row's first entry in that panel): a row's columns are sorted, so its
   part in a panel is a run of them (plan/layout.c copies the runs).  Columns relative to the panel.  A slot
   past the row's part in that panel (the offsets of another pattern) means *bad. */
__global__ void fill_panel_kernel(aijt_dev_strip S, aijt_int *src, const aijt_int *rowptr, const aijt_int *colidx, const double *values, int *bad)
{
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, nwarps = (int64_t)gridDim.x * blockDim.x / 32;
  const int     lane = threadIdx.x % 32;
  for (int64_t i = warp; i < S.nrows; i += nwarps) {
    const aijt_int r = strip_row(S, i), start = rowptr[r], end = rowptr[r + 1];
    for (aijt_int k = start + lane; k < end; k += 32) {
      const aijt_int c = colidx[k], p = c / S.width;
      const int64_t  q = (int64_t)p * S.nrows + i, slot = (int64_t)S.ptr[q] + (k - first_at_least(colidx, start, end, (int64_t)p * S.width));
      if (slot >= S.ptr[q + 1]) {
        *bad = 1;
        continue;
      }
      put_slot(S, src, slot, c - p * S.width, k, values);
    }
  }
}

/* BCSR: a warp per row, CSR's slots (values and their places, the whole matrix in natural order), and the
   first row of each block row writes its block columns.  A row not of whole blocks (aijtblockrow.h) means another
   pattern: *bad. */
__global__ void fill_bcsr_kernel(aijt_dev_strip S, aijt_int *src, const aijt_int *rowptr, const aijt_int *colidx, const double *values, int *bad)
{
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, nwarps = (int64_t)gridDim.x * blockDim.x / 32;
  const int     lane = threadIdx.x % 32, bs = S.width;
  for (int64_t i = warp; i < S.nrows; i += nwarps) {
    const aijt_int r = strip_row(S, i), r0 = r - r % bs, start = rowptr[r], len = rowptr[r + 1] - start;
    if (!aijt_block_row_length_ok(rowptr, r, bs) || (int64_t)S.ptr[i] != start) {
      if (lane == 0) *bad = 1;
      continue;
    }
    for (aijt_int j = lane; j < len; j += 32) {
      if (!aijt_block_entry_ok(rowptr, colidx, r, bs, j)) *bad = 1;
      if (src) src[start + j] = start + j; /* no map and no copy where the slots are the values (put_slot) */
      if (S.val != values) ((double *)S.val)[start + j] = values[start + j];
      if (r == r0 && j % bs == 0) ((aijt_int *)S.col)[start / (bs * bs) + j / bs] = colidx[start + j] / bs;
    }
  }
}

/* ELL (and COO, width 0): slot j * nrows + i for the first width entries, padding after the row's
   end; the entries past width go to the tail at the row's place. */
__global__ void fill_ell_kernel(aijt_dev_strip S, aijt_int begin, aijt_int *src, entries e, const aijt_int *segend, const double *values, aijt_dev_coo T, aijt_int *tail_src, const aijt_int *tail_at)
{
  GRID_STRIDE(i, S.nrows)
  {
    const aijt_int r = S.rows[i], start = e.rowptr[r], len = e.rowptr[r + 1] - start, seg = seg_of(segend, e.rowptr, r);
    for (aijt_int j = 0; j < S.width; j++) {
      aijt_int c = -1, k = -1;
      if (j < len) e.get(start, seg, j, c, k);
      put_slot(S, src, (int64_t)j * S.nrows + i, c, k, values);
    }
    for (aijt_int j = S.width; j < len; j++) {
      const aijt_int t = tail_at[begin + i] + (j - S.width);
      aijt_int       c, k;
      e.get(start, seg, j, c, k);
      ((aijt_int *)T.row)[t] = r;
      ((aijt_int *)T.col)[t] = c;
      ((double *)T.val)[t]   = values[k];
      tail_src[t]            = k;
    }
  }
}

/* SELL: strip row i is lane i % C of slice i / C, slot ptr[slice] + j * C + lane; the last slice's
   lanes past the strip's rows are padding.  A thread per strip row where rows are short (circuit's of at most
   13 entries: a warp per row left most lanes idle and took 2-3x as long), or slices too tall for the tiles below. */
__global__ void fill_sell_kernel(aijt_dev_strip S, aijt_int *src, entries e, const aijt_int *segend, const double *values)
{
  const int64_t nslices = (S.nrows + S.chunk - 1) / S.chunk;
  GRID_STRIDE(i, nslices * S.chunk)
  {
    const int64_t  s = i / S.chunk, l = i % S.chunk, w = (S.ptr[s + 1] - S.ptr[s]) / S.chunk;
    const aijt_int r = i < S.nrows ? S.rows[i] : -1, start = r < 0 ? 0 : e.rowptr[r], len = r < 0 ? 0 : e.rowptr[r + 1] - start;
    const aijt_int seg = r < 0 ? 0 : seg_of(segend, e.rowptr, r);
    for (int64_t j = 0; j < w; j++) {
      aijt_int c = -1, k = -1;
      if (j < len) e.get(start, seg, (aijt_int)j, c, k);
      put_slot(S, src, S.ptr[s] + j * S.chunk + l, c, k, values);
    }
  }
}

/* A block per slice where rows are long, through shared memory 32 slots of each row at a time: a warp reads a row's
   next 32 entries (consecutive in the CSR), then consecutive threads write consecutive slots (for one j, the slice's
   C rows' slots are neighbours).  A thread per row walked its own row, neighbouring threads in different rows: 1.8
   ms for R-MAT's strip of 19.8M entries (rows up to 398) on an H100, 6 of its products; a warp per row, its reads
   whole but its writes C slots apart, 1.2 ms (bench/results/2026-11-27-setup-from-aij).  Slices of up to
   SELL_TILE_ROWS rows. */
#define SELL_TILE_J    32
#define SELL_TILE_ROWS 32
__global__ void fill_sell_tile_kernel(aijt_dev_strip S, aijt_int *src, entries e, const aijt_int *segend, const double *values)
{
  __shared__ aijt_int tc[SELL_TILE_ROWS][SELL_TILE_J + 1], tk[SELL_TILE_ROWS][SELL_TILE_J + 1]; /* + 1: a column's reads */
  __shared__ double   tv[SELL_TILE_ROWS][SELL_TILE_J + 1];                                  /* on different banks */
  __shared__ aijt_int start[SELL_TILE_ROWS], len[SELL_TILE_ROWS], seg[SELL_TILE_ROWS];
  const int           C = (int)S.chunk, lane = (int)(threadIdx.x % 32), warp = (int)(threadIdx.x / 32), nwarps = (int)(blockDim.x / 32);
  const int64_t       s = blockIdx.x, base = S.ptr[s], w = (S.ptr[s + 1] - base) / C;

  for (int l = threadIdx.x; l < C; l += blockDim.x) {
    const int64_t  i = s * C + l;
    const aijt_int r = i < S.nrows ? S.rows[i] : -1;
    start[l]         = r < 0 ? 0 : e.rowptr[r];
    len[l]           = r < 0 ? 0 : e.rowptr[r + 1] - start[l];
    seg[l]           = r < 0 ? 0 : seg_of(segend, e.rowptr, r);
  }
  __syncthreads();
  for (int64_t j0 = 0; j0 < w; j0 += SELL_TILE_J) {
    for (int l = warp; l < C; l += nwarps) {
      const int64_t j = j0 + lane;
      aijt_int      c = -1, k = -1;
      if (j < len[l]) e.get(start[l], seg[l], (aijt_int)j, c, k);
      tc[l][lane] = c;
      tk[l][lane] = k;
      tv[l][lane] = k < 0 ? 0.0 : values[k];
    }
    __syncthreads();
    const int n = w - j0 < SELL_TILE_J ? (int)(w - j0) : SELL_TILE_J;
    for (int q = threadIdx.x; q < n * C; q += blockDim.x) {
      const int     jj = q / C, l = q % C;
      const int64_t slot = base + (j0 + jj) * C + l;
      ((aijt_int *)S.col)[slot] = tc[l][jj];
      if (src) src[slot] = tk[l][jj]; /* none where its refills read the rows' first places (slot_source.cuh) */
      ((double *)S.val)[slot]   = tv[l][jj];
    }
    __syncthreads();
  }
}

/* DIA: row i's entries meet the ascending diagonals (S.ptr holds the offsets); slot d * nrows + i,
   mask bit d where the row has one.  An entry off them means another pattern: *bad.  So does, for a strip
   refilled through its rows' first places (S.row_start, no map), a row whose entries are not its diagonals' one for one in
   column order (PETSc's AIJ keeps each row's columns sorted and distinct).
   A block takes DIA_FILL_ROWS consecutive rows, whose entries are consecutive in the CSR: its threads read
   them in order (each finds its row and diagonal by bisection in shared memory) and mark each (diagonal,
   row) with its entry, then write the slots diagonal by diagonal, consecutive rows by consecutive threads.  A
   thread per row had read its own row's entries, 27 loads apart between neighbouring threads on box27, and
   took 0.7-1.5 ms for box27's 26M entries (bench/results/2026-11-27-setup-from-aij). */
#define DIA_FILL_ROWS 128
__global__ void fill_dia_kernel(aijt_dev_strip S, aijt_int *src, const aijt_int *rowptr, const aijt_int *colidx, const double *values, int *bad)
{
  __shared__ aijt_int off[32];                     /* the diagonals' offsets (S.width <= 32) */
  __shared__ aijt_int first[DIA_FILL_ROWS + 1];    /* the block's rows' first entries */
  __shared__ aijt_int from[32 * DIA_FILL_ROWS];    /* [d * DIA_FILL_ROWS + t]: row t's entry on diagonal d, -1: none */
  const int64_t       i0 = (int64_t)blockIdx.x * DIA_FILL_ROWS;
  const int           n = (int)(S.nrows - i0 < DIA_FILL_ROWS ? S.nrows - i0 : DIA_FILL_ROWS), w = (int)S.width;

  for (int t = threadIdx.x; t < w; t += blockDim.x) off[t] = S.ptr[t];
  for (int t = threadIdx.x; t <= n; t += blockDim.x) first[t] = rowptr[S.row0 + i0 + t];
  for (int q = threadIdx.x; q < w * DIA_FILL_ROWS; q += blockDim.x) from[q] = -1;
  __syncthreads();
  for (aijt_int k = first[0] + (aijt_int)threadIdx.x; k < first[n]; k += (aijt_int)blockDim.x) {
    int lo = 0, hi = n - 1; /* the row: the last t with first[t] <= k */
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (first[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    const aijt_int o = colidx[k] - (S.row0 + (aijt_int)(i0 + lo));
    int            a = 0, b = w; /* the diagonal: the first d with off[d] >= o */
    while (a < b) {
      const int mid = (a + b) / 2;
      if (off[mid] < o) a = mid + 1;
      else b = mid;
    }
    if (a == w || off[a] != o) *bad = 1;
    else if (sizeof(aijt_int) == 4) atomicMax((int *)&from[a * DIA_FILL_ROWS + lo], (int)k); /* a repeated column: the last one, as on the host */
    else atomicMax((long long *)&from[a * DIA_FILL_ROWS + lo], (long long)k);
  }
  __syncthreads();
  for (int q = threadIdx.x; q < w * n; q += blockDim.x) {
    const int      d = q / n, t = q % n;
    const aijt_int f = from[d * DIA_FILL_ROWS + t];
    const int64_t  slot = (int64_t)d * S.nrows + i0 + t;
    if (src) src[slot] = f; /* none where its refills read the rows' offsets (slot_source.cuh) */
    ((double *)S.val)[slot] = f < 0 ? 0.0 : values[f];
  }
  for (int t = threadIdx.x; t < n; t += blockDim.x) {
    uint32_t m = 0;
    aijt_int c = 0; /* the row's entries met so far */
    for (int d = 0; d < w; d++) {
      const aijt_int f = from[d * DIA_FILL_ROWS + t];
      if (f < 0) continue;
      m |= 1u << d;
      if (S.row_start && f != first[t] + c) *bad = 1; /* no map: its refills take entry c of the row here (slot_source.cuh) */
      c++;
    }
    if (S.row_start && c != first[t + 1] - first[t]) *bad = 1; /* a repeated column */
    ((uint32_t *)S.mask)[i0 + t] = m;
  }
}

/* Slots from their sources, up to REFILL_FUSED slot arrays in one launch: array a takes blocks [first[a],
   first[a + 1]).  A plan of several strips and a tail had a launch for each, about 3 us of the host's and the GPU's
   time apiece: on a small matrix of 5-7 strips more than its product (MatScale twice and a product, ckt11752_dc_1
   and soc-Slashdot0902 at 0.59-0.64x aijcusparse on an H200, bench/results/2026-11-26-panel-gpu-build).  An array is
   refilled through its map (padding, src < 0: 0.0) or, a strip without one (slot_source.cuh), by its rows: each
   strip row's entries are consecutive in the CSR's values from row_start[i] on, and its slots hold them in order.
   - SELL: a thread per strip row (lane l of slice i / C), walking its slots C apart: for each j, a slice's lanes
     write neighbouring slots, and each thread reads its own row's consecutive values (refill_row, in batches, as
     ELL's and DIA's rows below).  col -1: padding.  Splitting a row's slots over several threads was slower on
     circuit (bench/results/2026-11-28-sell-refill).
   - CSR and STREAM: lanes (a power of two up to 32, about a row's length) per strip row over its consecutive slots
     [ptr[i], ptr[i + 1]); the grid's stride is a multiple of lanes, so a row's lanes stay together.
   - LONG: a few rows of thousands of entries, where lanes per row would walk each row one load after another: a
     thread per slot, its row found by bisection of the strip's few row offsets. */
#define REFILL_FUSED 16
enum refill_kind : int { BY_MAP, BY_SELL_ROWS, BY_CSR_ROWS, BY_LONG_SLOTS };
struct refill_array {
  refill_kind     kind;
  int             arg;       /* SELL: rows per slice; CSR: log2 of its lanes per row */
  double         *val;
  const aijt_int *src;       /* BY_MAP: the places */
  const aijt_int *ptr, *col; /* by rows: the strip's offsets (and SELL's columns) */
  const aijt_int *row_start; /* and its rows' first places */
  aijt_int        nrows;
  int64_t         n;         /* threads' items: slots (BY_MAP, BY_LONG_SLOTS), rows (SELL), rows x lanes (CSR) */
};
struct refill_arrays {
  refill_array a[REFILL_FUSED];
  unsigned     first[REFILL_FUSED + 1];
  int          count;
};

__device__ __forceinline__ void refill_item(const refill_array &r, int64_t k, const double *values)
{
  switch (r.kind) {
  case BY_MAP:
    r.val[k] = r.src[k] < 0 ? 0.0 : values[r.src[k]];
    break;
  case BY_SELL_ROWS: { /* 32-bit divisions: k < nrows (a 64-bit one is several times dearer) */
    const uint32_t C = (uint32_t)r.arg, i = (uint32_t)k, s = i / C, l = i - s * C;
    const int64_t  base = r.ptr[s];
    const slot_row row  = {NULL, r.col + base + l, 0u, r.row_start[i], C};
    refill_row(row, (aijt_int)((r.ptr[s + 1] - base) / C), values, r.val + base + l, C);
  } break;
  case BY_CSR_ROWS: { /* lanes 1 << arg a row: a shift, not a 64-bit division */
    const int64_t  i = k >> r.arg;
    const aijt_int p = r.ptr[i], n = r.ptr[i + 1] - p, f = r.row_start[i], lanes = 1 << r.arg;
    for (aijt_int j = (aijt_int)(k & (lanes - 1)); j < n; j += lanes) r.val[p + j] = values[f + j];
  } break;
  case BY_LONG_SLOTS: {
    aijt_int lo = 0, hi = r.nrows; /* the row i with ptr[i] <= k < ptr[i + 1] */
    while (hi - lo > 1) {
      const aijt_int mid = lo + (hi - lo) / 2;
      if (r.ptr[mid] <= k) lo = mid;
      else hi = mid;
    }
    r.val[k] = values[r.row_start[lo] + (aijt_int)(k - r.ptr[lo])];
  } break;
  }
}

__global__ void refill_fused_kernel(refill_arrays r, const double *values)
{
  int a = 0;
  while (a + 1 < r.count && blockIdx.x >= r.first[a + 1]) a++;
  const int64_t nb = r.first[a + 1] - r.first[a];
  for (int64_t k = (int64_t)(blockIdx.x - r.first[a]) * blockDim.x + threadIdx.x; k < r.a[a].n; k += nb * blockDim.x) refill_item(r.a[a], k, values);
}

/* Adds array x to r, launching r first when it is full. */
cudaError_t refill_add(refill_arrays &r, const refill_array &x, const double *values, cudaStream_t stream)
{
  if (r.count == REFILL_FUSED) {
    refill_fused_kernel<<<r.first[r.count], SETUP_BLOCK, 0, stream>>>(r, values);
    TRY(cudaGetLastError());
    r.count = 0;
  }
  r.a[r.count]         = x;
  r.first[r.count + 1] = r.first[r.count] + setup_blocks(x.n);
  r.count++;
  return cudaSuccess;
}

/* Strip S's slots as an array of the fused refill: through its map src, or by its rows (SELL, CSR, STREAM, LONG
   with row_start and no map) */
refill_array refill_array_of(const aijt_dev_strip *S, const aijt_int *src)
{
  refill_array x = {BY_MAP, 0, (double *)S->val, src, S->ptr, S->col, S->row_start, S->nrows, S->nslots};
  if (src) return x;
  if (S->format == AIJT_SELL) x.kind = BY_SELL_ROWS, x.arg = S->chunk, x.n = S->nrows;
  else if (S->format == AIJT_LONG) x.kind = BY_LONG_SLOTS;
  else {
    const int64_t mean = S->nrows ? ((int64_t)S->nslots + S->nrows - 1) / S->nrows : 1;
    x.kind = BY_CSR_ROWS, x.arg = 0;
    while (x.arg < 5 && (1 << x.arg) < mean) x.arg++;
    x.n = (int64_t)S->nrows << x.arg;
  }
  return x;
}

/* A column-major strip (ELL, DIA: row i's slot j at i + j * ld): a thread per row through its slots, so that the
   row's values, neighbours in the CSR, come one after another from the same sectors.  A thread per slot read one
   value of each of a warp's 32 rows, a 32-byte sector for 8 bytes, and the row's next value a whole column of
   slots later: MatScale's refresh on box27 (DIA) ran 4x aijcusparse's time, lap3d (DIA) and elast 3x
   (bench/results/2026-11-26-new-values).  In batches (refill_row): circuit's ELL strips 9.9 -> 9.6 us a refill. */
__global__ void refill_rows_kernel(double *val, slot_source from, aijt_int nrows, aijt_int ld, aijt_int width, const double *values)
{
  GRID_STRIDE(i, nrows) refill_row(from.row(i), width, values, val + i, ld);
}

/* The same for a column-major strip of 16 slots a row or more, by tiles of 32 rows and 32 slots: a tile's places
   read along the rows (coalesced), its values gathered along the columns (a row's values, neighbours in the CSR,
   by neighbouring threads), and written along the rows again, through shared memory.  A thread per row walking its
   slots read a sector for each value of a warp's 32 rows: elast's ELL strips (81 and 54 slots a row) took about
   1.4 ms to refill, 0.7 by tiles (MatScale twice and a product 2.73 -> 2.01 ms on an H100, aijcusparse 1.34-1.36;
   bench/results/2026-11-26-refill-trace). */
#define TILE 32
__global__ void refill_tile_kernel(double *val, slot_source from, aijt_int nrows, aijt_int ld, aijt_int width, const double *values)
{
  __shared__ aijt_int place[TILE][TILE + 1];
  __shared__ double   v[TILE][TILE + 1];
  const int64_t       i0 = (int64_t)blockIdx.x * TILE, j0 = (int64_t)blockIdx.y * TILE;
  const int           tx = threadIdx.x, ty = threadIdx.y;

  for (int q = ty; q < TILE; q += blockDim.y) { /* place[slot][row] */
    const int64_t i = i0 + tx, j = j0 + q;
    place[q][tx]    = i < nrows && j < width ? from.at(j, i) : -1;
  }
  __syncthreads();
  for (int q = ty; q < TILE; q += blockDim.y) { /* row q of the tile, slot tx */
    const aijt_int k = place[tx][q];
    v[tx][q]         = k < 0 ? 0.0 : values[k];
  }
  __syncthreads();
  for (int q = ty; q < TILE; q += blockDim.y) {
    const int64_t i = i0 + tx, j = j0 + q;
    if (i < nrows && j < width) val[i + j * ld] = v[q][tx];
  }
}

/* Each strip row's first place in the CSR's values, for its refills without a map: of the row its fill kernel reads
   (DIA numbers its rows from row0) */
__global__ void row_start_kernel(aijt_dev_strip S, const aijt_int *rowptr)
{
  GRID_STRIDE(i, S.nrows)((aijt_int *)S.row_start)[i] = rowptr[S.format == AIJT_DIA ? S.row0 + (aijt_int)i : strip_row(S, i)];
}

/* Steps 1 and 2: the sorted pairs (with a column order) and the tail's places. */
cudaError_t prepare(const aijt_plan *P, const aijt_layouts *K, const aijt_dev_csr *A, const aijt_dev_strip *strips, workspace &w, entries &e, aijt_int **segend, aijt_int **tail_at)
{
  const aijt_int nnz = A->nnz, n = A->nrows;
  aijt_int      *count = NULL, *lab = NULL, *idx = NULL, *cubend = NULL;
  void          *tmp   = NULL;
  size_t         bytes = 0, need = 0;

  *segend = *tail_at = NULL;
  if (K->tail.nnz) {
    TRY(w.get(&count, (size_t)n + 1));
    TRY(w.get(tail_at, (size_t)n + 1));
    TRY(cudaMemsetAsync(count, 0, ((size_t)n + 1) * sizeof(aijt_int), w.stream));
  }
  if (e.col_pos) {
    TRY(w.get(segend, (size_t)n));
    TRY(w.get(&cubend, (size_t)n));
    TRY(w.get(&lab, (size_t)nnz));
    TRY(w.get(&idx, (size_t)nnz));
    TRY(w.get((aijt_int **)&e.skey, (size_t)nnz));
    TRY(w.get((aijt_int **)&e.sidx, (size_t)nnz));
    TRY(cudaMemcpyAsync(*segend, A->rowptr, (size_t)n * sizeof(aijt_int), cudaMemcpyDeviceToDevice, w.stream)); /* rows outside the strips: nothing sorted */
    TRY(cudaMemcpyAsync(cubend, A->rowptr, (size_t)n * sizeof(aijt_int), cudaMemcpyDeviceToDevice, w.stream));
    label_kernel<<<setup_blocks(nnz), SETUP_BLOCK, 0, w.stream>>>(e, nnz, lab, idx);
  }
  for (int s = 0; s < K->nstrips && (count || *segend); s++)
    if (strips[s].nrows) segment_kernel<<<setup_blocks(strips[s].nrows), SETUP_BLOCK, 0, w.stream>>>(strips[s], P->strips[s].begin, A->rowptr, *segend, cubend, count);
  TRY(cudaGetLastError());
  if (count) {
    TRY(cub::DeviceScan::ExclusiveSum(NULL, need, count, *tail_at, (int64_t)n + 1, w.stream));
    bytes = need;
  }
  if (bytes) TRY(w.get((char **)&tmp, bytes));
  if (count) {
    need = bytes;
    TRY(cub::DeviceScan::ExclusiveSum(tmp, need, count, *tail_at, (int64_t)n + 1, w.stream));
  }
  if (e.col_pos) TRY(aijt::row_sort(P, strips, A->rowptr, *segend, cubend, lab, idx, n, nnz, (aijt_int *)e.skey, (aijt_int *)e.sidx, w));
  return cudaSuccess;
}

} // namespace

extern "C" cudaError_t aijt_dev_build(const aijt_plan *P, const aijt_layouts *K, const aijt_dev_csr *A, const aijt_int *col_pos, aijt_dev_strip *strips, aijt_int *const *src, aijt_dev_coo *tail, aijt_int *tail_src, cudaStream_t stream)
{
  workspace w;
  entries   e   = {A->rowptr, A->colidx, col_pos, NULL, NULL, K->nhot};
  aijt_int *segend, *tail_at;
  int      *bad = NULL, found = 0;

  w.stream = stream;
  if (K->filled || K->nstrips != P->nstrips || A->nrows != K->nrows || (col_pos && K->nhot < 1)) return cudaErrorInvalidValue;
  TRY(prepare(P, K, A, strips, w, e, &segend, &tail_at));
  TRY(w.get(&bad, 1));
  TRY(cudaMemsetAsync(bad, 0, sizeof(int), stream));
  for (int s = 0; s < K->nstrips; s++) { /* the rows' first places, for the strips refilled without a map */
    const aijt_dev_strip &S = strips[s];
    if (!S.row_start) continue;
    if (!aijt_dev_strip_by_rows(&S, col_pos != NULL)) return cudaErrorInvalidValue;
    if (S.nrows) row_start_kernel<<<setup_blocks(S.nrows), SETUP_BLOCK, 0, stream>>>(S, A->rowptr);
  }
  for (int s = 0; s < K->nstrips; s++) {
    const aijt_dev_strip &S = strips[s];
    if (!S.nrows) continue;
    switch (S.format) {
    case AIJT_LONG: {
      const int64_t chunks = (P->strips[s].max_len + LONG_FILL_CHUNK - 1) / LONG_FILL_CHUNK;
      if (chunks > INT_MAX) return cudaErrorInvalidValue;
      if (chunks > 0) /* none: its rows are empty */
        fill_long_kernel<<<dim3((unsigned)chunks, aijt::capped_blocks(S.nrows)), SETUP_BLOCK, 0, stream>>>(S, src[s], e, segend, A->values, bad);
    } break;
    case AIJT_CSR:
    case AIJT_STREAM:
      fill_csr_kernel<<<setup_blocks((int64_t)S.nrows * 32), SETUP_BLOCK, 0, stream>>>(S, src[s], e, segend, A->values, bad);
      break;
    case AIJT_ELL:
    case AIJT_COO:
      fill_ell_kernel<<<setup_blocks(S.nrows), SETUP_BLOCK, 0, stream>>>(S, P->strips[s].begin, src[s], e, segend, A->values, *tail, tail_src, tail_at);
      break;
    case AIJT_SELL:
      if (P->strips[s].max_len >= 32 && S.chunk <= SELL_TILE_ROWS) {
        const int64_t nslices = (S.nrows + S.chunk - 1) / S.chunk;
        if (nslices > INT_MAX) return cudaErrorInvalidValue;
        fill_sell_tile_kernel<<<(unsigned)nslices, SETUP_BLOCK, 0, stream>>>(S, src[s], e, segend, A->values);
      } else fill_sell_kernel<<<setup_blocks((int64_t)S.nrows + S.chunk), SETUP_BLOCK, 0, stream>>>(S, src[s], e, segend, A->values);
      break;
    case AIJT_DIA:
      if (S.width < 0 || S.width > 32) return cudaErrorInvalidValue;
      fill_dia_kernel<<<(unsigned)((S.nrows + DIA_FILL_ROWS - 1) / DIA_FILL_ROWS), SETUP_BLOCK, 0, stream>>>(S, src[s], A->rowptr, A->colidx, A->values, bad);
      break;
    case AIJT_BCSR:
      if (S.width < 2 || S.width > AIJT_BCSR_MAX_BS || S.row0 != 0 || S.nrows != A->nrows) return cudaErrorInvalidValue; /* the whole matrix: slots are CSR's */
      fill_bcsr_kernel<<<setup_blocks((int64_t)S.nrows * 32), SETUP_BLOCK, 0, stream>>>(S, src[s], A->rowptr, A->colidx, A->values, bad);
      break;
    case AIJT_PANEL:
      fill_panel_kernel<<<setup_blocks((int64_t)S.nrows * 32), SETUP_BLOCK, 0, stream>>>(S, src[s], A->rowptr, A->colidx, A->values, bad);
      break;
    default:
      return cudaErrorInvalidValue;
    }
    TRY(cudaGetLastError());
  }
  TRY(aijt_dev_fetch(&found, bad, sizeof(int), stream));
  return found ? cudaErrorInvalidValue : cudaSuccess;
}

extern "C" cudaError_t aijt_dev_refill(const double *values, const aijt_dev_strip *strips, const aijt_int *const *src, int nstrips, const aijt_dev_coo *tail, const aijt_int *tail_src, cudaStream_t stream)
{
  refill_arrays r = {}; /* the slot arrays refilled in order, fused */

  for (int s = 0; s < nstrips; s++) {
    const aijt_dev_strip *S       = &strips[s];
    const aijt_int        ld      = S->ld ? S->ld : S->nrows;
    const int             by_rows = !src[s] && S->row_start; /* no map: the rows' first places */
    const int             ell_dia = S->format == AIJT_ELL || S->format == AIJT_DIA;
    const int             whole   = ld == S->nrows && (int64_t)S->width * ld == (int64_t)S->nslots;
    if (!S->nslots || (!src[s] && !by_rows)) continue; /* no map: its slots are the values themselves (put_slot) */
    if (by_rows && (!aijt_dev_strip_by_rows(S, 0) || (ell_dia && !whole) || (S->format == AIJT_DIA ? !S->mask : !S->col))) return cudaErrorInvalidValue;
    if (aijt_dia_codes_refills(S)) { /* its values and their codes in one pass */
      TRY(aijt_dia_codes_refill(S, src[s], values, stream));
      continue;
    }
    if (by_rows && S->format == AIJT_SELL && S->chunk < 1) return cudaErrorInvalidValue;
    const int column_major = ell_dia && (by_rows || (S->width > 1 && whole));
    if (column_major && S->width >= 16)
      refill_tile_kernel<<<dim3((unsigned)((S->nrows + TILE - 1) / TILE), (unsigned)((S->width + TILE - 1) / TILE)), dim3(TILE, 8), 0, stream>>>((double *)S->val, slot_source_of(S, src[s]), S->nrows, ld, S->width, values);
    else if (column_major)
      refill_rows_kernel<<<setup_blocks(S->nrows), SETUP_BLOCK, 0, stream>>>((double *)S->val, slot_source_of(S, src[s]), S->nrows, ld, S->width, values);
    else TRY(refill_add(r, refill_array_of(S, src[s]), values, stream));
  }
  if (tail && tail->nnz) TRY(refill_add(r, refill_array{BY_MAP, 0, (double *)tail->val, tail_src, NULL, NULL, NULL, 0, tail->nnz}, values, stream));
  if (r.count) refill_fused_kernel<<<r.first[r.count], SETUP_BLOCK, 0, stream>>>(r, values);
  for (int s = 0; s < nstrips; s++) /* the others' codes, from their values refilled above */
    if (strips[s].nslots && !aijt_dia_codes_refills(&strips[s])) TRY(aijt_dia_codes_make(&strips[s], stream));
  return cudaGetLastError();
}

