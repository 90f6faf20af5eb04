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

/* The statistics in integers: a chain of floating-point additions, one per row, bounded this loop at
   about 4 cycles a row.  The double sums are the same numbers while every partial sum stays below 2^53
   (each addition is then exact), which nnz * max_len < 2^53 guarantees; otherwise they are summed in
   doubles, row by row, as before. */
static inline uint64_t square(aijt_int len)
{
  /* 32-bit indices: an unsigned 32 x 32 -> 64-bit product, which SSE2 has (the loop vectorizes) */
  return sizeof(aijt_int) == 4 ? (uint64_t)(uint32_t)len * (uint32_t)len : (uint64_t)len * (uint64_t)len;
}

void aijt_features_compute(const aijt_csr *A, aijt_features *f)
{
  const aijt_int n = A->nrows;
  aijt_int       lo = n ? A->rowptr[1] - A->rowptr[0] : 0, hi = 0, empty = 0;
  uint64_t       s1 = 0, s2 = 0;
  double         sum, sum2;

  for (aijt_int i = 0; i < n; i++) { /* no branch: the loop vectorizes */
    aijt_int len = A->rowptr[i + 1] - A->rowptr[i];
    lo           = len < lo ? len : lo;
    hi           = len > hi ? len : hi;
    empty += len == 0;
    s1 += (uint64_t)len;
    s2 += square(len);
  }
  if ((double)s1 * (double)hi < 9007199254740992.0) { /* 2^53 */
    sum  = (double)s1;
    sum2 = (double)s2;
  } else {
    sum = sum2 = 0;
    for (aijt_int i = 0; i < n; i++) {
      aijt_int len = A->rowptr[i + 1] - A->rowptr[i];
      sum += (double)len;
      sum2 += (double)len * (double)len;
    }
  }
  f->nrows      = n;
  f->nnz        = n ? A->rowptr[n] : 0;
  f->min_len    = lo;
  f->max_len    = hi;
  f->empty_rows = empty;
  f->mean_len   = n ? sum / (double)n : 0.0;
  f->std_len    = n ? sqrt(fmax(0.0, sum2 / (double)n - f->mean_len * f->mean_len)) : 0.0;
}

/* Whether consecutive rows mostly have one length, judged on the first rows.  The counts and the
   counting sort then keep a run's count or position in a register: one in memory, read and written
   back row after row, waits on its own store (the order of lap2d's 4M rows: 9.4 ms, 2.6 by runs);
   where lengths change every row or two (R-MAT, circuits) a loop over runs mispredicts its end
   instead (R-MAT's order: 3.6 ms, 6.9 by runs). */
#define RUN_SAMPLE 4096

static int long_runs(const aijt_csr *A)
{
  aijt_int n = A->nrows < RUN_SAMPLE ? A->nrows : RUN_SAMPLE, changes = 0;
  for (aijt_int i = 1; i < n; i++) changes += A->rowptr[i + 1] - A->rowptr[i] != A->rowptr[i] - A->rowptr[i - 1];
  return 8 * changes < n; /* runs of 8 rows or more on average */
}

aijt_err aijt_length_counts(const aijt_csr *A, aijt_int max_len, aijt_int **count)
{
  aijt_int *c = aijt_counts_new((size_t)max_len + 1);

  *count = c;
  if (!c) return AIJT_ERR_MEM;
  if (long_runs(A)) /* as the order below */
    for (aijt_int i = 0; i < A->nrows;) {
      aijt_int len = A->rowptr[i + 1] - A->rowptr[i], e = i + 1;
      while (e < A->nrows && A->rowptr[e + 1] - A->rowptr[e] == len) e++;
      c[len] += e - i;
      i = e;
    }
  else
    for (aijt_int i = 0; i < A->nrows; i++) c[A->rowptr[i + 1] - A->rowptr[i]]++;
  return AIJT_OK;
}

aijt_int aijt_count_prev(const aijt_int *count, aijt_int from)
{
  while (from >= 0 && !count[from] && (from & 7) != 7) from--;
  while (from >= 7) { /* count[from - 7 .. from], aligned: one test for eight zeros */
    const aijt_int *c = count + from - 7;
    if (c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7]) break;
    from -= 8;
  }
  while (from >= 0 && !count[from]) from--;
  return from;
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
  if (long_runs(A)) /* a stencil's: the position of a run of rows of one length in a register */
    for (aijt_int i = 0; i < n;) {
      aijt_int len = A->rowptr[i + 1] - A->rowptr[i], at = start[len];
      do out[at++] = i++;
      while (i < n && A->rowptr[i + 1] - A->rowptr[i] == len);
      start[len] = at;
    }
  else
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
  aijt_counts_free(count);
  return err;
}
