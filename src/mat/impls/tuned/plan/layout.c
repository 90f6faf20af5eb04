/*
   Lay each strip of a plan out in its format.  Every slot remembers where its value came from in the
   CSR value array (src), so new values with the same pattern refill the layouts without re-planning.

   A skeleton (aijt_layouts_skeleton) stops before the slots: each strip's rows, offsets and sizes, the
   tail's size and the hot columns, all from the row offsets and O(rows) work.  The GPU build
   (kernels/build.cu) fills the slots from it on the device, where the host's pass over every entry
   (and, with a column order, the sort of every row) cost 0.7 to 2.8 s per matrix on the benchmark
   machine's host (bench/results/2026-11-21-h100-colhot/raw4: lap3d, elast, rmat).
*/
#include "planbuild.h"

#include <stdlib.h>
#include <string.h>


static void *alloc_n(size_t n, size_t size)
{
  return malloc((n ? n : 1) * size);
}

static void layout_free(aijt_layout *S)
{
  free(S->rows);
  free(S->ptr);
  free(S->col);
  free(S->val);
  free(S->src);
  free(S->mask);
  memset(S, 0, sizeof(*S));
}

/* Sizes the strip's slots; a skeleton (fill 0) allocates none. */
static aijt_err alloc_slots(aijt_layout *S, double nslots, int fill)
{
  if (nslots > AIJT_INT_MAX) return AIJT_ERR_OVERFLOW;
  S->nslots = (aijt_int)nslots;
  if (!fill) return AIJT_OK;
  S->col    = (aijt_int *)alloc_n((size_t)S->nslots, sizeof(aijt_int));
  S->val    = (double *)alloc_n((size_t)S->nslots, sizeof(double));
  S->src    = (aijt_int *)alloc_n((size_t)S->nslots, sizeof(aijt_int));
  return (S->col && S->val && S->src) ? AIJT_OK : AIJT_ERR_MEM;
}

/* Slot 'slot' gets entry k of the CSR, or padding (k < 0). */
static inline void put(aijt_layout *S, aijt_int slot, const aijt_csr *A, aijt_int k)
{
  S->col[slot] = k < 0 ? -1 : A->colidx[k];
  S->src[slot] = k;
  S->val[slot] = (k < 0 || !A->values) ? 0.0 : A->values[k];
}

static aijt_int len_of(const aijt_csr *A, aijt_int r)
{
  return A->rowptr[r + 1] - A->rowptr[r];
}

/* SELL-C-sigma: within each window of sigma rows, longest first (stable), so slices pad less. */
static void sort_windows(aijt_int *rows, aijt_int n, int sigma, const aijt_csr *A)
{
  if (sigma <= 1) return;
  for (aijt_int w = 0; w < n; w += sigma) {
    aijt_int e = w + sigma < n ? w + sigma : n;
    for (aijt_int i = w + 1; i < e; i++) { /* insertion sort: stable, windows are small */
      aijt_int r = rows[i], j = i;
      while (j > w && len_of(A, rows[j - 1]) < len_of(A, r)) {
        rows[j] = rows[j - 1];
        j--;
      }
      rows[j] = r;
    }
  }
}

/* A sorted strip's rows lie all over the CSR, and each costs cache misses for its offsets, columns and
   values that the hardware cannot foresee.  Asked for a block of rows ahead (their columns and values,
   and the offsets of the block after), they arrive while the current block is stored: R-MAT's SELL strip
   of 594k rows, 232 ms to 172 on the benchmark machine.  Inlined by force: a prefetch is no side effect
   to GCC, which otherwise finds this function without any and deletes its calls. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void prefetch_rows(const aijt_layout *S, const aijt_csr *A, aijt_int i0, aijt_int i1)
{
#if defined(__GNUC__)
  const aijt_int ahead = i1 - i0;
  if (i1 > S->nrows) i1 = S->nrows;
  if (i0 >= i1) return;
  /* rows that follow each other closely in the CSR (natural order, or runs of rows of one length in
     random's uniform rows) stream in without help, and asking costs loads (random's build, 4%) */
  if (S->rows[i1 - 1] >= S->rows[i0] && S->rows[i1 - 1] - S->rows[i0] < 4 * (i1 - i0)) return;
  for (aijt_int i = i0; i < i1; i++) {
    if (i + ahead < S->nrows) __builtin_prefetch(&A->rowptr[S->rows[i + ahead]]);
    __builtin_prefetch(&A->colidx[A->rowptr[S->rows[i]]]);
    if (A->values) __builtin_prefetch(&A->values[A->rowptr[S->rows[i]]]);
  }
#else
  (void)S, (void)A, (void)i0, (void)i1;
#endif
}

#define AHEAD_ROWS 32 /* rows of a CSR strip asked for ahead (SELL: a slice, ELL: a block) */

/* Entries [a, a + n) of the CSR into slots [p, p + n), in the CSR's order: one loop for the three
   arrays, which vectorizes (three memcpy-like passes were slower into fresh pages: lp's LONG strip of
   3500-entry rows 127 ms against 104). */
static void copy_entries(aijt_layout *S, aijt_int p, const aijt_csr *A, aijt_int a, aijt_int n)
{
  aijt_int       *col = S->col + p, *src = S->src + p;
  double         *val = S->val + p;
  const aijt_int *c   = A->colidx + a;
  const double   *v   = A->values ? A->values + a : NULL;

  if (v)
    for (aijt_int j = 0; j < n; j++) col[j] = c[j], val[j] = v[j], src[j] = a + j;
  else
    for (aijt_int j = 0; j < n; j++) col[j] = c[j], val[j] = 0.0, src[j] = a + j;
}

/* Rows in a CSR strip follow each other as in the CSR, so consecutive original rows (all of a strip in
   natural order, and the many rows of one length that sorting leaves in place) are one copy. */
static aijt_err build_csr(aijt_layout *S, const aijt_csr *A, int fill)
{
  aijt_err err;
  S->ptr = (aijt_int *)alloc_n((size_t)S->nrows + 1, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  S->ptr[0] = 0;
  for (aijt_int i = 0; i < S->nrows; i++) S->ptr[i + 1] = S->ptr[i] + len_of(A, S->rows[i]);
  if ((err = alloc_slots(S, (double)S->ptr[S->nrows], fill)) || !fill) return err;
  for (aijt_int i = 0, asked = 0; i < S->nrows;) {
    aijt_int e = i + 1;
    if (i >= asked) { /* the next rows, a block at a time */
      prefetch_rows(S, A, i + AHEAD_ROWS, i + 2 * AHEAD_ROWS);
      asked = i + AHEAD_ROWS;
    }
    while (e < S->nrows && S->rows[e] == S->rows[e - 1] + 1) e++;
    copy_entries(S, S->ptr[i], A, A->rowptr[S->rows[i]], A->rowptr[S->rows[e - 1] + 1] - A->rowptr[S->rows[i]]);
    i = e;
  }
  return AIJT_OK;
}

/* STREAM: CSR's slots, and after the row offsets each thread block's first row: block b takes the rows
   whose first slot lies in [b, b + 1) * AIJT_STREAM_SHARE (by bisection; the last start is nrows). */
static aijt_err build_stream(aijt_layout *S, const aijt_csr *A, int fill)
{
  aijt_int *ptr;
  int64_t   nb;
  aijt_err  err;

  if ((err = build_csr(S, A, fill))) return err;
  nb = AIJT_STREAM_BLOCKS((int64_t)S->nslots);
  if ((double)S->nrows + (double)nb + 2 > AIJT_INT_MAX) return AIJT_ERR_OVERFLOW;
  if (!(ptr = (aijt_int *)realloc(S->ptr, AIJT_STREAM_PTR_COUNT(S->nrows, S->nslots) * sizeof(aijt_int)))) return AIJT_ERR_MEM;
  S->ptr   = ptr;
  S->width = 0;
  for (aijt_int i = 0; i < S->nrows; i++) S->width = ptr[i + 1] - ptr[i] > S->width ? ptr[i + 1] - ptr[i] : S->width;
  if (S->width > AIJT_STREAM_MAX_LEN) return AIJT_ERR_ARG; /* the plan was made for another pattern */
  for (int64_t b = 0; b < nb; b++) {
    const int64_t key = b * AIJT_STREAM_SHARE;
    aijt_int      lo = 0, hi = S->nrows; /* the first row whose offset is at least key */
    while (lo < hi) {
      aijt_int mid = lo + (hi - lo) / 2;
      if (ptr[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    ptr[S->nrows + 1 + b] = lo;
  }
  ptr[S->nrows + 1 + nb] = S->nrows;
  return AIJT_OK;
}

/* BCSR: CSR's row offsets and slots (values and their sources), and one column per block: block row
   b's blocks, read from its first row, are col[ptr[b * bs] / bs^2 ...] (aijt_blocks_exact holds, or the
   plan was made for another pattern).  The strip is the whole matrix in natural order. */
static aijt_err build_bcsr(aijt_layout *S, const aijt_csr *A, aijt_int bs, int fill)
{
  aijt_err err;

  S->width = bs;
  if (bs < 2 || bs > AIJT_BCSR_MAX_BS || S->nrows != A->nrows || !aijt_blocks_exact(A, (int)bs)) return AIJT_ERR_ARG;
  S->ptr = (aijt_int *)alloc_n((size_t)S->nrows + 1, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  memcpy(S->ptr, A->rowptr, ((size_t)S->nrows + 1) * sizeof(aijt_int));
  if ((err = alloc_slots(S, (double)A->rowptr[A->nrows], fill)) || !fill) return err;
  for (aijt_int k = 0; k < S->nslots; k++) S->val[k] = A->values ? A->values[k] : 0.0, S->src[k] = k;
  for (aijt_int r0 = 0; r0 < S->nrows; r0 += bs)
    for (aijt_int j = 0; j < S->ptr[r0 + 1] - S->ptr[r0]; j += bs) S->col[S->ptr[r0] / (bs * bs) + j / bs] = A->colidx[S->ptr[r0] + j] / bs;
  return AIJT_OK;
}

/* Where the strip's rows [i0, i0 + n) start in the CSR, and their lengths. */
static void row_spans(const aijt_layout *S, const aijt_csr *A, aijt_int i0, aijt_int n, aijt_int *start, aijt_int *len)
{
  for (aijt_int i = 0; i < n; i++) {
    start[i] = A->rowptr[S->rows[i0 + i]];
    len[i]   = A->rowptr[S->rows[i0 + i] + 1] - start[i];
  }
}

/* Column-major slots (j * nrows + i) are stored for blocks of rows, slot column after slot column: the
   stores run in sequence and a block's rows stay in cache (row by row, every store of a row went to
   another cache line). */
#define BLOCK_ROWS 64

static aijt_err build_ell(aijt_layout *S, const aijt_csr *A, aijt_int width, int fill)
{
  aijt_int start[BLOCK_ROWS], len[BLOCK_ROWS];
  aijt_err err;

  S->width = width;
  if ((err = alloc_slots(S, (double)S->nrows * (double)width, fill)) || !fill) return err;
  for (aijt_int i0 = 0; i0 < S->nrows; i0 += BLOCK_ROWS) {
    aijt_int n = S->nrows - i0 < BLOCK_ROWS ? S->nrows - i0 : BLOCK_ROWS;
    prefetch_rows(S, A, i0 + BLOCK_ROWS, i0 + 2 * BLOCK_ROWS);
    row_spans(S, A, i0, n, start, len);
    for (aijt_int j = 0; j < width; j++)
      for (aijt_int i = 0; i < n; i++) put(S, j * S->nrows + i0 + i, A, j < len[i] ? start[i] + j : -1);
  }
  return AIJT_OK;
}

static aijt_err build_sell(aijt_layout *S, const aijt_csr *A, int C, int fill)
{
  aijt_int nslices = (S->nrows + C - 1) / C;
  double   total   = 0;
  aijt_err err;

  S->chunk = C;
  S->ptr   = (aijt_int *)alloc_n((size_t)nslices + 1, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  S->ptr[0] = 0;
  for (aijt_int s = 0; s < nslices; s++) {
    aijt_int w = 0;
    for (aijt_int i = s * C; i < (s + 1) * C && i < S->nrows; i++)
      if (len_of(A, S->rows[i]) > w) w = len_of(A, S->rows[i]);
    total += (double)w * C;
    if (total > AIJT_INT_MAX) return AIJT_ERR_OVERFLOW;
    S->ptr[s + 1] = S->ptr[s] + w * C;
  }
  if ((err = alloc_slots(S, total, fill)) || !fill) return err;
  /* row by row: a slice's slots stay in cache while its rows are read in sequence (column after column,
     with 32 rows' reads at a time, elast's build was 50% slower) */
  for (aijt_int s = 0; s < nslices; s++) {
    aijt_int w = (S->ptr[s + 1] - S->ptr[s]) / C;
    prefetch_rows(S, A, (s + 1) * C, (s + 2) * C);
    for (aijt_int l = 0; l < C; l++) {
      aijt_int i = s * C + l, r = i < S->nrows ? S->rows[i] : -1, len = r < 0 ? 0 : len_of(A, r);
      for (aijt_int j = 0; j < w; j++) put(S, S->ptr[s] + j * C + l, A, j < len ? A->rowptr[r] + j : -1);
    }
  }
  return AIJT_OK;
}

/* DIA: slot (d, i) at d * nrows + i holds row i's entry on diagonal offsets[d] (0.0 and a clear mask
   bit where it has none).  The strip's rows must be consecutive original rows: the kernel computes a
   row's columns from its index.  Each slot is stored once, row by row, as the row's entries meet the
   ascending diagonals. */
static aijt_err build_dia(aijt_layout *S, const aijt_csr *A, aijt_int ndiag, int fill)
{
  const double *v = A->values;
  aijt_err      err;

  S->width = ndiag;
  S->ptr   = (aijt_int *)alloc_n((size_t)AIJT_DIA_MAX_DIAGS, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  /* the plan counted ndiag diagonals: the first ndiag met are all of them, or the pattern is another
     and the fill below meets an entry off them (one pass over the columns less: 11 ms of lap2d's build) */
  if (ndiag > AIJT_DIA_MAX_DIAGS || aijt_diagonals_first(A, (int)ndiag, S->ptr) != ndiag) return AIJT_ERR_ARG;
  if ((err = alloc_slots(S, (double)S->nrows * (double)ndiag, fill))) return err;
  for (aijt_int i = 0; i < S->nrows; i++)
    if (S->rows[i] != S->rows[0] + i) return AIJT_ERR_ARG; /* the kernel finds a row's columns from its index */
  if (!fill) return AIJT_OK;
  free(S->col);
  S->col  = NULL;
  S->mask = (uint32_t *)alloc_n((size_t)S->nrows, sizeof(uint32_t));
  if (!S->mask) return AIJT_ERR_MEM;
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r = S->rows[i], k = A->rowptr[r], end = A->rowptr[r + 1];
    uint32_t m = 0;
    for (aijt_int d = 0; d < ndiag; d++) {
      aijt_int slot = d * S->nrows + i;
      S->src[slot]  = -1;
      S->val[slot]  = 0.0;
      for (; k < end && A->colidx[k] - r == S->ptr[d]; k++) { /* a repeated column refills the slot */
        m |= 1u << d;
        S->src[slot] = k;
        S->val[slot] = v ? v[k] : 0.0;
      }
    }
    if (k < end) return AIJT_ERR_ARG; /* an entry off the diagonals, or columns out of order */
    S->mask[i] = m;
  }
  return AIJT_OK;
}

/* PANEL: the rows panel by panel: slots of panel p and strip row i are [ptr[p * nrows + i],
   ptr[p * nrows + i + 1]), columns relative to the panel.  A row's entries are sorted by column, so its
   part in each panel is the next run of them.  The offsets come from one pass over the columns (a
   skeleton's too: the GPU build, kernels/build.cu, fills the slots from them); the entries are then
   copied a block of PANEL_BUILD_ROWS rows at a time, panel after panel, with a cursor per row: the
   block's rows' parts in one panel are neighbours in the layout, and the block's rows stay few enough
   for the TLB (entry by entry into 700k places was 333 ms on lp, a cursor over all 4096 rows per panel
   255 ms). */
#define PANEL_BUILD_ROWS 64

static aijt_err build_panel(aijt_layout *S, const aijt_csr *A, const aijt_strip *P, int fill)
{
  const aijt_int np = aijt_panel_count(A->ncols, P->width), n = S->nrows;
  aijt_int       cur[PANEL_BUILD_ROWS];
  aijt_err       err;

  S->width = P->width;
  S->chunk = P->chunk;
  S->ncols = A->ncols;
  if ((double)np * (double)n + 1 > AIJT_INT_MAX) return AIJT_ERR_OVERFLOW;
  S->ptr = (aijt_int *)calloc((size_t)(np * n) + 1, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  for (aijt_int i = 0; i < n; i++)
    for (aijt_int k = A->rowptr[S->rows[i]]; k < A->rowptr[S->rows[i] + 1]; k++) S->ptr[(A->colidx[k] / P->width) * n + i + 1]++;
  for (aijt_int q = 0; q < np * n; q++) S->ptr[q + 1] += S->ptr[q];
  if (S->ptr[np * n] != P->nnz) return AIJT_ERR_ARG; /* the plan was made for another pattern */
  if ((err = alloc_slots(S, (double)P->nnz, fill)) || !fill) return err;
  for (aijt_int i0 = 0; i0 < n; i0 += PANEL_BUILD_ROWS) {
    const aijt_int i1 = n - i0 < PANEL_BUILD_ROWS ? n : i0 + PANEL_BUILD_ROWS;
    for (aijt_int i = i0; i < i1; i++) cur[i - i0] = A->rowptr[S->rows[i]];
    for (aijt_int p = 0; p < np; p++)
      for (aijt_int i = i0; i < i1; i++) {
        const aijt_int q = S->ptr[p * n + i], len = S->ptr[p * n + i + 1] - q;
        copy_entries(S, q, A, cur[i - i0], len);
        for (aijt_int j = q; j < q + len; j++) S->col[j] -= p * P->width;
        cur[i - i0] += len;
      }
  }
  return AIJT_OK;
}

/* Entries of the strip that its own layout leaves out, appended to the tail in plan order (a skeleton,
   whose tail has no arrays, counts them). */
static void append_tail(aijt_coo *T, const aijt_layout *S, aijt_int width, const aijt_csr *A)
{
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r = S->rows[i];
    if (!T->row) {
      T->nnz += len_of(A, r) > width ? len_of(A, r) - width : 0;
      continue;
    }
    for (aijt_int k = A->rowptr[r] + width; k < A->rowptr[r + 1]; k++) {
      T->row[T->nnz] = r;
      T->col[T->nnz] = A->colidx[k];
      T->src[T->nnz] = k;
      T->val[T->nnz] = A->values ? A->values[k] : 0.0;
      T->nnz++;
    }
  }
}

/* The strip's original rows: its positions in the plan's order. */
static void strip_rows(aijt_layout *S, const aijt_plan *plan, const aijt_strip *P)
{
  if (plan->order) memcpy(S->rows, plan->order + P->begin, (size_t)S->nrows * sizeof(aijt_int));
  else
    for (aijt_int i = 0; i < S->nrows; i++) S->rows[i] = P->begin + i;
}

typedef struct {
  aijt_int col, src;
  double   val;
} slot_entry;

/* e[0..n) by column (distinct): quicksort on the middle element, insertion sort below 24 entries.
   rmat's layouts took 2.5 s with qsort's comparator calls, 1.5 s with this, 0.4 s unsorted
   (bench/results/2026-11-21-host-colorder-sort). */
static void sort_by_col(slot_entry *e, aijt_int n)
{
  while (n > 24) {
    const aijt_int pivot = e[n / 2].col;
    aijt_int       i = 0, j = n - 1;
    while (i <= j) {
      while (e[i].col < pivot) i++;
      while (e[j].col > pivot) j--;
      if (i <= j) {
        slot_entry t = e[i];
        e[i++] = e[j], e[j--] = t;
      }
    }
    if (j + 1 < n - i) { /* recurse into the smaller side, loop on the larger: depth O(log n) */
      sort_by_col(e, j + 1);
      e += i, n -= i;
    } else {
      sort_by_col(e + i, n - i);
      n = j + 1;
    }
  }
  for (aijt_int q = 1; q < n; q++) {
    slot_entry t = e[q];
    aijt_int   u = q;
    for (; u > 0 && e[u - 1].col > t.col; u--) e[u] = e[u - 1];
    e[u] = t;
  }
}

/* The entries in slots at[0..n) (one row's): each column c becomes its label (aijt_col_label), and the
   entries are reordered by it. */
static void relabel_row(aijt_layout *S, const aijt_int *at, aijt_int n, const aijt_int *pos, aijt_int nhot, slot_entry *e)
{
  for (aijt_int q = 0; q < n; q++) e[q].col = aijt_col_label(pos, nhot, S->col[at[q]]), e[q].src = S->src[at[q]], e[q].val = S->val[at[q]];
  sort_by_col(e, n); /* columns are distinct: no stability to keep */
  for (aijt_int q = 0; q < n; q++) S->col[at[q]] = e[q].col, S->src[at[q]] = e[q].src, S->val[at[q]] = e[q].val;
}

/* The slots of strip row i that hold entries, in slot order (padding, col < 0, ends a row). */
static aijt_int row_slots(const aijt_layout *S, aijt_int i, aijt_int *at)
{
  aijt_int n = 0;
  switch (S->format) {
  case AIJT_CSR:
  case AIJT_LONG:
    for (aijt_int k = S->ptr[i]; k < S->ptr[i + 1]; k++) at[n++] = k;
    break;
  case AIJT_ELL:
    for (aijt_int j = 0; j < S->width && S->col[j * S->nrows + i] >= 0; j++) at[n++] = j * S->nrows + i;
    break;
  case AIJT_SELL: {
    const aijt_int s = i / S->chunk, l = i % S->chunk, w = (S->ptr[s + 1] - S->ptr[s]) / S->chunk;
    for (aijt_int j = 0; j < w && S->col[S->ptr[s] + j * S->chunk + l] >= 0; j++) at[n++] = S->ptr[s] + j * S->chunk + l;
  } break;
  default:
    break;
  }
  return n;
}

/* A plan with a column order: every column index becomes its label (hot columns first, by degree),
   and each row's entries (padding stays where it is) are reordered by it, so that the lanes of a warp
   reading the rows' first slots all read the popular columns, which now share sectors: rmat 310.7 ->
   302.1 us on an H100 (aijcusparse 306-308; bench/results/2026-11-21-h100-colorder).  Rows then sum in
   another order than the CSR's. */
static aijt_err relabel_columns(aijt_layouts *L, const aijt_plan *plan, int fill)
{
  const aijt_int *pos = plan->col_pos;
  aijt_int       *at  = NULL, longest = 0;
  slot_entry     *e   = NULL;
  aijt_err        err = AIJT_OK;

  L->nhot = plan->col_hot;
  L->hot  = (aijt_int *)alloc_n((size_t)L->nhot, sizeof(aijt_int));
  if (!L->hot) return AIJT_ERR_MEM;
  for (aijt_int c = 0; c < plan->ncols; c++)
    if (pos[c] < L->nhot) L->hot[pos[c]] = c;
  for (int s = 0; s < L->nstrips; s++)
    if (AIJT_WHOLE_FORMAT(L->strips[s].format)) return AIJT_ERR_ARG; /* their columns come from rows, or are x's */
  if (!fill) return AIJT_OK;
  L->xbuf = (double *)alloc_n((size_t)L->nhot + (size_t)L->ncols, sizeof(double));
  if (!L->xbuf) return AIJT_ERR_MEM;
  for (int s = 0; s < plan->nstrips; s++) longest = plan->strips[s].max_len > longest ? plan->strips[s].max_len : longest;
  at = (aijt_int *)alloc_n((size_t)longest, sizeof(aijt_int));
  e  = (slot_entry *)alloc_n((size_t)longest, sizeof(slot_entry));
  if (!at || !e) err = AIJT_ERR_MEM;
  for (int s = 0; s < L->nstrips && !err; s++) {
    aijt_layout *S = &L->strips[s];
    for (aijt_int i = 0; i < S->nrows && !err; i++) relabel_row(S, at, row_slots(S, i, at), pos, L->nhot, e);
  }
  for (aijt_int k = 0; k < L->tail.nnz && !err; k++) L->tail.col[k] = aijt_col_label(pos, L->nhot, L->tail.col[k]);
  free(at);
  free(e);
  return err;
}

/* The layouts of the plan: every slot (fill 1), or the skeleton (fill 0). */
static aijt_err layouts_make(const aijt_plan *plan, const aijt_csr *A, int fill, aijt_layouts **out)
{
  aijt_layouts *L = (aijt_layouts *)calloc(1, sizeof(aijt_layouts));
  aijt_err      err = AIJT_OK;

  *out = NULL;
  if (!L) return AIJT_ERR_MEM;
  L->nrows  = plan->nrows;
  L->ncols  = plan->ncols;
  L->filled = fill;
  L->strips = (aijt_layout *)calloc((size_t)plan->nstrips + 1, sizeof(aijt_layout));
  if (!L->strips) {
    err = AIJT_ERR_MEM;
    goto fail;
  }
  if (fill) {
    L->tail.row = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
    L->tail.col = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
    L->tail.src = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
    L->tail.val = (double *)alloc_n((size_t)plan->tail_nnz, sizeof(double));
    if (!L->tail.row || !L->tail.col || !L->tail.src || !L->tail.val) {
      err = AIJT_ERR_MEM;
      goto fail;
    }
  }
  for (int s = 0; s < plan->nstrips; s++) {
    const aijt_strip *P = &plan->strips[s];
    aijt_layout      *S = &L->strips[s];
    L->nstrips          = s + 1;
    S->format           = P->format;
    S->nrows            = P->end - P->begin;
    S->rows             = (aijt_int *)alloc_n((size_t)S->nrows, sizeof(aijt_int));
    if (!S->rows) {
      err = AIJT_ERR_MEM;
      goto fail;
    }
    strip_rows(S, plan, P);
    switch (P->format) {
    case AIJT_CSR:
    case AIJT_LONG:
      err = build_csr(S, A, fill);
      break;
    case AIJT_ELL:
      err = build_ell(S, A, P->width, fill);
      if (!err) append_tail(&L->tail, S, P->width, A);
      break;
    case AIJT_SELL:
      sort_windows(S->rows, S->nrows, P->sigma, A);
      err = build_sell(S, A, P->chunk, fill);
      break;
    case AIJT_COO:
      err = alloc_slots(S, 0, fill);
      if (!err) append_tail(&L->tail, S, 0, A);
      break;
    case AIJT_DIA:
      err = build_dia(S, A, P->width, fill);
      break;
    case AIJT_PANEL:
      err = build_panel(S, A, P, fill);
      break;
    case AIJT_STREAM:
      err = build_stream(S, A, fill);
      break;
    case AIJT_BCSR:
      err = build_bcsr(S, A, P->width, fill);
      break;
    default:
      err = AIJT_ERR_FORMAT;
    }
    if (err) goto fail;
  }
  if (L->tail.nnz != plan->tail_nnz) {
    err = AIJT_ERR_ARG; /* the plan was made for another pattern */
    goto fail;
  }
  if (plan->col_pos && (err = relabel_columns(L, plan, fill))) goto fail;
  *out = L;
  return AIJT_OK;

fail:
  aijt_layouts_destroy(&L);
  return err;
}

aijt_err aijt_layouts_build(const aijt_plan *plan, const aijt_csr *A, aijt_layouts **L)
{
  return layouts_make(plan, A, 1, L);
}

aijt_err aijt_layouts_skeleton(const aijt_plan *plan, const aijt_csr *A, aijt_layouts **L)
{
  return layouts_make(plan, A, 0, L);
}

int aijt_layouts_rows_elsewhere(const aijt_layouts *L)
{
  for (int s = 0; s < L->nstrips; s++)
    if (!L->strips[s].rows && L->strips[s].nrows) return 1;
  return 0;
}

int aijt_layouts_sized_ok(const aijt_plan *plan)
{
  for (int s = 0; s < plan->nstrips; s++) {
    const aijt_strip *P = &plan->strips[s];
    if ((P->format == AIJT_SELL && !plan->sorted && P->sigma > 1) || (P->format == AIJT_DIA && plan->sorted)) return 0;
  }
  return 1;
}

aijt_err aijt_layouts_skeleton_sized(const aijt_plan *plan, const aijt_csr *A, const int64_t *sell_slots, aijt_layouts **out)
{
  aijt_layouts *L;

  *out = NULL;
  if (!aijt_layouts_sized_ok(plan)) return AIJT_ERR_FORMAT;
  if (!(L = (aijt_layouts *)calloc(1, sizeof(aijt_layouts)))) return AIJT_ERR_MEM;
  L->nrows    = plan->nrows;
  L->ncols    = plan->ncols;
  L->tail.nnz = plan->tail_nnz;
  L->nhot     = plan->col_hot;
  L->strips   = (aijt_layout *)calloc((size_t)plan->nstrips + 1, sizeof(aijt_layout));
  if (!L->strips) {
    free(L);
    return AIJT_ERR_MEM;
  }
  L->nstrips = plan->nstrips;
  for (int s = 0; s < plan->nstrips; s++) {
    const aijt_strip *P = &plan->strips[s];
    aijt_layout      *S = &L->strips[s];
    double            slots;
    S->format = P->format;
    S->nrows  = P->end - P->begin;
    switch (P->format) {
    case AIJT_CSR:
    case AIJT_LONG:
      slots = (double)P->nnz;
      break;
    case AIJT_ELL:
      S->width = P->width;
      slots    = (double)S->nrows * (double)P->width;
      break;
    case AIJT_SELL:
      S->chunk = P->chunk;
      slots    = (double)sell_slots[s];
      break;
    case AIJT_COO:
      slots = 0;
      break;
    case AIJT_STREAM: /* the launch's shared memory holds the longest row: the plan's (the GPU build checks it) */
      if (P->max_len > AIJT_STREAM_MAX_LEN) {
        aijt_layouts_destroy(&L);
        return AIJT_ERR_ARG;
      }
      S->width = P->max_len;
      slots    = (double)P->nnz;
      break;
    case AIJT_BCSR: /* CSR's offsets (the device's copy of them); the GPU build checks the blocks */
      S->width = P->width;
      slots    = (double)P->nnz;
      break;
    case AIJT_PANEL: /* its offsets count every entry: the device's (kernels/skeleton.cu) */
      S->width = P->width;
      S->chunk = P->chunk;
      S->ncols = plan->ncols;
      if ((double)aijt_panel_count(plan->ncols, P->width) * (double)S->nrows + 1 > AIJT_INT_MAX) {
        aijt_layouts_destroy(&L);
        return AIJT_ERR_OVERFLOW;
      }
      slots = (double)P->nnz;
      break;
    case AIJT_DIA: /* its offsets, from the first rows that hold them all (natural order: row = position) */
      S->width = P->width;
      S->ptr   = (aijt_int *)alloc_n((size_t)AIJT_DIA_MAX_DIAGS, sizeof(aijt_int));
      if (!S->ptr || P->width > AIJT_DIA_MAX_DIAGS || aijt_diagonals_first(A, (int)P->width, S->ptr) != P->width) {
        aijt_err err = S->ptr ? AIJT_ERR_ARG : AIJT_ERR_MEM;
        aijt_layouts_destroy(&L);
        return err;
      }
      slots = (double)S->nrows * (double)P->width;
      break;
    default:
      aijt_layouts_destroy(&L);
      return AIJT_ERR_FORMAT;
    }
    if (slots > AIJT_INT_MAX) {
      aijt_layouts_destroy(&L);
      return AIJT_ERR_OVERFLOW;
    }
    S->nslots = (aijt_int)slots;
  }
  *out = L;
  return AIJT_OK;
}

/* Slots [k0, k1) from their sources; padding (src < 0) only where the format has any. */
static void refill(double *val, const aijt_int *src, aijt_int k0, aijt_int k1, const double *values, int padded)
{
  if (padded)
    for (aijt_int k = k0; k < k1; k++) val[k] = src[k] < 0 ? 0.0 : values[src[k]];
  else
    for (aijt_int k = k0; k < k1; k++) val[k] = values[src[k]];
}

/* Column-major strips (ELL, DIA) are refilled for blocks of rows, all their columns each: a row's
   entries are neighbours in the value array, and a block's stay in cache across its columns (column by
   column over all rows, box27's 27 diagonals read the value array 27 times). */
#define REFRESH_ROWS 1024

void aijt_layouts_refresh(aijt_layouts *L, const double *values)
{
  if (!L->filled) return; /* a skeleton holds no values */
  for (int s = 0; s < L->nstrips; s++) {
    aijt_layout *S = &L->strips[s];
    if ((S->format == AIJT_ELL || S->format == AIJT_DIA) && S->width > 1)
      for (aijt_int i0 = 0; i0 < S->nrows; i0 += REFRESH_ROWS) {
        aijt_int i1 = S->nrows - i0 < REFRESH_ROWS ? S->nrows : i0 + REFRESH_ROWS;
        for (aijt_int j = 0; j < S->width; j++) refill(S->val, S->src, j * S->nrows + i0, j * S->nrows + i1, values, 1);
      }
    else refill(S->val, S->src, 0, S->nslots, values, S->format != AIJT_CSR && S->format != AIJT_LONG && S->format != AIJT_PANEL && S->format != AIJT_STREAM && S->format != AIJT_BCSR);
  }
  refill(L->tail.val, L->tail.src, 0, L->tail.nnz, values, 0);
}

void aijt_layouts_destroy(aijt_layouts **L)
{
  if (!L || !*L) return;
  for (int s = 0; s < (*L)->nstrips; s++) layout_free(&(*L)->strips[s]);
  free((*L)->strips);
  free((*L)->tail.row);
  free((*L)->tail.col);
  free((*L)->tail.val);
  free((*L)->tail.src);
  free((*L)->hot);
  free((*L)->xbuf);
  free(*L);
  *L = NULL;
}

size_t aijt_layout_ptr_count(const aijt_layout *S)
{
  switch (S->format) {
  case AIJT_SELL:
    return (size_t)(S->nrows + S->chunk - 1) / (size_t)S->chunk + 1;
  case AIJT_DIA:
    return (size_t)S->width;
  case AIJT_PANEL:
    return (size_t)aijt_panel_count(S->ncols, S->width) * (size_t)S->nrows + 1;
  case AIJT_CSR:
  case AIJT_LONG:
  case AIJT_BCSR:
    return (size_t)S->nrows + 1;
  case AIJT_STREAM:
    return AIJT_STREAM_PTR_COUNT(S->nrows, S->nslots);
  default:
    return 0;
  }
}

size_t aijt_layout_col_count(const aijt_layout *S)
{
  if (S->format == AIJT_DIA) return 0;
  if (S->format == AIJT_BCSR) return S->width > 0 ? (size_t)S->nslots / ((size_t)S->width * (size_t)S->width) : 0;
  return (size_t)S->nslots;
}

size_t aijt_layouts_bytes(const aijt_layouts *L)
{
  size_t bytes = (size_t)L->tail.nnz * (3 * sizeof(aijt_int) + sizeof(double)) + (size_t)L->nhot * sizeof(aijt_int);
  for (int s = 0; s < L->nstrips; s++) { /* by format, so that a skeleton counts what its slots will take */
    const aijt_layout *S = &L->strips[s];
    size_t             nptr = aijt_layout_ptr_count(S);
    bytes += (size_t)S->nrows * sizeof(aijt_int) + (nptr + aijt_layout_col_count(S)) * sizeof(aijt_int) + (size_t)S->nslots * (sizeof(aijt_int) + sizeof(double));
    if (S->format == AIJT_DIA) bytes += (size_t)S->nrows * sizeof(uint32_t);
  }
  return bytes;
}
