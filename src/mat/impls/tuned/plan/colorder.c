/*
   Columns by degree.  A power-law matrix's products gather x all over: R-MAT's most popular sixteenth
   of the columns holds 80% of its entries, but each of them shares its 32-byte sector of x with three
   rarely read neighbours, so the gathers keep four times the sectors they use in the caches.  Relabelled
   by decreasing degree, the popular columns' x values are neighbours: rmat:22's strips ran in 620 us
   instead of 818 (H100, bench/results/2026-11-21-h100-colorder-experiment).

   Only the hot columns, those of at least rules->col_hot_degree entries (2), are read from a copy: each
   product first gathers their x values into a workspace, and every other column is read from x itself
   (aijt_col_label).  A column read once gains nothing from being copied, and half of R-MAT's columns
   hold only their diagonal entry.  On an H100 (bench/results/2026-11-21-h100-colhot), aijtuned against
   aijcusparse with the most popular share s of the columns hot: rmat 1.05x (s = 1/16), 1.03 (1/2), 1.01
   (all); rmat:22 0.92, 1.03, 1.01.  Copying all of x costs a pass per product (48 us of rmat:22's 677);
   copying only the top sixteenth leaves columns read a few times each spread over x, a sector for each.
   Degree 2 makes half the columns hot on both (50.0% and 47.9%).

   The layouts then hold each row's entries in the new column order (layout.c), so rows sum in another
   order than the CSR's: the same result up to rounding, as from any GPU kernel.
*/
#include "planbuild.h"

#include <stdlib.h>

const char *const aijt_col_order_names[3] = {"auto", "degree", "natural"};

/* Auto: x of at least this many columns (2 MiB), whose gathers reach past the L1s, and ... */
#define AIJT_COLS_MIN_AUTO 262144
/* ... with at least this many entries per column, so that the pass over x (20 bytes a column) costs
   little against the matrix (12 bytes an entry; R-MAT has 16.5 a column) ... */
#define AIJT_COLS_MIN_DENSITY 4
/* ... and whose most popular sixteenth of the columns holds at least this share of the entries (R-MAT
   0.80, circuit 0.18, uniform and stencil matrices about 1/16). */
#define AIJT_COLS_MIN_SHARE 0.5

/* The auto test's sample holds about this many entries per column.  Its top share rises a little with
   the sample's noise (a uniform matrix's columns are Poisson-distributed in it), but stays far from the
   threshold on either side: on the generated matrices 2 per column gives circuit 0.308, elast 0.276,
   random 0.162 and R-MAT 0.797, where 4 gave 0.173, 0.141, 0.130 and 0.790, and 1 would pass circuit
   (0.521) and elast (0.552).  Circuit (6.6 entries a column) was counted whole at 4 per column, to be
   rejected (bench/results/2026-11-26-col-sample). */
#define AIJT_COLS_SAMPLE_PER_COL 2.0

/* Rows are sampled in this many runs spread over the matrix: each run is read in order (every
   stride-th row alone was as slow as all of them, a cache miss per row). */
#define AIJT_COLS_SAMPLE_RUNS 256

void aijt_col_sample_runs(aijt_int nrows, aijt_int stride, int64_t *run, int64_t *take)
{
  *run  = stride == 1 ? (int64_t)nrows : (int64_t)nrows / AIJT_COLS_SAMPLE_RUNS + 1;
  *take = stride == 1 ? (int64_t)nrows : *run / stride + 1;
}

/* Entries per column, in that sample. */
static aijt_int *column_degrees(const aijt_csr *A, aijt_int stride, aijt_int *max_degree)
{
  aijt_int *deg = aijt_counts_new((size_t)A->ncols + 1);
  int64_t   run, take;

  *max_degree = 0;
  if (!deg) return NULL;
  aijt_col_sample_runs(A->nrows, stride, &run, &take);
  for (int64_t i0 = 0; i0 < A->nrows; i0 += run) {
    const aijt_int i1 = (aijt_int)(i0 + take < A->nrows ? i0 + take : A->nrows);
    for (aijt_int k = A->rowptr[i0]; k < A->rowptr[i1]; k++) deg[A->colidx[k]]++;
  }
  for (aijt_int j = 0; j < A->ncols; j++)
    if (deg[j] > *max_degree) *max_degree = deg[j];
  return deg;
}

/* count[d]: columns of degree d, d in [0, max_degree]. */
static aijt_int *degree_counts(const aijt_int *deg, aijt_int ncols, aijt_int max_degree)
{
  aijt_int *count = aijt_counts_new((size_t)max_degree + 1);
  if (!count) return NULL;
  for (aijt_int j = 0; j < ncols; j++) count[deg[j]]++;
  return count;
}

double aijt_col_share_of(const aijt_int *count, aijt_int max_degree, aijt_int ncols)
{
  int64_t nnz = 0, left = ncols / 16 > 0 ? ncols / 16 : 1, covered = 0;
  for (aijt_int d = aijt_count_prev(count, max_degree); d > 0; d = aijt_count_prev(count, d - 1)) nnz += (int64_t)count[d] * d;
  for (aijt_int d = aijt_count_prev(count, max_degree); d > 0 && left > 0; d = aijt_count_prev(count, d - 1)) { /* the top ncols / 16 columns */
    int64_t take = count[d] < left ? count[d] : left;
    covered += take * d;
    left -= take;
  }
  return nnz > 0 ? (double)covered / (double)nnz : 0.0;
}

/* The top share among the entries of one row in stride (-1: out of memory). */
static double sampled_top_share(const aijt_csr *A, aijt_int stride)
{
  aijt_int max_degree, *deg = column_degrees(A, stride, &max_degree), *count = deg ? degree_counts(deg, A->ncols, max_degree) : NULL;
  double   share = count ? aijt_col_share_of(count, max_degree, A->ncols) : -1.0;

  aijt_counts_free(deg);
  aijt_counts_free(count);
  return share;
}

aijt_int aijt_col_hot_of(const aijt_int *count, aijt_int max_degree, aijt_int ncols, aijt_int min_degree)
{
  aijt_int n = 0;
  for (aijt_int d = aijt_count_prev(count, max_degree); d >= (min_degree > 0 ? min_degree : 0); d = aijt_count_prev(count, d - 1)) n += count[d];
  if (n < 1) n = 1;
  return ncols > AIJT_INT_MAX - n ? ncols : n;
}

double aijt_col_top_share(const aijt_csr *A)
{
  return A->nrows ? sampled_top_share(A, 1) : 0.0;
}

void aijt_plan_drop_col_order(aijt_plan *p)
{
  free(p->col_pos);
  p->col_pos = NULL;
  p->col_hot = 0;
}

/* Whether the matrix's share can reach the auto test's threshold at all, on nd diagonals (nd < 0: not
   known).  A column meets each diagonal at most once, so the top ncols / 16 columns hold at most
   ncols / 16 * nd entries: on lap3d's 7 diagonals, a share of at most 1/16.  Below the threshold the test
   (a pass over a sample) is not run.  The bound is the whole matrix's, not the sample's: the sample only
   estimates the whole matrix's share, and a bound on a sparser sample is looser (box27's 27 diagonals met
   none on its sample of 2 per column, and its plan ran the test for nothing;
   bench/results/2026-11-26-col-sample). */
static int banded_below_share(const aijt_csr *A, int nd)
{
  const int64_t top = A->ncols / 16 > 0 ? A->ncols / 16 : 1, nnz = A->nrows ? A->rowptr[A->nrows] : 0;
  return nd >= 0 && nnz > 0 && (double)top * (double)nd < AIJT_COLS_MIN_SHARE * (double)nnz;
}

int aijt_col_order_start(const aijt_csr *A, const aijt_rules *R, int nd, const aijt_plan *p, aijt_int *stride)
{
  *stride = 0;
  if (R->col_order == AIJT_COLS_NATURAL || A->ncols < 2) return 0;
  if (R->col_order == AIJT_COLS_AUTO && (A->ncols < AIJT_COLS_MIN_AUTO || p->nnz < AIJT_COLS_MIN_DENSITY * (double)A->ncols)) return 0;
  for (int s = 0; s < p->nstrips; s++)
    if (AIJT_WHOLE_FORMAT(p->strips[s].format)) return 0;
  if (R->col_order == AIJT_COLS_AUTO) { /* the test on a sample: matrices it rejects are never counted whole */
    const aijt_int every = (aijt_int)(p->nnz / (AIJT_COLS_SAMPLE_PER_COL * (double)A->ncols));
    *stride              = every > 1 ? every : 1;
    if (banded_below_share(A, nd)) return 0;
  }
  return 1;
}

int aijt_col_share_passes(double share)
{
  return share >= AIJT_COLS_MIN_SHARE;
}

aijt_err aijt_plan_order_columns(const aijt_csr *A, const aijt_rules *R, int nd, aijt_plan *p)
{
  aijt_int *deg = NULL, *count = NULL, max_degree, stride;
  aijt_err  err = AIJT_OK;

  aijt_plan_drop_col_order(p);
  if (!aijt_col_order_start(A, R, nd, p, &stride)) return AIJT_OK;
  if (stride) {
    const double share = sampled_top_share(A, stride);
    if (share < 0) return AIJT_ERR_MEM;
    if (!aijt_col_share_passes(share)) return AIJT_OK;
  }
  if (!(deg = column_degrees(A, 1, &max_degree)) || !(count = degree_counts(deg, A->ncols, max_degree))) {
    err = AIJT_ERR_MEM;
    goto done;
  }
  if (!(p->col_pos = (aijt_int *)malloc((size_t)A->ncols * sizeof(aijt_int)))) {
    err = AIJT_ERR_MEM;
    goto done;
  }
  p->col_hot = aijt_col_hot_of(count, max_degree, A->ncols, R->col_hot_degree);
  /* a counting sort, stable: count[d] becomes the first position of degree d, the highest first */
  for (aijt_int d = max_degree, next = 0; d >= 0; d--) {
    aijt_int n = count[d];
    count[d]   = next;
    next += n;
  }
  for (aijt_int j = 0; j < A->ncols; j++) p->col_pos[j] = count[deg[j]]++;
done:
  aijt_counts_free(deg);
  aijt_counts_free(count);
  return err;
}
