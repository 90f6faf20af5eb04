#include "sellpack.h"

#include <stdlib.h>
#include <string.h>

int sellpack_build(const matgen_csr *A, int64_t slice, sellpack *S)
{
  int64_t size = 0;

  memset(S, 0, sizeof(*S));
  if (slice < 1) return 2;
  S->slice   = slice;
  S->nslices = (A->nrows + slice - 1) / slice;
  S->offsets = (int32_t *)malloc((size_t)(S->nslices + 1) * sizeof(*S->offsets));
  if (!S->offsets) return 1;
  S->offsets[0] = 0;
  for (int64_t s = 0; s < S->nslices; s++) {
    int64_t width = 0;
    for (int64_t i = s * slice; i < (s + 1) * slice && i < A->nrows; i++)
      if (A->rowptr[i + 1] - A->rowptr[i] > width) width = A->rowptr[i + 1] - A->rowptr[i];
    size += width * slice;
    if (size > INT32_MAX) {
      sellpack_free(S);
      return 2;
    }
    S->offsets[s + 1] = (int32_t)size;
  }
  S->size = size;
  S->col  = (int32_t *)malloc((size_t)(size ? size : 1) * sizeof(*S->col));
  S->val  = (double *)malloc((size_t)(size ? size : 1) * sizeof(*S->val));
  if (!S->col || !S->val) {
    sellpack_free(S);
    return 1;
  }
  for (int64_t s = 0; s < S->nslices; s++) {
    int64_t width = (S->offsets[s + 1] - S->offsets[s]) / slice;
    for (int64_t r = 0; r < slice; r++) {
      int64_t i = s * slice + r, len = i < A->nrows ? A->rowptr[i + 1] - A->rowptr[i] : 0;
      for (int64_t k = 0; k < width; k++) {
        int64_t at = S->offsets[s] + k * slice + r;
        S->col[at] = k < len ? A->col[A->rowptr[i] + k] : -1;
        S->val[at] = k < len ? A->val[A->rowptr[i] + k] : 0.0;
      }
    }
  }
  return 0;
}

void sellpack_free(sellpack *S)
{
  free(S->offsets);
  free(S->col);
  free(S->val);
  memset(S, 0, sizeof(*S));
}

void sellpack_spmv(const sellpack *S, int64_t nrows, const double *x, double *y)
{
  for (int64_t s = 0; s < S->nslices; s++) {
    int64_t width = (S->offsets[s + 1] - S->offsets[s]) / S->slice;
    for (int64_t r = 0; r < S->slice && s * S->slice + r < nrows; r++) {
      double sum = 0.0;
      for (int64_t k = 0; k < width; k++) {
        int64_t at = S->offsets[s] + k * S->slice + r;
        if (S->col[at] >= 0) sum += S->val[at] * x[S->col[at]];
      }
      y[s * S->slice + r] = sum;
    }
  }
}
