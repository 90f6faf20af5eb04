static const char help[] = "Property test of the planner (no PETSc): every rule set and every layout on many generated\n"
                           "matrices, each checked against a plain CSR product; summation order is the same, so\n"
                           "results must agree bit for bit (plans with a column order: up to rounding).\n";

#include "aijtplan.h"
#include "../common/teststencil.h"
#include "../common/testblocks.h"
#include "../common/xorshift.h"
#include "../common/testmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name;
  aijt_int    nrows, ncols;
  aijt_int   *rowptr, *colidx;
  double     *values;
  int         bs; /* the block size the planner is told (0: none) */
} matrix;

static unsigned long long rng_state = 88172645463325252ull;

static unsigned long long rnd(void)
{
  return xorshift64(&rng_state);
}

static double rnd_value(void)
{
  return (double)(rnd() % 2000001) / 1000000.0 - 1.0;
}

/* Build a matrix from row lengths: distinct random sorted columns per row. */
static matrix make(const char *name, aijt_int m, aijt_int n, const aijt_int *len, int zeros)
{
  matrix A = {name, m, n, NULL, NULL, NULL, 0};
  A.rowptr = (aijt_int *)malloc(((size_t)m + 1) * sizeof(aijt_int));
  A.rowptr[0] = 0;
  for (aijt_int i = 0; i < m; i++) A.rowptr[i + 1] = A.rowptr[i] + (len[i] < n ? len[i] : n);
  A.colidx = (aijt_int *)malloc(((size_t)A.rowptr[m] + 1) * sizeof(aijt_int));
  A.values = (double *)malloc(((size_t)A.rowptr[m] + 1) * sizeof(double));
  unsigned char *used = (unsigned char *)calloc((size_t)n + 1, 1);
  for (aijt_int i = 0; i < m; i++) {
    aijt_int l = A.rowptr[i + 1] - A.rowptr[i], k = A.rowptr[i];
    if (l > n / 2) { /* dense-ish row: take every column then drop at random */
      aijt_int keep = l;
      for (aijt_int c = 0; c < n && keep; c++)
        if ((aijt_int)(rnd() % (unsigned long long)(n - c)) < keep) A.colidx[k++] = c, keep--;
    } else {
      for (aijt_int j = 0; j < l;) {
        aijt_int c = (aijt_int)(rnd() % (unsigned long long)n);
        if (!used[c]) used[c] = 1, j++;
      }
      for (aijt_int c = 0; c < n && k < A.rowptr[i + 1]; c++)
        if (used[c]) A.colidx[k++] = c, used[c] = 0;
    }
  }
  free(used);
  for (aijt_int k = 0; k < A.rowptr[m]; k++) A.values[k] = (zeros && rnd() % 3 == 0) ? 0.0 : rnd_value();
  return A;
}

/* A stencil (teststencil.h) with random values. */
static matrix make_stencil(const char *name, aijt_int nx, aijt_int ny, aijt_int nz, int holes)
{
  aijt_int n = nx * ny * nz;
  matrix   A = {name, n, n, NULL, NULL, NULL, 0};
  A.rowptr   = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));
  A.colidx   = (aijt_int *)malloc(((size_t)7 * n + 1) * sizeof(aijt_int));
  A.values   = (double *)malloc(((size_t)7 * n + 1) * sizeof(double));
  aijt_int nnz = test_stencil_pattern(nx, ny, nz, holes, A.rowptr, A.colidx);
  for (aijt_int k = 0; k < nnz; k++) A.values[k] = rnd_value();
  return A;
}

/* Whole bs x bs blocks (testblocks.h) with random values, the block size told; drop >= 0 leaves out that
   entry, so that a block is partly stored. */
static matrix make_blocks(const char *name, aijt_int nb, int bs, int per, int64_t drop)
{
  const aijt_int n = nb * bs;
  matrix         A = {name, n, n, NULL, NULL, NULL, bs};
  A.rowptr         = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));
  A.colidx         = (aijt_int *)malloc(((size_t)n * per * bs + 1) * sizeof(aijt_int));
  A.values         = (double *)malloc(((size_t)n * per * bs + 1) * sizeof(double));
  aijt_int nnz     = test_blocks_pattern(nb, bs, per, drop, A.rowptr, A.colidx);
  for (aijt_int k = 0; k < nnz; k++) A.values[k] = rnd_value();
  return A;
}

static void csr_spmv(const matrix *A, const double *x, const double *z, double *y)
{
  for (aijt_int i = 0; i < A->nrows; i++) {
    double sum = z ? z[i] : 0.0;
    for (aijt_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) sum += A->values[k] * x[A->colidx[k]];
    y[i] = sum;
  }
}

static int same(const double *a, const double *b, aijt_int n)
{
  for (aijt_int i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof(double))) return 0;
  return 1;
}

/* Plans with a column order sum each row in that order: equal up to rounding (|a - b| <= 1e-13 of the
   largest |b|, values in [-1, 1] and rows of at most 6000 entries). */
static int close_to(const double *a, const double *b, aijt_int n)
{
  double big = 1;
  for (aijt_int i = 0; i < n; i++) big = fabs(b[i]) > big ? fabs(b[i]) : big;
  for (aijt_int i = 0; i < n; i++)
    if (!(fabs(a[i] - b[i]) <= 1e-13 * big)) return 0;
  return 1;
}

#define EXPECT_WHERE() printf("%s: ", A->name) /* every check names its matrix */
#include "../common/expect.h"

static aijt_model model; /* the synthetic one: the model planner is checked like the rules */

/* The rules' plan, or the model planner's with model_plan set. */
static aijt_err plan_with(const aijt_csr *csr, const aijt_rules *R, int model_plan, aijt_plan **plan)
{
  return model_plan ? aijt_plan_model(csr, R, &model, plan) : aijt_plan_rules(csr, R, plan);
}

/* The skeleton (what the GPU build fills) has the full build's sizes, rows, offsets, tail size and hot
   columns, and no slots. */
static void skeleton_matches(const matrix *A, const aijt_plan *plan, const aijt_csr *csr, const aijt_layouts *L, const char *label)
{
  aijt_layouts *K   = NULL;
  aijt_err      err = aijt_layouts_skeleton(plan, csr, &K);
  int           ok;

  EXPECT(!err && K && !K->filled && L->filled, "%s: skeleton failed: %s", label, aijt_err_string(err));
  if (err || !K) return;
  ok = K->nstrips == L->nstrips && K->tail.nnz == L->tail.nnz && !K->tail.row && K->nhot == L->nhot && aijt_layouts_bytes(K) == aijt_layouts_bytes(L);
  for (aijt_int p = 0; ok && K->hot && p < K->nhot; p++) ok = K->hot[p] == L->hot[p];
  for (int s = 0; ok && s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s], *T = &K->strips[s];
    size_t             nptr = aijt_layout_ptr_count(S);
    ok = T->format == S->format && T->nrows == S->nrows && T->nslots == S->nslots && T->width == S->width && T->chunk == S->chunk && T->ncols == S->ncols;
    ok = ok && !T->col && !T->val && !T->src && !T->mask && !memcmp(T->rows, S->rows, (size_t)S->nrows * sizeof(aijt_int));
    ok = ok && aijt_layout_ptr_count(T) == nptr && (!nptr || !memcmp(T->ptr, S->ptr, nptr * sizeof(aijt_int)));
  }
  EXPECT(ok, "%s: the skeleton differs from the layouts", label);
  aijt_layouts_destroy(&K);
}

/* Slot (strip row i, entry j)'s place where a refill without a map finds it (kernels/slot_source.cuh): the row's
   entry j, -1 past its end (or past an ELL row's width) */
static aijt_int place_by_rows(const matrix *A, aijt_int r, aijt_int j, aijt_int width)
{
  const aijt_int len = A->rowptr[r + 1] - A->rowptr[r];
  return j < len && j < width ? A->rowptr[r] + j : -1;
}

/* Every refill map is what a refill without one finds from the rows' first places, as the GPU refills the strips it
   builds without a map (kernels/slot_source.cuh):
   - DIA: row i's entry on diagonal d is the one after those on the diagonals before d that it has (the CSR's rows
     hold their columns sorted and distinct);
   - without a column order, ELL, SELL, CSR, STREAM and LONG: slot j of a row holds its entry j, and ELL's and SELL's
     padding, where the refill finds none, is where col is -1. */
static void check_maps_from_rows(const matrix *A, const aijt_plan *plan, const aijt_layouts *L, const char *label)
{
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S    = &L->strips[s];
    int                same = 1;
    switch (S->format) {
    case AIJT_DIA:
      for (aijt_int i = 0; i < S->nrows && same; i++) {
        aijt_int next = A->rowptr[S->rows[i]]; /* the row's next entry */
        for (aijt_int d = 0; d < S->width; d++) {
          const aijt_int want = (S->mask[i] >> d) & 1u ? next++ : -1;
          same &= S->src[(size_t)d * S->nrows + i] == want;
        }
      }
      break;
    case AIJT_ELL:
      if (plan->col_pos) continue;
      for (aijt_int i = 0; i < S->nrows && same; i++)
        for (aijt_int j = 0; j < S->width; j++) {
          const size_t   slot = (size_t)j * S->nrows + i;
          const aijt_int want = place_by_rows(A, S->rows[i], j, S->width);
          same &= S->src[slot] == want && (S->col[slot] < 0) == (want < 0);
        }
      break;
    case AIJT_SELL:
      if (plan->col_pos) continue;
      for (aijt_int i = 0; i < S->nrows && same; i++) {
        const aijt_int c = S->chunk, q = i / c, w = (S->ptr[q + 1] - S->ptr[q]) / c;
        for (aijt_int j = 0; j < w; j++) {
          const size_t   slot = (size_t)S->ptr[q] + (size_t)j * c + i % c;
          const aijt_int want = place_by_rows(A, S->rows[i], j, w);
          same &= S->src[slot] == want && (S->col[slot] < 0) == (want < 0);
        }
      }
      break;
    case AIJT_CSR:
    case AIJT_STREAM:
    case AIJT_LONG:
      if (plan->col_pos) continue;
      for (aijt_int i = 0; i < S->nrows && same; i++)
        for (aijt_int k = S->ptr[i]; k < S->ptr[i + 1]; k++) same &= S->src[k] == place_by_rows(A, S->rows[i], k - S->ptr[i], S->ptr[i + 1] - S->ptr[i]);
      break;
    default:
      continue;
    }
    EXPECT(same, "%s: %s strip %d's map is not what its rows' first places give", label, aijt_format_names[S->format], s);
  }
}

static void check_rules(const matrix *A, const aijt_rules *R, int model_plan, const char *label, unsigned *formats_seen)
{
  aijt_csr      csr  = {A->nrows, A->ncols, A->rowptr, A->colidx, A->values, NULL, 0, A->bs};
  aijt_plan    *plan = NULL;
  aijt_layouts *L    = NULL;
  aijt_err      err  = plan_with(&csr, R, model_plan, &plan);
  size_t        nx = (size_t)A->ncols + 1, ny = (size_t)A->nrows + 1;
  aijt_int      want_hot;
  double       *x = malloc(nx * sizeof(double)), *z = malloc(ny * sizeof(double)), *y = malloc(ny * sizeof(double)), *ref = malloc(ny * sizeof(double));

  EXPECT(!aijt_csr_check(&csr), "%s: generated matrix is not valid CSR", label);
  if (err == AIJT_ERR_FORMAT && R->allowed == AIJT_FORMAT_BIT(AIJT_DIA)) { /* DIA alone: only for few diagonals */
    aijt_int offsets[AIJT_DIA_MAX_DIAGS];
    EXPECT(aijt_diagonals(&csr, AIJT_DIA_MAX_DIAGS, offsets) < 0, "%s: DIA refused a matrix of few diagonals", label);
    goto done;
  }
  if (err == AIJT_ERR_FORMAT && R->allowed == AIJT_FORMAT_BIT(AIJT_STREAM)) { /* STREAM alone: only for rows it holds */
    aijt_features f;
    aijt_features_compute(&csr, &f);
    EXPECT(f.max_len > AIJT_STREAM_MAX_LEN, "%s: STREAM refused a matrix of rows of at most %d entries", label, AIJT_STREAM_MAX_LEN);
    goto done;
  }
  if (err == AIJT_ERR_FORMAT && R->allowed == AIJT_FORMAT_BIT(AIJT_BCSR)) { /* BCSR alone: only for whole blocks */
    EXPECT(!aijt_blocks_exact(&csr, A->bs), "%s: BCSR refused a matrix of whole %d x %d blocks", label, A->bs, A->bs);
    goto done;
  }
  EXPECT(!err, "%s: plan failed: %s", label, aijt_err_string(err));
  if (err) goto done;
  EXPECT(!aijt_plan_check(plan, &csr), "%s: inconsistent plan", label);
  if (R->allowed & AIJT_FORMAT_BIT(AIJT_BCSR) && !(R->allowed & AIJT_FORMAT_BIT(AIJT_DIA)) && (!model_plan || R->sort) && aijt_blocks_exact(&csr, A->bs)) /* the rules, and the synthetic model's cheap BCSR, take whole blocks */
    EXPECT(plan->nstrips == 1 && plan->strips[0].format == AIJT_BCSR && plan->strips[0].width == A->bs, "%s: whole %d x %d blocks, not one BCSR strip", label, A->bs, A->bs);
  EXPECT(plan->features.nnz == plan->nnz && plan->features.max_len >= plan->features.min_len, "%s: features disagree with the plan", label);
  {
    aijt_plan *again = NULL;
    EXPECT(!plan_with(&csr, R, model_plan, &again) && aijt_plan_equal(plan, again), "%s: planning twice gives another plan", label);
    aijt_plan_destroy(&again);
  }
  for (int s = 0; s < plan->nstrips; s++) {
    *formats_seen |= AIJT_FORMAT_BIT(plan->strips[s].format);
    EXPECT(R->allowed & AIJT_FORMAT_BIT(plan->strips[s].format), "%s: strip %d uses a disallowed format %s", label, s, aijt_format_names[plan->strips[s].format]);
  }
  if (plan->sorted)
    for (aijt_int k = 1; k < plan->nrows; k++) {
      aijt_int a = plan->order[k - 1], b = plan->order[k];
      aijt_int la = A->rowptr[a + 1] - A->rowptr[a], lb = A->rowptr[b + 1] - A->rowptr[b];
      if (la < lb || (la == lb && a > b)) {
        EXPECT(0, "%s: order is not a stable sort by decreasing length at %lld", label, (long long)k);
        break;
      }
    }
  if (R->col_order == AIJT_COLS_DEGREE) {
    int natural_only = A->ncols < 2 || !(R->allowed & AIJT_STRIP_FORMATS);
    for (int s = 0; s < plan->nstrips; s++) natural_only |= AIJT_WHOLE_FORMAT(plan->strips[s].format);
    EXPECT((!plan->col_pos) == natural_only, "%s: columns by degree were asked for, the plan %s them", label, plan->col_pos ? "has" : "lacks");
  }
  if (plan->col_pos) { /* a stable order by decreasing degree */
    aijt_int *deg = calloc((size_t)A->ncols + 1, sizeof(aijt_int)), *order = calloc((size_t)A->ncols + 1, sizeof(aijt_int));
    for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) deg[A->colidx[k]]++;
    for (aijt_int c = 0; c < A->ncols; c++) order[plan->col_pos[c]] = c; /* aijt_plan_check: a permutation */
    for (aijt_int j = 1; j < A->ncols; j++) {
      aijt_int a = order[j - 1], b = order[j];
      if (deg[a] < deg[b] || (deg[a] == deg[b] && a > b)) {
        EXPECT(0, "%s: column order is not a stable sort by decreasing degree at %lld", label, (long long)j);
        break;
      }
    }
    want_hot = 0;
    for (aijt_int c = 0; c < A->ncols; c++) want_hot += deg[c] >= R->col_hot_degree;
    want_hot = want_hot < 1 ? 1 : want_hot;
    free(deg), free(order);
    EXPECT(plan->col_hot == want_hot, "%s: %lld hot columns, %lld wanted", label, (long long)plan->col_hot, (long long)want_hot);
  }
  err = aijt_layouts_build(plan, &csr, &L);
  EXPECT(!err, "%s: layout failed: %s", label, aijt_err_string(err));
  if (err) goto done;
  EXPECT(!L->hot == !plan->col_pos && L->nhot == plan->col_hot, "%s: the layouts' hot columns are not the plan's", label);
  for (aijt_int p = 0; L->hot && p < L->nhot; p++) /* hot label p reads original column hot[p], of position p */
    if (plan->col_pos[L->hot[p]] != p) {
      EXPECT(0, "%s: hot label %lld is column %lld, of position %lld", label, (long long)p, (long long)L->hot[p], (long long)plan->col_pos[L->hot[p]]);
      break;
    }

  skeleton_matches(A, plan, &csr, L, label);
  check_maps_from_rows(A, plan, L, label);

  int (*agree)(const double *, const double *, aijt_int) = plan->col_pos ? close_to : same;
  for (int trial = 0; trial < 2; trial++) {
    for (aijt_int j = 0; j < A->ncols; j++) x[j] = rnd_value();
    for (aijt_int i = 0; i < A->nrows; i++) z[i] = rnd_value(), y[i] = NAN; /* poison: every row must be written */
    csr_spmv(A, x, NULL, ref);
    aijt_ref_spmv(L, x, NULL, y);
    EXPECT(agree(y, ref, A->nrows), "%s: y = A x differs (trial %d)", label, trial);
    csr_spmv(A, x, z, ref);
    aijt_ref_spmv(L, x, z, y);
    EXPECT(agree(y, ref, A->nrows), "%s: y = A x + z differs", label);
    memcpy(y, z, (size_t)A->nrows * sizeof(double));
    aijt_ref_spmv(L, x, y, y);
    EXPECT(agree(y, ref, A->nrows), "%s: y = A x + y (in place) differs", label);
    /* new values, same pattern: refresh without re-planning */
    for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) A->values[k] = rnd_value();
    aijt_layouts_refresh(L, A->values);
  }
  /* an infinite entry of x must reach exactly the rows that reference it, as through CSR */
  if (A->ncols > 0) {
    for (aijt_int j = 0; j < A->ncols; j++) x[j] = 1.0;
    x[A->ncols / 2] = INFINITY;
    csr_spmv(A, x, NULL, ref);
    aijt_ref_spmv(L, x, NULL, y);
    int ok = 1;
    for (aijt_int i = 0; i < A->nrows; i++) ok &= (isnan(y[i]) == isnan(ref[i])) && (isinf(y[i]) == isinf(ref[i]));
    EXPECT(ok, "%s: padding leaks an infinite x entry", label);
  }
done:
  aijt_layouts_destroy(&L);
  aijt_plan_destroy(&plan);
  free(x), free(z), free(y), free(ref);
}

/* aijt_csr_spmv_transpose (y = A^T x, + z, in place) against each column's sum down a column copy made by a stable
   counting sort, which adds in row order as AIJ's host kernel does: bit for bit */
static void check_transpose(const matrix *A)
{
  const aijt_int m = A->nrows, n = A->ncols, nnz = m ? A->rowptr[m] : 0;
  aijt_int      *cptr = calloc((size_t)n + 2, sizeof(aijt_int)), *crow = malloc(((size_t)nnz + 1) * sizeof(aijt_int));
  double        *cval = malloc(((size_t)nnz + 1) * sizeof(double)), *x = malloc(((size_t)m + 1) * sizeof(double));
  double        *z = malloc(((size_t)n + 1) * sizeof(double)), *y = malloc(((size_t)n + 1) * sizeof(double)), *ref = malloc(((size_t)n + 1) * sizeof(double));
  aijt_csr       csr = {m, n, A->rowptr, A->colidx, A->values, NULL, 0, A->bs};

  for (aijt_int k = 0; k < nnz; k++) cptr[A->colidx[k] + 2]++;
  for (aijt_int c = 0; c < n; c++) cptr[c + 2] += cptr[c + 1];
  for (aijt_int i = 0; i < m; i++)
    for (aijt_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
      aijt_int p = cptr[A->colidx[k] + 1]++;
      crow[p] = i, cval[p] = A->values[k];
    }
  /* values of their own (the matrices after this one come from the shared generator) */
  for (aijt_int i = 0; i < m; i++) x[i] = (double)((i * 7919) % 2001) / 1000.0 - 1.0;
  for (aijt_int c = 0; c < n; c++) z[c] = (double)((c * 104729) % 2003) / 1000.0 - 1.0, y[c] = NAN;
  for (int add = 0; add < 3; add++) { /* A^T x, A^T x + z, A^T x + y in place */
    for (aijt_int c = 0; c < n; c++) {
      double sum = add ? z[c] : 0.0;
      for (aijt_int p = cptr[c]; p < cptr[c + 1]; p++) sum += cval[p] * x[crow[p]];
      ref[c] = sum;
    }
    if (add == 2) memcpy(y, z, (size_t)n * sizeof(double));
    aijt_csr_spmv_transpose(&csr, x, add == 0 ? NULL : add == 1 ? z : y, y);
    EXPECT(same(y, ref, n), "y = A^T x%s differs", add == 0 ? "" : add == 1 ? " + z" : " + y (in place)");
  }
  free(cptr), free(crow), free(cval), free(x), free(z), free(y), free(ref);
}

static void check_matrix(matrix *A)
{
  unsigned   seen = 0;
  aijt_rules R;
  char       label[128];

  for (int sort = 0; sort < 2; sort++)
    for (int small = 0; small < 2; small++) {
      for (int f = -1; f < AIJT_NFORMATS; f++) {
        aijt_rules_default(&R);
        R.sort = sort;
        if (small) { /* thresholds that cut even small matrices into many strips */
          R.min_strip_rows  = 1;
          R.min_strip_share = 0;
          R.long_row       = 8;
          R.sell_max_len  = 4;
          R.sell_chunk     = 4;
          R.sell_sigma     = 8;
          R.ell_max_pad    = 0.5;
        }
        if (f >= 0) R.allowed = AIJT_FORMAT_BIT(f);
        for (int model_plan = 0; model_plan < 2; model_plan++) {
          snprintf(label, sizeof(label), "%s sort=%d small=%d formats=%s", model_plan ? "model" : "rules", sort, small, f < 0 ? "all" : aijt_format_names[f]);
          check_rules(A, &R, model_plan, label, &seen);
        }
      }
    }
  for (int small = 0; small < 2; small++) /* columns by degree: the same bits, every format */
    for (int f = -1; f < AIJT_NFORMATS; f++)
      for (int h = 0; h < (f < 0 ? 3 : 1); h++) /* hot: the default share, every column, one column */
        for (int model_plan = 0; model_plan < 2; model_plan++) {
          aijt_rules_default(&R);
          R.col_order = AIJT_COLS_DEGREE;
          if (h) R.col_hot_degree = h == 1 ? 0 : 1 << 30;
          if (small) R.min_strip_rows = 1, R.min_strip_share = 0, R.long_row = 8, R.sell_max_len = 4, R.sell_chunk = 4, R.ell_max_pad = 0.5;
          if (f >= 0) R.allowed = AIJT_FORMAT_BIT(f);
          snprintf(label, sizeof(label), "%s cols=degree hot>=%lld small=%d formats=%s", model_plan ? "model" : "rules", (long long)R.col_hot_degree, small, f < 0 ? "all" : aijt_format_names[f]);
          check_rules(A, &R, model_plan, label, &seen);
        }
  aijt_rules_default(&R); /* the model without CSR: the other formats must hold every row */
  R.allowed = AIJT_ALL_FORMATS & ~AIJT_FORMAT_BIT(AIJT_CSR);
  check_rules(A, &R, 1, "model formats=all but csr", &seen);
  aijt_rules_default(&R);
  R.allowed = AIJT_FORMAT_BIT(AIJT_ELL) | AIJT_FORMAT_BIT(AIJT_COO);
  R.ell_max_pad = 1e9; /* every short strip is HYB: ELL plus a COO tail */
  check_rules(A, &R, 0, "hyb", &seen);
  check_transpose(A);
  printf("%-22s %7lld x %-7lld nnz %8lld: formats seen", A->name, (long long)A->nrows, (long long)A->ncols, (long long)(A->nrows ? A->rowptr[A->nrows] : 0));
  for (int f = 0; f < AIJT_NFORMATS; f++)
    if (seen & AIJT_FORMAT_BIT(f)) printf(" %s", aijt_format_names[f]);
  printf("\n");
  free(A->rowptr), free(A->colidx), free(A->values);
}

int main(int argc, char **argv)
{
  aijt_int len[20000];
  (void)argc, (void)argv, (void)help;
  test_model(&model);

  aijt_format f;
  if (aijt_format_from_name("SELL", &f) || f != AIJT_SELL || aijt_format_from_name("hyb", &f) != AIJT_ERR_FORMAT || aijt_format_from_name("BCSR", &f) || f != AIJT_BCSR) {
    printf("FAIL format names\n");
    failures++;
  }
  { /* malformed CSR is refused */
    aijt_int rp[3] = {0, 2, 1}, ci[2] = {0, 5};
    aijt_csr bad   = {2, 3, rp, ci, NULL, NULL, 0, 0};
    checks++;
    if (aijt_csr_check(&bad) != AIJT_ERR_ARG) failures++, printf("FAIL decreasing row pointers must be refused\n");
    rp[2] = 2;
    checks++;
    if (aijt_csr_check(&bad) != AIJT_ERR_ARG) failures++, printf("FAIL a column out of range must be refused\n");
  }
  { /* a plan needs at least one allowed format */
    aijt_rules R;
    aijt_rules_default(&R);
    R.allowed = 0;
    aijt_int  rp[2] = {0, 0};
    aijt_csr  csr   = {1, 1, rp, NULL, NULL, NULL, 0, 0};
    aijt_plan *p    = NULL;
    checks++;
    if (aijt_plan_rules(&csr, &R, &p) != AIJT_ERR_FORMAT) failures++, printf("FAIL no allowed format must be refused\n");
  }

  { /* the auto rule: wide matrices whose few popular columns hold most entries, and no others */
    const aijt_int m = 65536, n = 262144, per = 16;
    aijt_int      *rp = malloc((m + 1) * sizeof(aijt_int)), *ci = malloc((size_t)per * m * sizeof(aijt_int));
    for (int hot = 0; hot < 2; hot++) {
      aijt_csr   csr = {m, n, rp, ci, NULL, NULL, 0, 0};
      aijt_rules R;
      aijt_plan *p = NULL;
      for (aijt_int i = 0; i <= m; i++) rp[i] = per * i;
      for (aijt_int i = 0; i < m; i++) {
        aijt_int *c = ci + per * i;
        for (int t = 0; t < per; t++) /* hot: 12 of a row's 16 among 64 popular columns; flat: 4 rows per column */
          c[t] = hot ? (t < 12 ? (i + 5 * t) % 64 : 64 + (4 * i + t) % (n - 64)) : (per * i + t) % n;
        for (int t = 1; t < per; t++) /* sorted within the row */
          for (int u = t; u > 0 && c[u - 1] > c[u]; u--) {
            aijt_int tmp = c[u];
            c[u] = c[u - 1], c[u - 1] = tmp;
          }
      }
      double share = aijt_col_top_share(&csr);
      checks++;
      if (hot ? share < 0.75 : share > 0.07) failures++, printf("FAIL top-column share %g of the %s matrix\n", share, hot ? "hot" : "flat");
      aijt_rules_default(&R);
      for (int cut = 0; cut < 2; cut++) { /* 262144 columns: auto may order them; fewer: never */
        csr.ncols = n - cut;
        if (cut) /* the entries of the last column move to the first */
          for (aijt_int k = 0; k < per * m; k++) ci[k] = ci[k] == n - 1 ? 0 : ci[k];
        checks++;
        if (aijt_csr_check(&csr) || aijt_plan_rules(&csr, &R, &p) || (!p->col_pos) != !(hot && !cut)) failures++, printf("FAIL auto column order on the %s matrix of %lld columns\n", hot ? "hot" : "flat", (long long)csr.ncols);
        aijt_plan_destroy(&p);
      }
    }
    free(rp), free(ci);
  }

  for (aijt_int i = 0; i < 3000; i++) len[i] = (aijt_int)(rnd() % 12);
  matrix A = make("random_0_11", 3000, 3000, len, 0);
  check_matrix(&A);

  A = make_blocks("blocks_3", 700, 3, 9, -1); /* whole blocks: BCSR */
  check_matrix(&A);
  A = make_blocks("blocks_2", 1500, 2, 4, -1);
  check_matrix(&A);
  A = make_blocks("blocks_8", 90, 8, 27, -1);
  check_matrix(&A);
  A = make_blocks("blocks_3_partial", 700, 3, 9, 4321); /* one entry short of whole blocks: never BCSR */
  check_matrix(&A);

  for (aijt_int i = 0; i < 2000; i++) len[i] = i % 7 ? 5 : 0;
  A = make("empty_rows", 2000, 1500, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 1500; i++) len[i] = 3;
  len[700] = 1400;
  A = make("one_long_row", 1500, 1500, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 4096; i++) len[i] = 7;
  A = make("all_rows_equal", 4096, 4096, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 300; i++) len[i] = 1 + (aijt_int)(rnd() % 40);
  A = make("rectangular_wide", 300, 5000, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 5000; i++) len[i] = (aijt_int)(rnd() % 3);
  A = make("rectangular_tall", 5000, 40, len, 0);
  check_matrix(&A);

  A = make("zero_rows", 0, 10, len, 0);
  check_matrix(&A);

  len[0] = 1;
  A = make("one_by_one", 1, 1, len, 0);
  check_matrix(&A);

  len[0] = 0;
  A = make("one_by_one_empty", 1, 1, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 2500; i++) len[i] = 1 + (aijt_int)(rnd() % 20);
  A = make("explicit_zeros", 2500, 2500, len, 1);
  check_matrix(&A);

  for (aijt_int i = 0; i < 20000; i++) { /* power law: P(len > k) ~ k^-1.2 */
    double u = (double)(rnd() % 1000000 + 1) / 1000001.0;
    double l = pow(u, -1.0 / 1.2);
    len[i]   = (aijt_int)(l > 6000 ? 6000 : l);
  }
  A = make("power_law", 20000, 20000, len, 0);
  check_matrix(&A);

  for (aijt_int i = 0; i < 5000; i++) len[i] = (i % 500 == 0) ? 3000 : 2 + (aijt_int)(rnd() % 4);
  A = make("alternating_long", 5000, 5000, len, 0);
  check_matrix(&A);

  A = make_stencil("stencil_2d", 37, 29, 1, 0);
  check_matrix(&A);

  A = make_stencil("stencil_3d", 13, 11, 9, 0);
  check_matrix(&A);

  A = make_stencil("stencil_3d_holes", 12, 10, 8, 1);
  check_matrix(&A);

  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0

TEST*/
