/*
   Host reference SpMV: the C twin of every kernel layout.  Each strip writes its rows once,
   y[row] = z[row] + sum (z = 0 for y = A x), summing a row's entries in column order; the COO tail
   then adds the entries the strips left out.  Padding slots (col < 0) are skipped, never multiplied,
   so an Inf or NaN in x reaches y exactly as it does through AIJ.  Beside them, the transposed product over the CSR
   itself, which seqaijtuned runs on host vectors (a CUDA base's kernel reads device arrays only).
*/
#include "aijtplan.h"

#include <string.h>

static double start(const double *z, aijt_int r)
{
  return z ? z[r] : 0.0;
}

static void ref_csr(const aijt_layout *S, const double *x, const double *z, double *y)
{
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r   = S->rows[i];
    double   sum = start(z, r);
    for (aijt_int k = S->ptr[i]; k < S->ptr[i + 1]; k++) sum += S->val[k] * x[S->col[k]];
    y[r] = sum;
  }
}

static void ref_ell(const aijt_layout *S, const double *x, const double *z, double *y)
{
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r   = S->rows[i];
    double   sum = start(z, r);
    for (aijt_int j = 0; j < S->width; j++) {
      aijt_int k = j * S->nrows + i;
      if (S->col[k] >= 0) sum += S->val[k] * x[S->col[k]];
    }
    y[r] = sum;
  }
}

static void ref_sell(const aijt_layout *S, const double *x, const double *z, double *y)
{
  aijt_int C = S->chunk;
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int s = i / C, l = i % C, w = (S->ptr[s + 1] - S->ptr[s]) / C;
    aijt_int r   = S->rows[i];
    double   sum = start(z, r);
    for (aijt_int j = 0; j < w; j++) {
      aijt_int k = S->ptr[s] + j * C + l;
      if (S->col[k] >= 0) sum += S->val[k] * x[S->col[k]];
    }
    y[r] = sum;
  }
}

/* Diagonals in ascending offset order are the row's columns in ascending order: CSR's summation order. */
static void ref_dia(const aijt_layout *S, const double *x, const double *z, double *y)
{
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r   = S->rows[i];
    double   sum = start(z, r);
    for (aijt_int d = 0; d < S->width; d++)
      if (S->mask[i] >> d & 1u) sum += S->val[(size_t)d * S->nrows + i] * x[r + S->ptr[d]];
    y[r] = sum;
  }
}

/* PANEL: a row's entries panel by panel, each in column order: CSR's summation order. */
static void ref_panel(const aijt_layout *S, const double *x, const double *z, double *y)
{
  const aijt_int np = aijt_panel_count(S->ncols, S->width);
  for (aijt_int i = 0; i < S->nrows; i++) {
    aijt_int r   = S->rows[i];
    double   sum = start(z, r);
    for (aijt_int p = 0; p < np; p++)
      for (aijt_int k = S->ptr[p * S->nrows + i]; k < S->ptr[p * S->nrows + i + 1]; k++) sum += S->val[k] * x[p * S->width + S->col[k]];
    y[r] = sum;
  }
}

/* BCSR: CSR's rows, each entry's column from its block's: CSR's summation order. */
static void ref_bcsr(const aijt_layout *S, const double *x, const double *z, double *y)
{
  const aijt_int bs = S->width;
  for (aijt_int i = 0; i < S->nrows; i++) {
    const aijt_int *bcol = S->col + S->ptr[i - i % bs] / (bs * bs);
    double          sum  = start(z, S->rows[i]);
    for (aijt_int j = 0; j < S->ptr[i + 1] - S->ptr[i]; j++) sum += S->val[S->ptr[i] + j] * x[bcol[j / bs] * bs + j % bs];
    y[S->rows[i]] = sum;
  }
}

/* A COO strip only initialises its rows; its entries are in the tail. */
static void ref_coo_rows(const aijt_layout *S, const double *z, double *y)
{
  for (aijt_int i = 0; i < S->nrows; i++) y[S->rows[i]] = start(z, S->rows[i]);
}

void aijt_ref_strip(const aijt_layout *S, const double *x, const double *z, double *y)
{
  switch (S->format) {
  case AIJT_CSR:
  case AIJT_LONG:
  case AIJT_STREAM: /* its first nrows + 1 offsets are CSR's */
    ref_csr(S, x, z, y);
    break;
  case AIJT_ELL:
    ref_ell(S, x, z, y);
    break;
  case AIJT_SELL:
    ref_sell(S, x, z, y);
    break;
  case AIJT_COO:
    ref_coo_rows(S, z, y);
    break;
  case AIJT_DIA:
    ref_dia(S, x, z, y);
    break;
  case AIJT_PANEL:
    ref_panel(S, x, z, y);
    break;
  case AIJT_BCSR:
    ref_bcsr(S, x, z, y);
    break;
  default:
    break;
  }
}

void aijt_ref_tail(const aijt_coo *T, const double *x, double *y)
{
  for (aijt_int k = 0; k < T->nnz; k++) y[T->row[k]] += T->val[k] * x[T->col[k]];
}

const double *aijt_ref_x(const aijt_layouts *L, const double *x)
{
  if (!L->hot) return x;
  for (aijt_int p = 0; p < L->nhot; p++) L->xbuf[p] = x[L->hot[p]];
  memcpy(L->xbuf + L->nhot, x, (size_t)L->ncols * sizeof(double)); /* labels nhot + c: the host's kernels take one array */
  return L->xbuf;
}

void aijt_ref_spmv(const aijt_layouts *L, const double *x, const double *z, double *y)
{
  x = aijt_ref_x(L, x);
  for (int s = 0; s < L->nstrips; s++) aijt_ref_strip(&L->strips[s], x, z, y);
  aijt_ref_tail(&L->tail, x, y);
}

void aijt_csr_spmv_transpose(const aijt_csr *A, const double *x, const double *z, double *y)
{
  if (!z) memset(y, 0, (size_t)A->ncols * sizeof(double));
  else if (z != y) memcpy(y, z, (size_t)A->ncols * sizeof(double));
  for (aijt_int i = 0; i < A->nrows; i++) {
    const double xi = x[i];
    for (aijt_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) y[A->colidx[k]] += A->values[k] * xi;
  }
}
