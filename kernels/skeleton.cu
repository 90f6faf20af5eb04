/*
   The skeleton's arrays made on the device, for a plan whose row order and column order the GPU planner
   left there (aijt_dev_plan_model_keep).  Copying them to the host, for aijt_layouts_skeleton to cut
   them into strips and for the upload to copy the strips back, was R-MAT's 16 MB and 1.3-1.7 ms of its
   planning, most of the rest of circuit's (bench/results/2026-11-21-h100-gpu-plan).  Here each strip's
   rows are a piece of the device order itself, and the rest is made from the lengths of those rows.  A
   plan in natural order has no order: its rows are numbered from the strip's first (DIA reads nothing
   else; aijt_dev_iota makes the rows of others at the upload, out of planning, where a 16 MB identity
   made the stream-ordered pool grow by 0.2-0.4 ms on a 4M-row stencil):
   - SELL's slots, the one size the host cannot take from the plan (one wait);
   - CSR, LONG and STREAM row offsets, and SELL slice offsets, by a scan of the rows' lengths (slices'
     widths); STREAM's block starts after them, a bisection per block; PANEL's offsets by a scan of each
     row's count in each panel (two bisections in the row's sorted columns);
   - the hot columns, from the column order;
   - each strip's pattern for its tuning-cache fingerprint (aijtrowprint.h, one wait).
   The arrays are those aijt_layouts_skeleton and aijt_layouts_build make on the host: the GPU build
   (build.cu) fills the slots from them the same way.  Set-up code, not the product.
*/
#include "aijtkernels.h"
#include "setup.cuh"
#include "aijtrowprint.h"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>

namespace {

using aijt::first_at_least;
using aijt::setup_blocks;
using aijt::SETUP_BLOCK;
using aijt::workspace;

__device__ aijt_int len_of(const aijt_int *rowptr, aijt_int r)
{
  return rowptr[r + 1] - rowptr[r];
}

/* Row i of a strip: rows[i], or first + i for a strip in natural order whose rows are not on the device */
__device__ aijt_int row_at(const aijt_int *rows, aijt_int first, int64_t i)
{
  return rows ? rows[i] : first + (aijt_int)i;
}

/* The longest of slice q's rows (rows i in [q C, q C + C) of n) */
__device__ aijt_int slice_width(const aijt_int *rows, aijt_int first, aijt_int n, int C, const aijt_int *rowptr, int64_t q)
{
  aijt_int w = 0;
  for (int64_t i = q * C; i < (q + 1) * C && i < n; i++) w = max(w, len_of(rowptr, row_at(rows, first, i)));
  return w;
}

/* out[q] = C x slice q's width, q < nslices, and out[nslices] = 0: the exclusive scan of out is the slice offsets */
__global__ void slice_slots_kernel(const aijt_int *rows, aijt_int n, int C, const aijt_int *rowptr, int64_t nslices, aijt_int *out)
{
  GRID_STRIDE(q, nslices + 1) out[q] = q < nslices ? slice_width(rows, 0, n, C, rowptr, q) * (aijt_int)C : 0;
}

/* Add to *sum the sum over the grid of each thread's value (one atomic per block). */
__device__ void add_block_sum(unsigned long long v, unsigned long long *sum)
{
  typedef cub::BlockReduce<unsigned long long, SETUP_BLOCK> reduce;
  __shared__ typename reduce::TempStorage tmp;
  const unsigned long long                total = reduce(tmp).Sum(v);
  if (threadIdx.x == 0) atomicAdd(sum, total); /* modulo 2^64, as the host's sums */
}

/* *total += the slots of all nslices slices (C x width each) */
__global__ void sell_total_kernel(const aijt_int *rows, aijt_int first, aijt_int n, int C, const aijt_int *rowptr, int64_t nslices, unsigned long long *total)
{
  unsigned long long v = 0;
  GRID_STRIDE(q, nslices) v += (unsigned long long)slice_width(rows, first, n, C, rowptr, q) * (unsigned long long)C;
  add_block_sum(v, total);
}

/* out[i] = the length of strip row i, out[n] = 0: the exclusive scan of out is the row offsets */
__global__ void row_length_kernel(const aijt_int *rows, aijt_int first, aijt_int n, const aijt_int *rowptr, aijt_int *out)
{
  GRID_STRIDE(i, (int64_t)n + 1) out[i] = i < n ? len_of(rowptr, row_at(rows, first, i)) : 0;
}

/* out[p * n + i] = strip row i's entries in column panel p (columns [p w, p w + w)), p < np, and out[np n] = 0:
   the exclusive scan of out is PANEL's offsets, panel after panel (plan/layout.c counts the same entry by entry) */
__global__ void panel_count_kernel(const aijt_int *rows, aijt_int first, aijt_int n, const aijt_int *rowptr, const aijt_int *colidx, aijt_int w, int64_t np, aijt_int *out)
{
  GRID_STRIDE(q, np * n + 1)
  {
    aijt_int count = 0;
    if (q < np * n) {
      const int64_t  p = q / n;
      const aijt_int r = row_at(rows, first, q % n), lo = rowptr[r], hi = rowptr[r + 1];
      count = first_at_least(colidx, lo, hi, (p + 1) * w) - first_at_least(colidx, lo, hi, p * w);
    }
    out[q] = count;
  }
}

/* STREAM's block starts after its n + 1 row offsets: block b's first row is the first whose offset is at
   least b * AIJT_STREAM_SHARE (by bisection, as plan/layout.c), and the last start is n. */
__global__ void stream_starts_kernel(aijt_int *ptr, aijt_int n, int64_t nblocks)
{
  GRID_STRIDE(b, nblocks + 1)
  {
    const int64_t key = b * AIJT_STREAM_SHARE;
    aijt_int      lo = 0, hi = n;
    while (b < nblocks && lo < hi) {
      const aijt_int mid = lo + (hi - lo) / 2;
      if (ptr[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    ptr[(int64_t)n + 1 + b] = b < nblocks ? lo : n;
  }
}

__global__ void hot_kernel(const aijt_int *col_pos, aijt_int ncols, aijt_int nhot, aijt_int *hot)
{
  GRID_STRIDE(c, ncols)
  if (col_pos[c] < nhot) hot[col_pos[c]] = (aijt_int)c;
}

__global__ void pattern_kernel(const aijt_int *rows, aijt_int first, aijt_int n, const aijt_int *rowptr, const aijt_int *colidx, unsigned long long *sum)
{
  unsigned long long s = 0;
  GRID_STRIDE(i, n)
  {
    const aijt_int r = row_at(rows, first, i), a = rowptr[r], b = rowptr[r + 1];
    s += aijt_row_print(i, r, a, b, a < b ? colidx[a] : -1, a < b ? colidx[b - 1] : -1);
  }
  add_block_sum(s, sum);
}

/* Blocks for n items of reduction: enough to fill the device, few atomics. */
unsigned reduce_blocks(int64_t n)
{
  const unsigned b = setup_blocks(n);
  return b < 1024 ? b : 1024;
}

/* The offsets a scan makes: all of ptr but STREAM's block starts, which follow its row offsets. */
size_t offsets_count(const aijt_dev_strip *d)
{
  return d->format == AIJT_STREAM ? (size_t)d->nrows + 1 : aijt_dev_strip_ptr_count(d);
}

int64_t slices_of(aijt_int n, int C)
{
  return C > 0 ? ((int64_t)n + C - 1) / C : 0;
}

__global__ void iota_kernel(aijt_int *v, aijt_int first, aijt_int n)
{
  GRID_STRIDE(i, n) v[i] = first + (aijt_int)i;
}

/* Whether the planner gave strip S's slots (aijt_strip.slots: a SELL strip of a plan sorted by length). */
bool slots_known(const aijt_plan *P, const aijt_strip *S)
{
  return P->sorted && S->slots > 0;
}

/* slots[s] for each SELL strip s of P (slots arrives zeroed; the others stay 0): the planner's where it
   gave them, else from the lengths of its rows order[begin, end), or rows begin to end without an order
   (nothing counted, and no wait, when every SELL strip's are known). */
cudaError_t sell_slots(const aijt_plan *P, const aijt_int *rowptr, const aijt_int *order, int64_t *slots, cudaStream_t stream)
{
  static_assert(sizeof(int64_t) == sizeof(unsigned long long), "the sums are copied into slots");
  int to_count = 0; /* some SELL strip's slots are not known */

  for (int s = 0; s < P->nstrips; s++) to_count |= P->strips[s].format == AIJT_SELL && !slots_known(P, &P->strips[s]);
  if (to_count) {
    workspace           w(stream);
    unsigned long long *sum = NULL;
    TRY(w.get(&sum, (size_t)P->nstrips));
    TRY(cudaMemsetAsync(sum, 0, (size_t)P->nstrips * sizeof(unsigned long long), stream));
    for (int s = 0; s < P->nstrips; s++) {
      const aijt_strip *S = &P->strips[s];
      const int64_t     nslices = slices_of(S->end - S->begin, S->chunk);
      if (S->format != AIJT_SELL || !nslices || slots_known(P, S)) continue;
      sell_total_kernel<<<reduce_blocks(nslices), SETUP_BLOCK, 0, stream>>>(order ? order + S->begin : NULL, S->begin, S->end - S->begin, S->chunk, rowptr, nslices, sum + s);
      TRY(cudaGetLastError());
    }
    TRY(aijt_dev_fetch(slots, sum, (size_t)P->nstrips * sizeof(unsigned long long), stream));
  }
  for (int s = 0; s < P->nstrips; s++)
    if (P->strips[s].format == AIJT_SELL && slots_known(P, &P->strips[s])) slots[s] = P->strips[s].slots;
  return cudaSuccess;
}

} // namespace

extern "C" int aijt_dev_skeleton_takes(const aijt_plan *P)
{
  return !P->order && !P->col_pos && aijt_layouts_sized_ok(P);
}

extern "C" aijt_err aijt_dev_skeleton(const aijt_plan *P, const aijt_csr *A, const aijt_int *rowptr, const aijt_int *order, cudaStream_t stream, aijt_layouts **L, cudaError_t *cerr)
{
  int64_t *slots = (int64_t *)calloc((size_t)P->nstrips + 1, sizeof(int64_t));
  aijt_err  err   = slots ? AIJT_OK : AIJT_ERR_MEM;

  *L    = NULL;
  *cerr = cudaSuccess;
  if (!err && !aijt_layouts_sized_ok(P)) err = AIJT_ERR_FORMAT;
  if (!err) *cerr = sell_slots(P, rowptr, order, slots, stream);
  if (!err && *cerr != cudaSuccess) err = AIJT_ERR_DEVICE;
  if (!err) err = aijt_layouts_skeleton_sized(P, A, slots, L);
  free(slots);
  return err;
}

extern "C" cudaError_t aijt_dev_skeleton_ptrs(const aijt_plan *P, const aijt_int *rowptr, const aijt_int *colidx, aijt_dev_strip *strips, cudaStream_t stream)
{
  workspace w(stream);
  aijt_int *len = NULL;
  char     *tmp = NULL;
  size_t    most = 0, bytes = 0;

  for (int s = 0; s < P->nstrips; s++) {
    const aijt_dev_strip *d = &strips[s];
    size_t                need = 0;
    if (d->format != AIJT_CSR && d->format != AIJT_LONG && d->format != AIJT_SELL && d->format != AIJT_STREAM && d->format != AIJT_PANEL && d->format != AIJT_BCSR) continue;
    const size_t n = offsets_count(d);
    TRY(cub::DeviceScan::ExclusiveSum(NULL, need, (aijt_int *)NULL, (aijt_int *)NULL, (int64_t)n, stream));
    most  = n > most ? n : most;
    bytes = need > bytes ? need : bytes;
  }
  if (!most) return cudaSuccess;
  TRY(w.get(&len, most));
  TRY(w.get(&tmp, bytes));
  for (int s = 0; s < P->nstrips; s++) {
    const aijt_dev_strip *d = &strips[s];
    const size_t          n = offsets_count(d);
    size_t                need = bytes;
    if (d->format == AIJT_CSR || d->format == AIJT_LONG || d->format == AIJT_STREAM || d->format == AIJT_BCSR) row_length_kernel<<<setup_blocks((int64_t)n), SETUP_BLOCK, 0, stream>>>(d->rows, d->row0, d->nrows, rowptr, len);
    else if (d->format == AIJT_SELL) slice_slots_kernel<<<setup_blocks((int64_t)n), SETUP_BLOCK, 0, stream>>>(d->rows, d->nrows, d->chunk, rowptr, (int64_t)n - 1, len);
    else if (d->format == AIJT_PANEL && d->nrows) panel_count_kernel<<<setup_blocks((int64_t)n), SETUP_BLOCK, 0, stream>>>(d->rows, d->row0, d->nrows, rowptr, colidx, d->width, ((int64_t)n - 1) / d->nrows, len);
    else continue;
    TRY(cudaGetLastError());
    TRY(cub::DeviceScan::ExclusiveSum(tmp, need, len, (aijt_int *)d->ptr, (int64_t)n, stream));
    if (d->format == AIJT_STREAM) {
      const int64_t nb = AIJT_STREAM_BLOCKS((int64_t)d->nslots);
      stream_starts_kernel<<<setup_blocks(nb + 1), SETUP_BLOCK, 0, stream>>>((aijt_int *)d->ptr, d->nrows, nb);
      TRY(cudaGetLastError());
    }
  }
  return cudaSuccess;
}

extern "C" cudaError_t aijt_dev_hot_columns(const aijt_int *col_pos, aijt_int ncols, aijt_int nhot, aijt_int *hot, cudaStream_t stream)
{
  if (ncols) hot_kernel<<<setup_blocks(ncols), SETUP_BLOCK, 0, stream>>>(col_pos, ncols, nhot, hot);
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_dev_strip_patterns(const aijt_dev_strip *strips, int nstrips, const aijt_int *rowptr, const aijt_int *colidx, uint64_t *patterns, cudaStream_t stream)
{
  workspace           w(stream);
  unsigned long long *sum = NULL;

  TRY(w.get(&sum, (size_t)nstrips));
  TRY(cudaMemsetAsync(sum, 0, (size_t)(nstrips ? nstrips : 1) * sizeof(unsigned long long), stream));
  for (int s = 0; s < nstrips; s++)
    if (strips[s].nrows) pattern_kernel<<<reduce_blocks(strips[s].nrows), SETUP_BLOCK, 0, stream>>>(strips[s].rows, strips[s].row0, strips[s].nrows, rowptr, colidx, sum + s);
  TRY(cudaGetLastError());
  return aijt_dev_fetch(patterns, sum, (size_t)nstrips * sizeof(uint64_t), stream);
}

extern "C" cudaError_t aijt_dev_iota(aijt_int *v, aijt_int first, aijt_int n, cudaStream_t stream)
{
  if (n) iota_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, stream>>>(v, first, n);
  return cudaGetLastError();
}
