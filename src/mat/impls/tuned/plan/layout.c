/*
   Lay each strip of a plan out in its format.  Every slot remembers where its value came from in the
   CSR value array (src), so new values with the same pattern refill the layouts without re-planning.
*/
#include "aijtplan.h"

#include <stdlib.h>
#include <string.h>

#define AIJT_INT_MAX ((double)(sizeof(aijt_int) == 4 ? INT32_MAX : INT64_MAX))

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

static aijt_err alloc_slots(aijt_layout *S, double nslots)
{
  if (nslots > AIJT_INT_MAX) return AIJT_ERR_OVERFLOW;
  S->nslots = (aijt_int)nslots;
  S->col    = (aijt_int *)alloc_n((size_t)S->nslots, sizeof(aijt_int));
  S->val    = (double *)alloc_n((size_t)S->nslots, sizeof(double));
  S->src    = (aijt_int *)alloc_n((size_t)S->nslots, sizeof(aijt_int));
  return (S->col && S->val && S->src) ? AIJT_OK : AIJT_ERR_MEM;
}

static void put(aijt_layout *S, aijt_int slot, const aijt_csr *A, aijt_int k)
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

static aijt_err build_csr(aijt_layout *S, const aijt_csr *A)
{
  aijt_err err;
  S->ptr = (aijt_int *)alloc_n((size_t)S->nrows + 1, sizeof(aijt_int));
  if (!S->ptr) return AIJT_ERR_MEM;
  S->ptr[0] = 0;
  for (aijt_int i = 0; i < S->nrows; i++) S->ptr[i + 1] = S->ptr[i] + len_of(A, S->rows[i]);
  if ((err = alloc_slots(S, (double)S->ptr[S->nrows]))) return err;
  for (aijt_int i = 0; i < S->nrows; i++)
    for (aijt_int j = 0, k = A->rowptr[S->rows[i]]; j < len_of(A, S->rows[i]); j++, k++) put(S, S->ptr[i] + j, A, k);
  return AIJT_OK;
}

static aijt_err build_ell(aijt_layout *S, const aijt_csr *A, aijt_int width)
{
  aijt_err err;
  S->width = width;
  if ((err = alloc_slots(S, (double)S->nrows * (double)width))) return err;
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r = S->rows[i], len = len_of(A, r);
    for (aijt_int j = 0; j < width; j++) put(S, j * S->nrows + i, A, j < len ? A->rowptr[r] + j : -1);
  }
  return AIJT_OK;
}

static aijt_err build_sell(aijt_layout *S, const aijt_csr *A, int C)
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
  if ((err = alloc_slots(S, total))) return err;
  for (aijt_int s = 0; s < nslices; s++) {
    aijt_int w = (S->ptr[s + 1] - S->ptr[s]) / C;
    for (aijt_int l = 0; l < C; l++) {
      aijt_int i = s * C + l, r = i < S->nrows ? S->rows[i] : -1, len = r < 0 ? 0 : len_of(A, r);
      for (aijt_int j = 0; j < w; j++) put(S, S->ptr[s] + j * C + l, A, j < len ? A->rowptr[r] + j : -1);
    }
  }
  return AIJT_OK;
}

/* DIA: slot (d, i) at d * nrows + i holds row i's entry on diagonal offsets[d] (0.0 and a clear mask
   bit where it has none).  The strip's rows must be consecutive original rows: the kernel computes a
   row's columns from its index. */
static aijt_err build_dia(aijt_layout *S, const aijt_csr *A, aijt_int ndiag)
{
  aijt_err err;
  S->width = ndiag;
  S->ptr   = (aijt_int *)alloc_n((size_t)AIJT_DIA_MAX_DIAGS, sizeof(aijt_int));
  S->mask  = (uint32_t *)alloc_n((size_t)S->nrows, sizeof(uint32_t));
  if (!S->ptr || !S->mask) return AIJT_ERR_MEM;
  if (aijt_diagonals(A, AIJT_DIA_MAX_DIAGS, S->ptr) != ndiag) return AIJT_ERR_ARG; /* another pattern */
  for (aijt_int i = 0; i < S->nrows; i++)
    if (S->rows[i] != S->rows[0] + i) return AIJT_ERR_ARG;
  if ((err = alloc_slots(S, (double)S->nrows * (double)ndiag))) return err;
  free(S->col);
  S->col = NULL;
  for (aijt_int k = 0; k < S->nslots; k++) S->val[k] = 0.0, S->src[k] = -1;
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r = S->rows[i], d = 0;
    S->mask[i] = 0;
    for (aijt_int k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) {
      while (d < ndiag && S->ptr[d] < A->colidx[k] - r) d++; /* columns ascend, so diagonals do too */
      if (d == ndiag || S->ptr[d] != A->colidx[k] - r) return AIJT_ERR_ARG; /* unsorted or repeated columns */
      S->mask[i] |= 1u << d;
      S->src[d * S->nrows + i] = k;
      S->val[d * S->nrows + i] = A->values ? A->values[k] : 0.0;
    }
  }
  return AIJT_OK;
}

/* Entries of the strip that its own layout leaves out, appended to the tail in plan order. */
static void append_tail(aijt_coo *T, const aijt_layout *S, aijt_int width, const aijt_csr *A)
{
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r = S->rows[i];
    for (aijt_int k = A->rowptr[r] + width; k < A->rowptr[r + 1]; k++) {
      T->row[T->nnz] = r;
      T->col[T->nnz] = A->colidx[k];
      T->src[T->nnz] = k;
      T->val[T->nnz] = A->values ? A->values[k] : 0.0;
      T->nnz++;
    }
  }
}

aijt_err aijt_layouts_build(const aijt_plan *plan, const aijt_csr *A, aijt_layouts **out)
{
  aijt_layouts *L = (aijt_layouts *)calloc(1, sizeof(aijt_layouts));
  aijt_err      err = AIJT_OK;

  *out = NULL;
  if (!L) return AIJT_ERR_MEM;
  L->nrows   = plan->nrows;
  L->ncols   = plan->ncols;
  L->strips  = (aijt_layout *)calloc((size_t)plan->nstrips + 1, sizeof(aijt_layout));
  L->tail.row = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
  L->tail.col = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
  L->tail.src = (aijt_int *)alloc_n((size_t)plan->tail_nnz, sizeof(aijt_int));
  L->tail.val = (double *)alloc_n((size_t)plan->tail_nnz, sizeof(double));
  if (!L->strips || !L->tail.row || !L->tail.col || !L->tail.src || !L->tail.val) {
    err = AIJT_ERR_MEM;
    goto fail;
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
    for (aijt_int i = 0; i < S->nrows; i++) S->rows[i] = aijt_plan_row(plan, P->begin + i);
    switch (P->format) {
    case AIJT_CSR:
    case AIJT_LONG:
      err = build_csr(S, A);
      break;
    case AIJT_ELL:
      err = build_ell(S, A, P->width);
      if (!err) append_tail(&L->tail, S, P->width, A);
      break;
    case AIJT_SELL:
      sort_windows(S->rows, S->nrows, P->sigma, A);
      err = build_sell(S, A, P->chunk);
      break;
    case AIJT_COO:
      err = alloc_slots(S, 0);
      if (!err) append_tail(&L->tail, S, 0, A);
      break;
    case AIJT_DIA:
      err = build_dia(S, A, P->width);
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
  *out = L;
  return AIJT_OK;

fail:
  aijt_layouts_destroy(&L);
  return err;
}

void aijt_layouts_refresh(aijt_layouts *L, const double *values)
{
  for (int s = 0; s < L->nstrips; s++) {
    aijt_layout *S = &L->strips[s];
    for (aijt_int k = 0; k < S->nslots; k++) S->val[k] = S->src[k] < 0 ? 0.0 : values[S->src[k]];
  }
  for (aijt_int k = 0; k < L->tail.nnz; k++) L->tail.val[k] = values[L->tail.src[k]];
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
  free(*L);
  *L = NULL;
}

size_t aijt_layouts_bytes(const aijt_layouts *L)
{
  size_t bytes = (size_t)L->tail.nnz * (3 * sizeof(aijt_int) + sizeof(double));
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s];
    size_t             nptr = S->format == AIJT_SELL ? (size_t)(S->nrows + S->chunk - 1) / (size_t)S->chunk + 1 : S->format == AIJT_DIA ? (size_t)S->width : S->ptr ? (size_t)S->nrows + 1 : 0;
    bytes += (size_t)S->nrows * sizeof(aijt_int) + nptr * sizeof(aijt_int) + (size_t)S->nslots * ((S->col ? 2 : 1) * sizeof(aijt_int) + sizeof(double));
    if (S->mask) bytes += (size_t)S->nrows * sizeof(uint32_t);
  }
  return bytes;
}
