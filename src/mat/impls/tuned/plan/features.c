/* Features of a CSR matrix that the planner reads: row lengths, their statistics, and the order by length. */
#include "planbuild.h"

#include <math.h>
#include <stdlib.h>

aijt_err aijt_csr_check(const aijt_csr *A)
{
  if (!A || A->nrows < 0 || A->ncols < 0) return AIJT_ERR_ARG;
  if (A->nrows > 0 && (!A->rowptr || A->rowptr[0] != 0)) return AIJT_ERR_ARG;
  for (aijt_int i = 0; i < A->nrows; i++)
    if (A->rowptr[i + 1] < A->rowptr[i]) return AIJT_ERR_ARG;
  aijt_int nnz = A->nrows ? A->rowptr[A->nrows] : 0;
  for (aijt_int k = 0; k < nnz; k++)
    if (A->colidx[k] < 0 || A->colidx[k] >= A->ncols) return AIJT_ERR_ARG;
  return AIJT_OK;
}

void aijt_features_compute(const aijt_csr *A, aijt_features *f)
{
  double sum = 0, sum2 = 0;

  f->nrows      = A->nrows;
  f->nnz        = A->nrows ? A->rowptr[A->nrows] : 0;
  f->min_len    = 0;
  f->max_len    = 0;
  f->empty_rows = 0;
  for (aijt_int i = 0; i < A->nrows; i++) {
    aijt_int len = A->rowptr[i + 1] - A->rowptr[i];
    if (i == 0 || len < f->min_len) f->min_len = len;
    if (len > f->max_len) f->max_len = len;
    if (!len) f->empty_rows++;
    sum += (double)len;
    sum2 += (double)len * (double)len;
  }
  f->mean_len = A->nrows ? sum / (double)A->nrows : 0.0;
  f->std_len  = A->nrows ? sqrt(fmax(0.0, sum2 / (double)A->nrows - f->mean_len * f->mean_len)) : 0.0;
}

aijt_err aijt_length_counts(const aijt_csr *A, aijt_int max_len, aijt_int **count)
{
  aijt_int *c = (aijt_int *)calloc((size_t)max_len + 1, sizeof(aijt_int));

  *count = c;
  if (!c) return AIJT_ERR_MEM;
  for (aijt_int i = 0; i < A->nrows; i++) c[A->rowptr[i + 1] - A->rowptr[i]]++;
  return AIJT_OK;
}

/* Counting sort on length, longest first; stable, so rows of equal length keep their order. O(nrows + max_len). */
aijt_err aijt_order_from_counts(const aijt_csr *A, aijt_int max_len, const aijt_int *count, aijt_int **order)
{
  aijt_int  n     = A->nrows;
  aijt_int *start = (aijt_int *)malloc(((size_t)max_len + 1) * sizeof(aijt_int));
  aijt_int *out   = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));

  *order = NULL;
  if (!start || !out) {
    free(start);
    free(out);
    return AIJT_ERR_MEM;
  }
  /* rows of length len start after every longer row */
  for (aijt_int len = max_len, at = 0; len >= 0; len--) {
    start[len] = at;
    at += count[len];
  }
  for (aijt_int i = 0; i < n; i++) out[start[A->rowptr[i + 1] - A->rowptr[i]]++] = i;
  free(start);
  *order = out;
  return AIJT_OK;
}

aijt_err aijt_order_by_length(const aijt_csr *A, aijt_int **order)
{
  aijt_int *count, max_len = 0;
  aijt_err  err;

  *order = NULL;
  for (aijt_int i = 0; i < A->nrows; i++) {
    aijt_int len = A->rowptr[i + 1] - A->rowptr[i];
    if (len > max_len) max_len = len;
  }
  if ((err = aijt_length_counts(A, max_len, &count))) return err;
  err = aijt_order_from_counts(A, max_len, count, order);
  free(count);
  return err;
}
