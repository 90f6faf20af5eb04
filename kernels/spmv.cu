/*
   The one place that maps strips to launches: a fused kernel runs up to AIJT_FUSED_MAX strips, each on
   its own range of blocks, every block running its strip's format; the host side validates the
   parameters, sizes each range and groups the strips into launches.

   Ranges are sized for one unit of work (row, row group or row part) per thread or block, so the
   formats' grid-stride loops run once; a range is capped so that the whole grid fits gridDim.x, and the
   loops make any cap correct.  All strips of a launch share one block size, so strips of different
   (normalised) block sizes go to different launches, in plan order.

   Block sizes are normalised, not refused: every format is correct for any block that is a multiple of
   32 (CSR-vector groups must not straddle warps; the block reductions count whole warps) up to 512,
   so a planner value such as 40 becomes 32.

   The strips travel as a kernel parameter (__grid_constant__: read in place from the constant bank,
   no copy per thread), so a launch needs no device memory of its own and no host-device copy.
*/
#include "internal.cuh"
#include "bcsr.cuh"
#include "coo.cuh"
#include "csr_long.cuh"
#include "csr_vector.cuh"
#include "dia.cuh"
#include "ell.cuh"
#include "panel.cuh"
#include "sell.cuh"
#include "stream.cuh"

#include <string.h>

namespace aijt {

/* N: the strips a launch can hold (AIJT_FUSED_MAX, or 1: one_dia_strip below). */
template <int N>
struct fused_args {
  int            nstrips;
  unsigned       first[N + 1]; /* strip s runs on blocks [first[s], first[s + 1]) */
  aijt_dev_strip strip[N];
};

/* ALL = false keeps only DIA and the COO row initialisation: with the other formats the kernel takes
   58 registers, where DIA strips alone (the stencils' plans) keep 32 and twice the occupancy (the DIA
   product was 15% slower inside the full kernel, bench/results/2026-11-21-h200-bench-v2). */
/* SPLIT: the launch has strips with a column order (x_source); DIA strips never have one. */
/* DENSE: registers capped at 32 (4 blocks of 512 per multiprocessor): 64 resident warps, where the 58
   registers ptxas gives the kernel otherwise allow 32 (each format alone needs 32).  More warps in
   flight help large launches: on an H100 circuit went from 42.7 to 38.8 us and elast from 340 to 333.
   They hurt launches of short rows in few waves (actor_movie_incidence 18.6 -> 20.0 us) and spill in the
   SPLIT kernel (R-MAT 294 -> 321 us), so launch() picks it (dense_launch) by size and slots per thread
   (bench/results/2026-11-22-h100-occupancy). */
/* blocks of AIJT_MAX_BLOCK per multiprocessor the DENSE kernel is compiled for (4: 32 registers; 3: 40;
   NVFLAGS_EXTRA=-DAIJT_DENSE_MINBLOCKS=N to compare) */
#ifndef AIJT_DENSE_MINBLOCKS
  #define AIJT_DENSE_MINBLOCKS 4
#endif
template <int N, bool ALL, bool SPLIT, bool DENSE>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK, DENSE ? AIJT_DENSE_MINBLOCKS : 0) fused_spmv_kernel(const __grid_constant__ fused_args<N> a, const double *__restrict__ x, const double *z, double *y, double scale)
{
  /* z, y and scale as parameters of their own: taken as one struct, ptxas scheduled the one-strip DIA kernel's loads
     otherwise, 1.2-1.7% slower on lap2d and lap3d (bench/results/2026-11-27-scale-deferred) */
  const y_out o = {z, y, scale};
  int s = 0;
  while (N > 1 && s + 1 < a.nstrips && blockIdx.x >= a.first[s + 1]) s++; /* a few strips: a scan is cheapest */
  const aijt_dev_strip &S  = a.strip[s];
  const strip_range     g  = {(int64_t)(blockIdx.x - a.first[s]), (int64_t)(a.first[s + 1] - a.first[s])};
  const x_source<SPLIT> xs = {x, S.xhot, S.nhot};

  switch (S.format) {
  case AIJT_CSR:
    if (!ALL) break;
    switch (S.tpr) {
#define AIJT_CSR_CASE(T) \
  case T: \
    csr_vector_rows<T>(S, g, xs, o); \
    break;
      AIJT_TPR_LIST(AIJT_CSR_CASE)
#undef AIJT_CSR_CASE
    }
    break;
  case AIJT_LONG:
    if (ALL) csr_long_rows(S, g, xs, o);
    break;
  case AIJT_ELL:
    if (ALL) ell_rows(S, g, xs, o);
    break;
  case AIJT_SELL:
    if (!ALL) break;
    /* the planner's default C = 32 gets constant indexing; any other C reads it at run time */
    if (S.chunk == 32) sell_rows<32>(S, g, xs, o);
    else sell_rows<0>(S, g, xs, o);
    break;
  case AIJT_DIA:
    dia_rows(S, g, x, o);
    break;
  case AIJT_COO: /* the entries are in the tail; the strip only initialises its rows */
    coo_rows_init(S, g, o);
    break;
  default:
    break;
  }
}

} // namespace aijt

namespace {

constexpr int64_t kGridXMax = 0x7fffffff; /* gridDim.x limit */

/* When a launch of CSR, ELL or SELL strips without a column order runs the DENSE kernel: from
   AIJT_DENSE_THREADS threads (about 4 waves of the other kernel on a 132-multiprocessor H100 or H200), or
   from a wave of it (2^17 threads) where each thread has AIJT_DENSE_SLOTS slots or more, long chains of
   loads that more warps overlap (NVFLAGS_EXTRA=-DAIJT_DENSE_THREADS=N to compare: 0 always, a huge N
   never). */
#ifndef AIJT_DENSE_THREADS
  #define AIJT_DENSE_THREADS (int64_t(1) << 19)
#endif
#ifndef AIJT_DENSE_SLOTS
  #define AIJT_DENSE_SLOTS 24
#endif

bool dense_launch(const aijt::fused_args<AIJT_FUSED_MAX> &a, unsigned grid, unsigned block)
{
  const int64_t threads = (int64_t)grid * block;
  int64_t       slots   = 0;
  if (threads >= AIJT_DENSE_THREADS) return true;
  if (threads < AIJT_DENSE_THREADS / 4) return false;
  for (int s = 0; s < a.nstrips; s++) slots += a.strip[s].nslots;
  return slots >= AIJT_DENSE_SLOTS * threads;
}

unsigned block_of(int block)
{
  if (block <= 0) return 256;
  if (block > AIJT_MAX_BLOCK) block = AIJT_MAX_BLOCK;
  if (block < 32) block = 32;
  return (unsigned)block & ~31u;
}

/* Whether a kernel can honour the strip's parameters. */
bool strip_ok(const aijt_dev_strip *s)
{
  if (!s || s->nrows < 0 || s->nhot < 0 || (s->nhot && !s->xhot)) return false;
  if (s->nhot && AIJT_WHOLE_FORMAT(s->format)) return false; /* their columns come from rows, or are x's */
  switch (s->format) {
  case AIJT_CSR:
    return aijt_tpr_valid(s->tpr);
  case AIJT_LONG:
    return s->blocks_per_row >= 1 && (s->blocks_per_row == 1 || s->nrows == 0 || (s->partial && s->count));
  case AIJT_ELL:
    return s->width >= 0;
  case AIJT_SELL:
    return s->chunk >= 1;
  case AIJT_DIA:
    return s->width >= 0 && s->width <= AIJT_DIA_MAX_DIAGS && (!s->code || (s->table && s->codes_state));
  case AIJT_COO:
    return true;
  case AIJT_PANEL:
    return aijt_tpr_valid(s->tpr) && s->width >= 1 && s->width <= AIJT_PANEL_WIDTH && s->chunk >= 1 && s->ncols >= 0 && (s->nrows == 0 || s->partial);
  case AIJT_STREAM:
    return (s->tpr == 1 || s->tpr == 4) && s->width >= 0 && s->width <= AIJT_STREAM_MAX_LEN && s->nslots >= 0;
  case AIJT_BCSR:
    return aijt_tpr_valid(s->tpr) && s->width >= 2 && s->width <= AIJT_BCSR_MAX_BS && s->nrows % s->width == 0;
  default:
    return false;
  }
}

/* A PANEL strip: its panels, then the sums of each row's partial sums. */
cudaError_t launch_panel(const aijt_dev_strip *s, const double *x, const aijt::y_out &o, cudaStream_t stream)
{
  const int64_t np = aijt_panel_count(s->ncols, s->width);
  const int64_t g  = np * (((int64_t)s->nrows + s->chunk - 1) / s->chunk), rows = ((int64_t)s->nrows + 31) / 32;
  const size_t  smem = (size_t)s->width * sizeof(double);
  if (g > kGridXMax || rows > kGridXMax) return cudaErrorInvalidValue;
  switch (s->tpr) {
#define AIJT_PANEL_CASE(T) \
  case T: \
    aijt::panel_kernel<T><<<(unsigned)g, block_of(s->block), smem, stream>>>(*s, x); \
    break;
    AIJT_TPR_LIST(AIJT_PANEL_CASE)
#undef AIJT_PANEL_CASE
  }
  aijt::panel_sum<<<(unsigned)rows, 32 * PANEL_SUM_WARPS, 0, stream>>>(*s, o);
  return cudaGetLastError();
}

/* Blocks for one unit of work per thread (or group, or block), at least 1, capped. */
int64_t blocks_for(const aijt_dev_strip *s, unsigned block)
{
  int64_t units = s->nrows, per_block = block;
  if (s->format == AIJT_CSR) per_block = block / (unsigned)s->tpr;
  if (s->format == AIJT_LONG) units = (int64_t)s->nrows * s->blocks_per_row, per_block = 1;
  int64_t n = (units + per_block - 1) / per_block;
  return n < 1 ? 1 : n > (kGridXMax >> 5) ? (kGridXMax >> 5) : n; /* 32 capped ranges still fit */
}

/* A launch of a lone DIA strip of up to 8 diagonals (one word of codes a row: the 5- and 7-point stencils)
   runs the DIA kernel compiled for one strip, whose fields are constants: on an H200 lap2d went from 48.0 to
   41.8 us and lap3d from 48.8 to 41.2 (9-13% on an H100), and the launch passes 160 bytes instead of the whole block.
   The same kernel made box27 (27 diagonals) 5% slower and one-strip CSR plans 2-3% slower, so they keep the
   general one (bench/results/2026-11-27-one-strip-launch). */
bool one_dia_strip(const aijt::fused_args<AIJT_FUSED_MAX> &a)
{
  return a.nstrips == 1 && a.strip[0].format == AIJT_DIA && a.strip[0].width <= 8;
}

cudaError_t launch(aijt::fused_args<AIJT_FUSED_MAX> &a, unsigned block, const double *x, const aijt::y_out &o, cudaStream_t stream)
{
  bool all = false, split = false;
  if (!a.nstrips) return cudaSuccess;
  for (int s = 0; s < a.nstrips; s++) all = all || (a.strip[s].format != AIJT_DIA && a.strip[s].format != AIJT_COO), split = split || a.strip[s].nhot;
  const unsigned grid = a.first[a.nstrips];
  if (one_dia_strip(a)) {
    const aijt::fused_args<1> one = {1, {a.first[0], a.first[1]}, {a.strip[0]}};
    aijt::fused_spmv_kernel<1, false, false, false><<<grid, block, 0, stream>>>(one, x, o.z, o.y, o.scale);
  } else if (!all) aijt::fused_spmv_kernel<AIJT_FUSED_MAX, false, false, false><<<grid, block, 0, stream>>>(a, x, o.z, o.y, o.scale);
  else if (split) aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, true, false><<<grid, block, 0, stream>>>(a, x, o.z, o.y, o.scale);
  else if (dense_launch(a, grid, block)) aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, true><<<grid, block, 0, stream>>>(a, x, o.z, o.y, o.scale);
  else aijt::fused_spmv_kernel<AIJT_FUSED_MAX, true, false, false><<<grid, block, 0, stream>>>(a, x, o.z, o.y, o.scale);
  a.nstrips = 0;
  return cudaGetLastError();
}

} // namespace

extern "C" void aijt_dev_strip_init(aijt_dev_strip *d, const aijt_strip *P, const aijt_layout *S)
{
  memset(d, 0, sizeof(*d));
  d->format         = S->format;
  d->nrows          = S->nrows;
  d->nslots         = S->nslots;
  d->width          = S->width;
  d->chunk          = S->chunk;
  d->row0           = S->rows ? (S->nrows ? S->rows[0] : 0) : P->begin; /* DIA; rows on the device alone: natural order, row = position */
  d->ncols          = S->ncols;
  d->ld             = S->nrows;
  d->tpr            = P->tpr;
  d->blocks_per_row = P->blocks_per_row;
  d->block          = P->block;
}

extern "C" int aijt_dev_strip_window(const aijt_dev_strip *d, aijt_int first, aijt_int n, aijt_dev_strip *w)
{
  if (!d || !w || first < 0 || n < 0 || first > d->nrows - n) return 0;
  aijt_dev_strip v = *d;
  v.nrows          = n;
  v.row0           = d->row0 + first;
  v.nslots         = d->nrows ? (aijt_int)((int64_t)d->nslots * n / d->nrows) : 0; /* an estimate: it only picks the kernel variant */
  if (d->rows) v.rows = d->rows + first;
  if (d->row_start) v.row_start = d->row_start + first;
  switch (d->format) {
  case AIJT_LONG:
    if (d->blocks_per_row != 1) return 0; /* the parts' workspace is numbered by strip row */
    /* fall through */
  case AIJT_CSR: /* row offsets are absolute: the window's are the strip's from its first row */
    v.ptr = d->ptr + first;
    break;
  case AIJT_SELL:
    if (d->chunk < 1 || first % d->chunk) return 0;
    v.ptr = d->ptr + first / d->chunk;
    break;
  case AIJT_ELL:
    v.col = d->col + first;
    v.val = d->val + first;
    v.ld  = d->ld ? d->ld : d->nrows;
    break;
  case AIJT_DIA:
    v.val  = d->val + first;
    v.mask = d->mask + first;
    v.ld   = d->ld ? d->ld : d->nrows;
    if (d->code) v.code = d->code + (size_t)first * 8 * (size_t)aijt_dia_code_words(d->width);
    break;
  default:
    return 0;
  }
  *w = v;
  return 1;
}

extern "C" void aijt_dev_set_hot(aijt_dev_strip *strips, int nstrips, aijt_dev_coo *tail, const double *xhot, aijt_int nhot)
{
  for (int s = 0; s < nstrips; s++) strips[s].xhot = xhot, strips[s].nhot = nhot;
  tail->xhot = xhot, tail->nhot = nhot;
}

extern "C" int aijt_dev_strip_by_rows(const aijt_dev_strip *d, int column_order)
{
  switch (d->format) {
  case AIJT_DIA:
    return 1;
  case AIJT_ELL:
  case AIJT_SELL:
  case AIJT_CSR:
  case AIJT_STREAM:
  case AIJT_LONG:
    return !column_order;
  default:
    return 0;
  }
}

extern "C" int aijt_dev_strip_reads_rows(const aijt_dev_strip *d)
{
  return d->format != AIJT_DIA && d->format != AIJT_STREAM && d->format != AIJT_BCSR; /* natural order: row0 + i */
}

extern "C" size_t aijt_dev_strip_ptr_count(const aijt_dev_strip *d)
{
  switch (d->format) {
  case AIJT_CSR:
  case AIJT_LONG:
  case AIJT_BCSR:
    return (size_t)d->nrows + 1;
  case AIJT_SELL:
    return d->chunk > 0 ? (size_t)((d->nrows + d->chunk - 1) / d->chunk) + 1 : 0;
  case AIJT_DIA:
    return (size_t)d->width;
  case AIJT_PANEL:
    return d->width > 0 ? (size_t)aijt_panel_count(d->ncols, d->width) * (size_t)d->nrows + 1 : 0;
  case AIJT_STREAM: /* the row offsets, then the blocks' first rows */
    return AIJT_STREAM_PTR_COUNT(d->nrows, d->nslots);
  default:
    return 0;
  }
}

extern "C" void aijt_dev_strip_workspace(const aijt_dev_strip *d, size_t *npartial, size_t *ncount)
{
  const bool split = d->format == AIJT_LONG && d->blocks_per_row > 1;
  *npartial        = split ? (size_t)d->nrows * (size_t)d->blocks_per_row : 0;
  *ncount          = split ? (size_t)d->nrows : 0;
  if (d->format == AIJT_PANEL) *npartial = aijt_dev_strip_ptr_count(d) ? aijt_dev_strip_ptr_count(d) - 1 : 0;
}

extern "C" cudaError_t aijt_cuda_tail(const aijt_dev_coo *t, double scale, const double *x, double *y, cudaStream_t stream)
{
  if (!t || t->nnz < 0 || t->nhot < 0 || (t->nhot && !t->xhot)) return cudaErrorInvalidValue;
  if (t->nnz == 0) return cudaSuccess;
  const unsigned block = block_of(t->block);
  const int64_t  g     = ((int64_t)t->nnz + block - 1) / block; /* one entry per thread */
  return aijt::launch_coo_tail(dim3((unsigned)(g > kGridXMax ? kGridXMax : g)), block, stream, *t, x, scale, y);
}

extern "C" cudaError_t aijt_cuda_spmv(const aijt_dev_strip *strips, int nstrips, const aijt_dev_coo *t, double scale, const double *x, const double *z, double *y, cudaStream_t stream)
{
  const aijt::y_out                o = {z, y, scale};
  aijt::fused_args<AIJT_FUSED_MAX> a;
  unsigned                         block = 0;
  cudaError_t                      err;

  if (nstrips < 0 || (nstrips && !strips)) return cudaErrorInvalidValue;
  for (int s = 0; s < nstrips; s++)
    if (!strip_ok(&strips[s])) return cudaErrorInvalidValue;
  a.nstrips = 0;
  a.first[0] = 0;
  for (int s = 0; s < nstrips; s++) {
    const aijt_dev_strip *S = &strips[s];
    if (S->nrows == 0) continue;
    if (S->format == AIJT_PANEL || S->format == AIJT_STREAM || S->format == AIJT_BCSR) { /* launches of their own; strips own disjoint rows, so order is free */
      if (S->format == AIJT_PANEL) err = launch_panel(S, x, o, stream);
      else if (S->format == AIJT_STREAM) err = aijt::launch_stream(*S, x, o, stream);
      else err = aijt::launch_bcsr(*S, block_of(S->block), x, o, stream);
      if (err != cudaSuccess) return err;
      continue;
    }
    const unsigned b = block_of(S->block);
    if (a.nstrips == AIJT_FUSED_MAX || (a.nstrips && b != block)) {
      if ((err = launch(a, block, x, o, stream)) != cudaSuccess) return err;
    }
    block                    = b;
    a.strip[a.nstrips]       = *S;
    a.first[a.nstrips + 1]   = a.first[a.nstrips] + (unsigned)blocks_for(S, b);
    a.nstrips++;
  }
  if ((err = launch(a, block, x, o, stream)) != cudaSuccess) return err;
  return t ? aijt_cuda_tail(t, scale, x, y, stream) : cudaSuccess;
}

extern "C" cudaError_t aijt_cuda_strip(const aijt_dev_strip *s, double scale, const double *x, const double *z, double *y, cudaStream_t stream)
{
  if (!s) return cudaErrorInvalidValue;
  return aijt_cuda_spmv(s, 1, NULL, scale, x, z, y, stream);
}
