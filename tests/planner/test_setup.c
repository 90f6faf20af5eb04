static const char help[] = "The planner's setup paths against straightforward references kept here: the diagonals, the order by\n"
                           "length, the locality feature, the model planner's length classes, and every layout and its refresh\n"
                           "must come out bit for bit as the plain loops make them, on matrices of every shape.\n";

#include "planbuild.h"
#include "../common/testmodel.h"
#include "../common/teststencil.h"
#include "../common/xorshift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/expect.h"

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

static unsigned long long rnd(void)
{
  return xorshift64(&rng_state);
}

/* ---------------------------------------------------------------------------------------------------
   References: the plain loops the planner's setup paths must agree with. */

static int ref_cmp_int(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b;
  return (x > y) - (x < y);
}

/* Every distinct offset col - row, or -1 beyond max. */
static int ref_diagonals(const aijt_csr *A, int max, aijt_int *offsets)
{
  int n = 0;
  if (max > AIJT_DIA_MAX_DIAGS) max = AIJT_DIA_MAX_DIAGS;
  for (aijt_int r = 0; r < A->nrows; r++)
    for (aijt_int k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) {
      aijt_int off = A->colidx[k] - r;
      int      seen = 0;
      for (int d = 0; d < n && !seen; d++) seen = offsets[d] == off;
      if (seen) continue;
      if (n == max) return -1;
      offsets[n++] = off;
    }
  qsort(offsets, (size_t)n, sizeof(aijt_int), ref_cmp_int);
  return n;
}

static aijt_int ref_len(const aijt_csr *A, const aijt_int *order, aijt_int k)
{
  aijt_int r = order ? order[k] : k;
  return A->rowptr[r + 1] - A->rowptr[r];
}

/* The features summed row by row in doubles. */
static void ref_features(const aijt_csr *A, aijt_features *f)
{
  double sum = 0, sum2 = 0;
  memset(f, 0, sizeof(*f));
  f->nrows = A->nrows;
  f->nnz   = A->nrows ? A->rowptr[A->nrows] : 0;
  for (aijt_int i = 0; i < A->nrows; i++) {
    aijt_int len = ref_len(A, NULL, i);
    if (i == 0 || len < f->min_len) f->min_len = len;
    if (len > f->max_len) f->max_len = len;
    if (!len) f->empty_rows++;
    sum += (double)len;
    sum2 += (double)len * (double)len;
  }
  f->mean_len = A->nrows ? sum / (double)A->nrows : 0.0;
  f->std_len  = A->nrows ? sqrt(fmax(0.0, sum2 / (double)A->nrows - f->mean_len * f->mean_len)) : 0.0;
}

/* Stable order by decreasing length: a sort on (length descending, row ascending). */
static const aijt_csr *ref_sorting;

static int ref_cmp_rows(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b, lx = ref_len(ref_sorting, NULL, x), ly = ref_len(ref_sorting, NULL, y);
  return lx != ly ? (lx < ly) - (lx > ly) : (x > y) - (x < y);
}

static aijt_int *ref_order(const aijt_csr *A)
{
  aijt_int *order = (aijt_int *)malloc(((size_t)A->nrows + 1) * sizeof(aijt_int));
  for (aijt_int i = 0; i < A->nrows; i++) order[i] = i;
  ref_sorting = A;
  qsort(order, (size_t)A->nrows, sizeof(aijt_int), ref_cmp_rows);
  return order;
}

/* aijt_locality as first written: windows found by walking every row, distinct sectors by sorting. */
static double ref_distinct(aijt_int *buf, int n)
{
  int distinct = n > 0;
  qsort(buf, (size_t)n, sizeof(aijt_int), ref_cmp_int);
  for (int i = 1; i < n; i++) distinct += buf[i] != buf[i - 1];
  return (double)distinct;
}

static double ref_locality(const aijt_csr *A, const aijt_int *order, aijt_int begin, aijt_int end, int max_windows)
{
  aijt_int buf[AIJT_LOCALITY_WINDOW];
  int64_t  total = 0, seen = 0, start = 0;
  int      nwin, w = 0, fill = 0, collecting = 0;
  double   distinct = 0, entries = 0;

  for (aijt_int k = begin; k < end; k++) total += ref_len(A, order, k);
  if (!total) return 0;
  nwin = (int)(total / AIJT_LOCALITY_WINDOW);
  if (nwin > max_windows) nwin = max_windows;
  if (nwin < 1) nwin = 1;
  for (aijt_int k = begin; k < end && w < nwin; k++) {
    aijt_int r = order ? order[k] : k, a = A->rowptr[r], len = A->rowptr[r + 1] - a;
    for (aijt_int e = 0; e < len && w < nwin;) {
      if (!collecting) {
        start = (int64_t)((double)w * (double)total / (double)nwin);
        if (seen + e < start) {
          int64_t skip = start - (seen + e);
          e += (aijt_int)(skip < len - e ? skip : len - e);
          continue;
        }
        collecting = 1;
        fill       = 0;
      }
      buf[fill++] = A->colidx[a + e++] >> 2;
      if (fill == AIJT_LOCALITY_WINDOW) {
        distinct += ref_distinct(buf, fill);
        entries += fill;
        collecting = 0;
        w++;
      }
    }
    seen += len;
  }
  if (collecting && fill) {
    distinct += ref_distinct(buf, fill);
    entries += fill;
  }
  return entries > 0 ? distinct / entries : 0;
}

static int ref_class(aijt_int len)
{
  return len <= 64 ? (int)len : 65 + (int)floor(log((double)len / 64.0) / log(1.25));
}

/* The model planner's length classes, one row at a time. */
static aijt_bucket *ref_buckets(const aijt_csr *A, const aijt_int *order, int *nb)
{
  aijt_bucket *b = (aijt_bucket *)malloc(((size_t)A->nrows + 1) * sizeof(aijt_bucket));
  int          n = 0;
  for (aijt_int k = 0; k < A->nrows;) {
    aijt_int len = ref_len(A, order, k), e = k + 1, nnz = len;
    while (e < A->nrows && ref_class(ref_len(A, order, e)) == ref_class(len)) nnz += ref_len(A, order, e++);
    b[n].begin   = k;
    b[n].end     = e;
    b[n].nnz     = nnz;
    b[n].max_len = len;
    b[n].min_len = ref_len(A, order, e - 1);
    b[n].d       = ref_locality(A, order, k, e, 8);
    n++;
    k = e;
  }
  *nb = n;
  return b;
}

/* Layouts slot by slot, as layout.c first wrote them. */
static void ref_put(aijt_layout *S, aijt_int slot, const aijt_csr *A, aijt_int k)
{
  S->col[slot] = k < 0 ? -1 : A->colidx[k];
  S->src[slot] = k;
  S->val[slot] = (k < 0 || !A->values) ? 0.0 : A->values[k];
}

static void *ref_alloc(size_t n, size_t size)
{
  return calloc(n ? n : 1, size);
}

static void ref_slots(aijt_layout *S, aijt_int n)
{
  S->nslots = n;
  S->col    = (aijt_int *)ref_alloc((size_t)n, sizeof(aijt_int));
  S->val    = (double *)ref_alloc((size_t)n, sizeof(double));
  S->src    = (aijt_int *)ref_alloc((size_t)n, sizeof(aijt_int));
}

static int ref_strip(const aijt_strip *P, const aijt_plan *plan, const aijt_csr *A, aijt_layout *S, aijt_coo *T)
{
  S->format = P->format;
  S->nrows  = P->end - P->begin;
  S->rows   = (aijt_int *)ref_alloc((size_t)S->nrows, sizeof(aijt_int));
  for (aijt_int i = 0; i < S->nrows; i++) S->rows[i] = aijt_plan_row(plan, P->begin + i);
  aijt_int tail_from = -1; /* entries of each row from this one on go to the tail */
  switch (P->format) {
  case AIJT_CSR:
  case AIJT_LONG:
    S->ptr = (aijt_int *)ref_alloc((size_t)S->nrows + 1, sizeof(aijt_int));
    for (aijt_int i = 0; i < S->nrows; i++) S->ptr[i + 1] = S->ptr[i] + ref_len(A, NULL, S->rows[i]);
    ref_slots(S, S->ptr[S->nrows]);
    for (aijt_int i = 0; i < S->nrows; i++)
      for (aijt_int j = 0; j < ref_len(A, NULL, S->rows[i]); j++) ref_put(S, S->ptr[i] + j, A, A->rowptr[S->rows[i]] + j);
    break;
  case AIJT_ELL:
    S->width = P->width;
    ref_slots(S, S->nrows * P->width);
    for (aijt_int i = 0; i < S->nrows; i++)
      for (aijt_int j = 0; j < P->width; j++) ref_put(S, j * S->nrows + i, A, j < ref_len(A, NULL, S->rows[i]) ? A->rowptr[S->rows[i]] + j : -1);
    tail_from = P->width;
    break;
  case AIJT_SELL: {
    aijt_int C = P->chunk, nslices = (S->nrows + C - 1) / C;
    if (P->sigma > 1) /* stable within windows of sigma rows, longest first */
      for (aijt_int w = 0; w < S->nrows; w += P->sigma)
        for (aijt_int i = w + 1; i < S->nrows && i < w + P->sigma; i++)
          for (aijt_int j = i; j > w && ref_len(A, NULL, S->rows[j - 1]) < ref_len(A, NULL, S->rows[j]); j--) {
            aijt_int t = S->rows[j];
            S->rows[j] = S->rows[j - 1], S->rows[j - 1] = t;
          }
    S->chunk = P->chunk;
    S->ptr   = (aijt_int *)ref_alloc((size_t)nslices + 1, sizeof(aijt_int));
    for (aijt_int s = 0; s < nslices; s++) {
      aijt_int w = 0;
      for (aijt_int i = s * C; i < (s + 1) * C && i < S->nrows; i++) w = ref_len(A, NULL, S->rows[i]) > w ? ref_len(A, NULL, S->rows[i]) : w;
      S->ptr[s + 1] = S->ptr[s] + w * C;
    }
    ref_slots(S, S->ptr[nslices]);
    for (aijt_int s = 0; s < nslices; s++)
      for (aijt_int l = 0; l < C; l++)
        for (aijt_int j = 0; j < (S->ptr[s + 1] - S->ptr[s]) / C; j++) {
          aijt_int i = s * C + l, r = i < S->nrows ? S->rows[i] : -1;
          ref_put(S, S->ptr[s] + j * C + l, A, r >= 0 && j < ref_len(A, NULL, r) ? A->rowptr[r] + j : -1);
        }
  } break;
  case AIJT_COO:
    ref_slots(S, 0);
    tail_from = 0;
    break;
  case AIJT_DIA: {
    aijt_int off[AIJT_DIA_MAX_DIAGS];
    if (ref_diagonals(A, AIJT_DIA_MAX_DIAGS, off) != P->width) return 1;
    S->width = P->width;
    S->ptr   = (aijt_int *)ref_alloc(AIJT_DIA_MAX_DIAGS, sizeof(aijt_int));
    memcpy(S->ptr, off, (size_t)P->width * sizeof(aijt_int));
    S->mask = (uint32_t *)ref_alloc((size_t)S->nrows, sizeof(uint32_t));
    ref_slots(S, S->nrows * P->width);
    free(S->col);
    S->col = NULL;
    for (aijt_int k = 0; k < S->nslots; k++) S->src[k] = -1;
    for (aijt_int i = 0; i < S->nrows; i++) {
      int d = 0; /* diagonals ascend with the columns; a repeated column refills its slot */
      if (S->rows[i] != S->rows[0] + i) return 1;
      for (aijt_int k = A->rowptr[S->rows[i]]; k < A->rowptr[S->rows[i] + 1]; k++) {
        while (d < P->width && off[d] < A->colidx[k] - S->rows[i]) d++;
        if (d == P->width || off[d] != A->colidx[k] - S->rows[i]) return 1;
        S->mask[i] |= 1u << d;
        S->src[d * S->nrows + i] = k;
        S->val[d * S->nrows + i] = A->values ? A->values[k] : 0.0;
      }
    }
  } break;
  case AIJT_PANEL: { /* panel by panel, row by row: every entry of the row in the panel, in column order */
    aijt_int np = (A->ncols + P->width - 1) / P->width, q = 0;
    if (np < 1) np = 1;
    S->width = P->width, S->chunk = P->chunk, S->ncols = A->ncols;
    S->ptr   = (aijt_int *)ref_alloc((size_t)(np * S->nrows) + 1, sizeof(aijt_int));
    ref_slots(S, P->nnz);
    for (aijt_int p = 0; p < np; p++)
      for (aijt_int i = 0; i < S->nrows; i++) {
        if (S->rows[i] != S->rows[0] + i) return 1;
        for (aijt_int k = A->rowptr[S->rows[i]]; k < A->rowptr[S->rows[i] + 1]; k++)
          if (A->colidx[k] / P->width == p) {
            ref_put(S, q, A, k);
            S->col[q++] -= p * P->width;
          }
        S->ptr[p * S->nrows + i + 1] = q;
      }
    if (q != P->nnz) return 1;
  } break;
  case AIJT_STREAM: { /* CSR's slots; then block b's first row: the rows up to it start before b shares */
    aijt_int nb = S->nrows && P->nnz ? (P->nnz + AIJT_STREAM_SHARE - 1) / AIJT_STREAM_SHARE : 1, b = 0;
    S->ptr = (aijt_int *)ref_alloc((size_t)S->nrows + 1 + (size_t)nb + 1, sizeof(aijt_int));
    for (aijt_int i = 0; i < S->nrows; i++) {
      if (S->rows[i] != S->rows[0] + i) return 1;
      S->ptr[i + 1] = S->ptr[i] + ref_len(A, NULL, S->rows[i]);
      S->width      = ref_len(A, NULL, S->rows[i]) > S->width ? ref_len(A, NULL, S->rows[i]) : S->width;
    }
    ref_slots(S, S->ptr[S->nrows]);
    for (aijt_int i = 0; i < S->nrows; i++)
      for (aijt_int j = 0; j < ref_len(A, NULL, S->rows[i]); j++) ref_put(S, S->ptr[i] + j, A, A->rowptr[S->rows[i]] + j);
    for (aijt_int i = 0; i <= S->nrows && b < nb; i++) /* row i is the first whose offset reaches b's share */
      while (b < nb && (i == S->nrows || S->ptr[i] >= (int64_t)b * AIJT_STREAM_SHARE)) S->ptr[S->nrows + 1 + b++] = i;
    S->ptr[S->nrows + 1 + nb] = S->nrows;
  } break;
  default:
    return 1;
  }
  for (aijt_int i = 0; tail_from >= 0 && i < S->nrows; i++)
    for (aijt_int k = A->rowptr[S->rows[i]] + tail_from; k < A->rowptr[S->rows[i] + 1]; k++) {
      T->row[T->nnz] = S->rows[i];
      T->col[T->nnz] = A->colidx[k];
      T->src[T->nnz] = k;
      T->val[T->nnz] = A->values ? A->values[k] : 0.0;
      T->nnz++;
    }
  return 0;
}

/* Same arrays, bit for bit (sizes from the reference). */
#define SAME(a, b, n) ((!(a) && !(b)) || ((a) && (b) && !memcmp((a), (b), (size_t)(n) * sizeof(*(a)))))

static size_t ptr_count(const aijt_layout *S)
{
  if (S->format == AIJT_PANEL) return (size_t)((S->ncols + S->width - 1) / S->width > 1 ? (S->ncols + S->width - 1) / S->width : 1) * (size_t)S->nrows + 1;
  if (S->format == AIJT_STREAM) return (size_t)S->nrows + 1 + (size_t)(S->nslots ? (S->nslots + AIJT_STREAM_SHARE - 1) / AIJT_STREAM_SHARE : 1) + 1;
  return S->format == AIJT_SELL ? (size_t)(S->nrows + S->chunk - 1) / (size_t)S->chunk + 1 : S->format == AIJT_DIA ? (size_t)S->width : S->ptr ? (size_t)S->nrows + 1 : 0;
}

static int same_layouts(const aijt_layouts *L, const aijt_layout *R, int n, const aijt_coo *T, const char *label)
{
  int ok = L->nstrips == n && L->tail.nnz == T->nnz;
  for (int s = 0; ok && s < n; s++) {
    const aijt_layout *a = &L->strips[s], *b = &R[s];
    ok = a->format == b->format && a->nrows == b->nrows && a->nslots == b->nslots && a->width == b->width && a->chunk == b->chunk && a->ncols == b->ncols;
    ok = ok && SAME(a->rows, b->rows, b->nrows) && SAME(a->ptr, b->ptr, ptr_count(b)) && SAME(a->col, b->col, b->nslots) && SAME(a->val, b->val, b->nslots) && SAME(a->src, b->src, b->nslots) && SAME(a->mask, b->mask, b->nrows);
    if (!ok) printf("  %s: strip %d (%s) differs from the reference\n", label, s, aijt_format_names[b->format]);
  }
  return ok && SAME(L->tail.row, T->row, T->nnz) && SAME(L->tail.col, T->col, T->nnz) && SAME(L->tail.val, T->val, T->nnz) && SAME(L->tail.src, T->src, T->nnz);
}

static void ref_free(aijt_layout *R, int n, aijt_coo *T)
{
  for (int s = 0; s < n; s++) free(R[s].rows), free(R[s].ptr), free(R[s].col), free(R[s].val), free(R[s].src), free(R[s].mask);
  free(R);
  free(T->row), free(T->col), free(T->val), free(T->src);
}

/* ---------------------------------------------------------------------------------------------------
   The checks. */

static aijt_model test_m, shipped_m;
static int        have_shipped;

/* A plan's layouts and their refresh against the references. */
static void check_layouts(const aijt_plan *P, aijt_csr *A, const char *label)
{
  aijt_layouts *L = NULL;
  aijt_layout  *R = (aijt_layout *)calloc((size_t)P->nstrips + 1, sizeof(aijt_layout));
  aijt_coo      T = {0, NULL, NULL, NULL, NULL};
  int           ref_err = 0;
  aijt_err      err;

  T.row = (aijt_int *)ref_alloc((size_t)P->tail_nnz, sizeof(aijt_int));
  T.col = (aijt_int *)ref_alloc((size_t)P->tail_nnz, sizeof(aijt_int));
  T.src = (aijt_int *)ref_alloc((size_t)P->tail_nnz, sizeof(aijt_int));
  T.val = (double *)ref_alloc((size_t)P->tail_nnz, sizeof(double));
  for (int s = 0; s < P->nstrips && !ref_err; s++) ref_err = ref_strip(&P->strips[s], P, A, &R[s], &T);
  err = aijt_layouts_build(P, A, &L);
  EXPECT(!err == !ref_err, "%s: layouts %s where the reference %s", label, err ? "fail" : "build", ref_err ? "fails" : "builds");
  if (!err && !ref_err) {
    EXPECT(same_layouts(L, R, P->nstrips, &T, label), "%s: layouts differ from the reference", label);
    for (int s = 0; s < P->nstrips; s++) /* the planner's count of a SELL strip's slots, which the device skeleton takes */
      if (P->sorted && P->strips[s].slots > 0) EXPECT(P->strips[s].slots == (int64_t)L->strips[s].nslots, "%s: strip %d: the planner gave %lld SELL slots, the layout holds %lld", label, s, (long long)P->strips[s].slots, (long long)L->strips[s].nslots);
    /* new values: the refresh must fill what a build with them fills */
    double *v = (double *)A->values, *old = (double *)malloc(((size_t)A->rowptr[A->nrows] + 1) * sizeof(double));
    memcpy(old, v, (size_t)A->rowptr[A->nrows] * sizeof(double));
    for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) v[k] = (double)(rnd() % 1000) - 500.0;
    aijt_layouts_refresh(L, v);
    for (int s = 0; s < P->nstrips; s++)
      for (aijt_int k = 0; k < R[s].nslots; k++) R[s].val[k] = R[s].src[k] < 0 ? 0.0 : v[R[s].src[k]];
    for (aijt_int k = 0; k < T.nnz; k++) T.val[k] = v[T.src[k]];
    EXPECT(same_layouts(L, R, P->nstrips, &T, label), "%s: refreshed layouts differ from the reference", label);
    memcpy(v, old, (size_t)A->rowptr[A->nrows] * sizeof(double));
    free(old);
  }
  aijt_layouts_destroy(&L);
  ref_free(R, P->nstrips, &T);
}

static int same_buckets(const aijt_bucket *a, const aijt_bucket *b, int n)
{
  for (int i = 0; i < n; i++)
    if (a[i].begin != b[i].begin || a[i].end != b[i].end || a[i].nnz != b[i].nnz || a[i].max_len != b[i].max_len || a[i].min_len != b[i].min_len || memcmp(&a[i].d, &b[i].d, sizeof(double))) return 0;
  return 1;
}

/* The split's dynamic program cut at a whole-matrix plan's price, beat (partition.c: no offer above it less a
   launch, nor above it less a floor of the buckets left), makes the uncut program's split wherever that is
   predicted under beat, strip for strip, and none only where it is not.  A floor above some path's true cost
   would lose that path under a beat just above its price. */
static void check_split_cut(const char *name, const aijt_csr *A, const aijt_bucket *b, int nb, const aijt_model *m)
{
  static const double share[] = {0.5, 0.9, 0.99, 1 - 1e-6, 1 + 1e-6, 1.01, 1.1, 2};
  aijt_rules          R;
  aijt_plan          *all = NULL;
  int                 cap = 0;
  double              t   = INFINITY;

  aijt_rules_default(&R);
  EXPECT(!aijt_plan_start(A, &all) && !aijt_model_split(&R, m, b, nb, INFINITY, all, &cap, &t), "%s: the split failed", name);
  for (size_t q = 0; all && isfinite(t) && q < sizeof(share) / sizeof(share[0]); q++) {
    aijt_plan *cut = NULL;
    double     u   = INFINITY;
    cap            = 0;
    EXPECT(!aijt_plan_start(A, &cut) && !aijt_model_split(&R, m, b, nb, t * share[q], cut, &cap, &u), "%s: the split cut at %g of its price failed", name, share[q]);
    if (cut && isfinite(u)) EXPECT(u == t && aijt_plan_equal(all, cut), "%s: the split cut at %g of its price differs from the uncut one (%.17g us against %.17g)", name, share[q], u, t);
    else if (cut) EXPECT(share[q] <= 1 + 1e-9 && cut->nstrips == 0, "%s: the split cut at %g of its price made none (or strips and no price)", name, share[q]);
    aijt_plan_destroy(&cut);
  }
  aijt_plan_destroy(&all);
}

static void check_matrix(const char *name, aijt_csr *A)
{
  int        plans = 0;
  aijt_int   off[AIJT_DIA_MAX_DIAGS], ref_off[AIJT_DIA_MAX_DIAGS], *order = NULL, *ref = ref_order(A);
  aijt_rules R;
  char       label[160];
  int        nd, ref_nd;

  for (int max = 0; max <= AIJT_DIA_MAX_DIAGS; max += max < 8 ? 1 : 8) {
    nd     = aijt_diagonals(A, max, off);
    ref_nd = ref_diagonals(A, max, ref_off);
    EXPECT(nd == ref_nd && (nd < 0 || !memcmp(off, ref_off, (size_t)nd * sizeof(aijt_int))), "%s: %d diagonals (at most %d) where the reference finds %d", name, nd, max, ref_nd);
  }
  {
    aijt_features f, g;
    memset(&f, 0, sizeof(f));
    aijt_features_compute(A, &f);
    ref_features(A, &g);
    EXPECT(f.nrows == g.nrows && f.nnz == g.nnz && f.min_len == g.min_len && f.max_len == g.max_len && f.empty_rows == g.empty_rows && !memcmp(&f.mean_len, &g.mean_len, sizeof(double)) && !memcmp(&f.std_len, &g.std_len, sizeof(double)), "%s: features differ from the reference", name);
  }
  EXPECT(!aijt_order_by_length(A, &order) && !memcmp(order, ref, (size_t)A->nrows * sizeof(aijt_int)), "%s: order by length differs from the reference", name);
  for (int q = 0; q < 40 && A->nrows; q++) { /* the feature over ranges of both orders, with few and many windows */
    aijt_int b = (aijt_int)(rnd() % (unsigned long long)A->nrows), e = b + (aijt_int)(rnd() % (unsigned long long)(A->nrows - b + 1));
    int      w = q % 2 ? 8 : 1 + (int)(rnd() % 64);
    double   x = aijt_locality(A, q % 3 ? order : NULL, b, e, w), y = ref_locality(A, q % 3 ? order : NULL, b, e, w);
    EXPECT(!memcmp(&x, &y, sizeof(double)), "%s: locality of [%lld, %lld) with %d windows is %.17g, the reference %.17g", name, (long long)b, (long long)e, w, x, y);
  }
  {
    aijt_bucket *b = NULL, *rb;
    int          nb = -1, rnb;
    aijt_int    *count = NULL, *counted = NULL, max_len = 0;
    for (aijt_int i = 0; i < A->nrows; i++) max_len = ref_len(A, NULL, i) > max_len ? ref_len(A, NULL, i) : max_len;
    EXPECT(!aijt_length_counts(A, max_len, &count) && !aijt_order_from_counts(A, max_len, count, &counted) && !memcmp(counted, ref, (size_t)A->nrows * sizeof(aijt_int)), "%s: order from the counts differs from the reference", name);
    rb = ref_buckets(A, order, &rnb);
    EXPECT(!aijt_model_buckets(A, order, count, max_len, &b, &nb) && nb == rnb && same_buckets(b, rb, nb), "%s: the model planner's length classes differ from the reference", name);
    check_split_cut(name, A, b, nb, &test_m);
    if (have_shipped) check_split_cut(name, A, b, nb, &shipped_m);
    free(b), free(rb), aijt_counts_free(count), free(counted);
  }
  /* plans of both planners, sorted and not, each format alone, and thresholds that make many strips */
  for (int planner = 0; planner < 3; planner++)
    for (int sort = 0; sort < 2; sort++)
      for (int f = -1; f < AIJT_NFORMATS; f++)
        for (int small = 0; small < 2; small++) {
          aijt_plan *P = NULL;
          if (planner == 2 && !have_shipped) continue;
          aijt_rules_default(&R);
          R.sort = sort;
          if (f >= 0) R.allowed = AIJT_FORMAT_BIT(f);
          if (small) R.min_strip_rows = 1, R.min_strip_share = 0, R.long_row = 8, R.sell_max_len = 4, R.sell_chunk = 4, R.sell_sigma = 8, R.ell_max_pad = 0.5;
          aijt_err err = planner ? aijt_plan_model(A, &R, planner == 1 ? &test_m : &shipped_m, &P) : aijt_plan_rules(A, &R, &P);
          snprintf(label, sizeof(label), "%s %s sort=%d small=%d formats=%s", name, planner == 0 ? "rules" : planner == 1 ? "model" : "shipped model", sort, small, f < 0 ? "all" : aijt_format_names[f]);
          if (!err) check_layouts(P, A, label), plans++;
          aijt_plan_destroy(&P);
        }
  { /* one CSR strip over every row in natural order: the CSR itself */
    aijt_plan *P   = NULL;
    aijt_strip s   = {0};
    int        cap = 0;
    aijt_plan_start(A, &P);
    s.format = AIJT_CSR, s.end = A->nrows, s.nnz = P->nnz, s.max_len = P->features.max_len, s.tpr = 4, s.block = 256;
    if (A->nrows) aijt_plan_append(P, &cap, &s);
    snprintf(label, sizeof(label), "%s one CSR strip", name);
    check_layouts(P, A, label), plans++;
    aijt_plan_destroy(&P);
  }
  printf("%-24s %6lld x %-6lld nnz %7lld: %2d diagonals, %3d plans laid out\n", name, (long long)A->nrows, (long long)A->ncols, (long long)(A->nrows ? A->rowptr[A->nrows] : 0), ref_diagonals(A, AIJT_DIA_MAX_DIAGS, ref_off), plans);
  free(order);
  free(ref);
}

/* ---------------------------------------------------------------------------------------------------
   The matrices. */

typedef struct {
  aijt_int *rowptr, *colidx;
  double   *values;
} arrays;

/* Rows of the given lengths (capped at n) with distinct random sorted columns, within band[i] columns
   around the diagonal where band is given and the row fits. */
static aijt_csr make(aijt_int m, aijt_int n, const aijt_int *len, const aijt_int *band, arrays *a)
{
  aijt_csr       A    = {m, n, NULL, NULL, NULL, NULL, 0, 0};
  unsigned char *used = (unsigned char *)calloc((size_t)n + 1, 1);
  a->rowptr           = (aijt_int *)malloc(((size_t)m + 1) * sizeof(aijt_int));
  a->rowptr[0]        = 0;
  for (aijt_int i = 0; i < m; i++) a->rowptr[i + 1] = a->rowptr[i] + (len[i] < n ? len[i] : n);
  a->colidx = (aijt_int *)malloc(((size_t)a->rowptr[m] + 1) * sizeof(aijt_int));
  a->values = (double *)malloc(((size_t)a->rowptr[m] + 1) * sizeof(double));
  for (aijt_int i = 0, k = 0; i < m; i++) {
    aijt_int l = a->rowptr[i + 1] - a->rowptr[i], lo = 0, span = n;
    if (band) {
      lo   = i - band[i] / 2 < 0 ? 0 : i - band[i] / 2;
      span = lo + band[i] > n ? n - lo : band[i];
      if (l > span) lo = 0, span = n;
    }
    for (aijt_int j = 0; j < l;) {
      aijt_int c = lo + (aijt_int)(rnd() % (unsigned long long)span);
      if (!used[c]) used[c] = 1, j++;
    }
    for (aijt_int c = lo; c < lo + span && k < a->rowptr[i + 1]; c++)
      if (used[c]) a->colidx[k++] = c, used[c] = 0;
  }
  free(used);
  for (aijt_int k = 0; k < a->rowptr[m]; k++) a->values[k] = (double)(rnd() % 2001) / 1000.0 - 1.0;
  A.rowptr = a->rowptr, A.colidx = a->colidx, A.values = a->values;
  return A;
}

static aijt_csr make_stencil(aijt_int nx, aijt_int ny, aijt_int nz, int holes, arrays *a)
{
  aijt_int n = nx * ny * nz;
  aijt_csr A = {n, n, NULL, NULL, NULL, NULL, 0, 0};
  a->rowptr  = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));
  a->colidx  = (aijt_int *)malloc(((size_t)7 * n + 1) * sizeof(aijt_int));
  a->values  = (double *)malloc(((size_t)7 * n + 1) * sizeof(double));
  aijt_int nnz = test_stencil_pattern(nx, ny, nz, holes, a->rowptr, a->colidx);
  for (aijt_int k = 0; k < nnz; k++) a->values[k] = (double)(rnd() % 2001) / 1000.0 - 1.0;
  A.rowptr = a->rowptr, A.colidx = a->colidx, A.values = a->values;
  return A;
}

static void done(arrays *a)
{
  free(a->rowptr), free(a->colidx), free(a->values);
}

/* The planners' kept count arrays (counts.c): zeroed whenever taken, again too; distinct while several are in use,
   more than the blocks kept among them; any size; memory from malloc freed as well; taken again after a release. */
static void check_counts(void)
{
  const size_t sizes[] = {10, 5000, 80000, 80000, 20000, 30000, (size_t)5 << 20};
  enum { N = sizeof(sizes) / sizeof(sizes[0]) };
  aijt_int *c[N];

  for (int round = 0; round < 3; round++) {
    for (int k = 0; k < N; k++) {
      size_t nonzero = 0;
      c[k]           = aijt_counts_new(sizes[k]);
      EXPECT(c[k], "counts: round %d, no array of %zu entries", round, sizes[k]);
      if (!c[k]) continue;
      for (size_t i = 0; i < sizes[k]; i++) nonzero += c[k][i] != 0;
      EXPECT(!nonzero, "counts: round %d, the array of %zu entries has %zu not zero", round, sizes[k], nonzero);
      for (size_t i = 0; i < sizes[k]; i++) c[k][i] = (aijt_int)(i + 1); /* what the next round must not see */
    }
    for (int k = 1; k < N; k++)
      for (int l = 0; l < k; l++) EXPECT(!c[k] || c[k] != c[l], "counts: round %d, arrays %d and %d are the same memory", round, l, k);
    for (int k = round % 2 ? 0 : N - 1; k >= 0 && k < N; k += round % 2 ? 1 : -1) aijt_counts_free(c[k]);
  }
  aijt_counts_free((aijt_int *)malloc(100000 * sizeof(aijt_int)));
  aijt_counts_free(NULL);
  aijt_counts_release();
  c[0] = aijt_counts_new(80000);
  EXPECT(c[0] && !c[0][0] && !c[0][79999], "counts: an array taken after the release is not zeroed");
  aijt_counts_free(c[0]);
  aijt_counts_release();
}

int main(int argc, char **argv)
{
  static aijt_int len[60000], band[60000];
  arrays          a;
  aijt_csr        A;
  char            why[256];
  (void)argc, (void)argv, (void)help;

  check_counts();
  test_model(&test_m);
  have_shipped = !aijt_model_load("../../models/NVIDIA-H200.model", &shipped_m, why, sizeof(why));
  EXPECT(have_shipped, "the shipped model does not load: %s", why);

  for (aijt_int i = 0; i < 3000; i++) len[i] = (aijt_int)(rnd() % 12);
  A = make(3000, 3000, len, NULL, &a);
  check_matrix("random_0_11", &A), done(&a);

  for (aijt_int i = 0; i < 20000; i++) { /* power law: many length classes, long rows of scattered lengths */
    double u = (double)(rnd() % 1000000 + 1) / 1000001.0, l = pow(u, -1.0 / 1.1);
    len[i]   = (aijt_int)(l > 2000 ? 2000 : l);
  }
  A = make(20000, 20000, len, NULL, &a);
  check_matrix("power_law", &A), done(&a);

  for (aijt_int i = 0; i < 40000; i++) len[i] = 81 - (aijt_int)(rnd() % 3 == 0 ? rnd() % 40 : 0); /* long rows of one class, several lengths */
  A = make(40000, 40000, len, NULL, &a);
  check_matrix("elasticity_like", &A), done(&a);

  for (aijt_int i = 0; i < 9000; i++) len[i] = i % 5 ? 3 + (aijt_int)(rnd() % 2) : 0, band[i] = 7; /* banded with empty rows */
  A = make(9000, 9000, len, band, &a);
  check_matrix("band_7_empty_rows", &A), done(&a);

  for (aijt_int i = 0; i < 9000; i++) len[i] = i < 8000 ? 3 : 5, band[i] = i < 8000 ? 3 : 200; /* tridiagonal, then too many diagonals */
  A = make(9000, 9000, len, band, &a);
  check_matrix("band_late_spread", &A), done(&a);

  for (aijt_int i = 0; i < 5000; i++) len[i] = i % 500 == 0 ? 3000 : 2 + (aijt_int)(rnd() % 4);
  A = make(5000, 5000, len, NULL, &a);
  check_matrix("alternating_long", &A), done(&a);

  for (aijt_int i = 0; i < 300; i++) len[i] = 1 + (aijt_int)(rnd() % 40);
  A = make(300, 5000, len, NULL, &a);
  check_matrix("rectangular_wide", &A), done(&a);

  A = make(0, 10, len, NULL, &a);
  check_matrix("zero_rows", &A), done(&a);

  len[0] = 1;
  A = make(1, 1, len, NULL, &a);
  check_matrix("one_by_one", &A), done(&a);

  A = make_stencil(61, 47, 1, 0, &a);
  check_matrix("stencil_2d", &A), done(&a);

  { /* a DIA plan on a matrix whose last row has a diagonal more: refused, as by the reference */
    aijt_plan *P = NULL;
    aijt_rules R;
    A = make_stencil(61, 47, 1, 0, &a);
    aijt_rules_default(&R);
    R.allowed = AIJT_FORMAT_BIT(AIJT_DIA);
    EXPECT(!aijt_plan_rules(&A, &R, &P) && P->strips[0].format == AIJT_DIA, "stencil_2d: no DIA plan");
    a.colidx[a.rowptr[A.nrows - 1] + 1]--; /* the last row's west neighbour one column further: a new diagonal */
    check_layouts(P, &A, "stencil_2d DIA plan, a diagonal more in the last row");
    aijt_plan_destroy(&P);
    done(&a);
  }

  A = make_stencil(23, 19, 17, 0, &a);
  check_matrix("stencil_3d", &A), done(&a);

  A = make_stencil(21, 18, 13, 1, &a);
  check_matrix("stencil_3d_holes", &A), done(&a);

  A = make_stencil(40, 30, 1, 0, &a); /* a repeated column (not valid CSR): DIA must treat it as the references do */
  a.colidx[a.rowptr[700] + 1] = a.colidx[a.rowptr[700]];
  check_matrix("stencil_repeated_column", &A), done(&a);

  A = make_stencil(40, 30, 1, 0, &a); /* unsorted columns in one row */
  {
    aijt_int t                  = a.colidx[a.rowptr[500]];
    a.colidx[a.rowptr[500]]     = a.colidx[a.rowptr[500] + 2];
    a.colidx[a.rowptr[500] + 2] = t;
  }
  check_matrix("stencil_unsorted_row", &A), done(&a);

  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0

TEST*/
