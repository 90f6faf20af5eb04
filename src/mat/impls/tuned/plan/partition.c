/*
   The model-driven planner: the cheapest split of the sorted rows into strips, by the model's prediction.

   1. Order.  Rows sorted by decreasing length (stable), as the rules do.
   2. Length classes.  Consecutive sorted rows of one class form a bucket: each length up to 64 is a
      class of its own, longer ones go by factors of 1.25 (a row of 1000 entries and one of 1200 cost
      alike per entry).  A bucket knows its rows, entries, longest row and locality feature (sampled).
      Strip boundaries fall between buckets: there are at most about a hundred of them.
   3. Costs.  For each bucket and kernel (CSR with 1 to 32 threads per row, SELL, LONG, COO) the model's
      ns per row at the bucket's mean length and feature, times its rows: additive, so a strip's work is
      a difference of prefix sums.  ELL pads every row to the strip's longest: rows x ns(longest).  A
      strip costs the larger of its work and its critical path (its longest row; LONG: its longest part
      at one block's rate).  A LONG strip spans at most a factor 4 in row length (its rows all get the
      parts of the longest), and COO strips pay the tail's launch.
   4. Dynamic program.  best[j] = min over i < j and kernels k of best[i] + work(i, j, k) + the cost of
      one more strip: the best split into any number of strips and kernels (seed 000 searched one
      separator between two formats; additive costs make the whole search this cheap), O(B^2 K) for B
      buckets and K kernels.
   Empty rows form a strip of their own, which an in-place y += A x skips (aijt_plan_empty_tail).
   5. Diagonals.  When DIA is allowed and the matrix has at most 32 diagonals, the whole matrix as one
      DIA strip in natural order, if the model predicts it faster than the split.
   6. Column panels.  When PANEL is allowed and the rules find the matrix wide and full enough for it
      (panel.c), the whole matrix as one PANEL strip in natural order, if the model predicts it faster
      than both.
   7. Row blocks.  When STREAM is allowed, the model has its kernels and no row is longer than
      AIJT_STREAM_MAX_LEN, the whole matrix as one STREAM strip in natural order, if the model predicts it
      faster than all three: its rows at their lengths (count[]) and at the locality of the natural order
      (sampled only where the cheaper of the local and random times could win at all).

   Steps 5 to 7 price the whole matrix as one strip (wholeplan.c).  Before steps 1 to 4, when DIA, PANEL
   or STREAM is possible, a bound of the split from the length classes alone (each at the cheaper of the
   model's local and random times) may already lose to them: the rows are then neither ordered nor
   sampled, and the plan is the same.  The bound is first a floor, each class at its cheapest kernel
   (split_floor); the dynamic program's tighter bound runs only where a whole-matrix plan is within reach
   of that floor.

   What the planner reads of the matrix comes from a source (aijt_plan_source): the host CSR, or its
   copy on the GPU (kernels/plan_gpu.cu), with the same values; only its decisions run here.

   Plans the model cannot make (rows left unsorted, DIA or PANEL alone, no kernel of the allowed formats in the
   model) come from the rules.
*/
#include "aijtmodel.h"
#include "planbuild.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int length_class(aijt_int len)
{
  return len <= 64 ? (int)len : 65 + (int)floor(log((double)len / 64.0) / log(1.25));
}

/* Rows of one length are consecutive in the sorted order, and a class is a range of lengths: each bucket
   is a few runs of count[], and no row is visited but those the locality windows read, all windows of
   all buckets in one call of the source. */
#define BUCKET_WINDOWS 8

/* The locality of each of the n buckets b of plan p, through src: all their windows in one call. */
static aijt_err bucket_localities(const aijt_plan_source *src, const aijt_plan *p, const aijt_int *count, aijt_bucket *b, int n)
{
  aijt_window *w        = (aijt_window *)malloc(((size_t)n * BUCKET_WINDOWS + 1) * sizeof(aijt_window));
  int         *distinct = (int *)malloc(((size_t)n * BUCKET_WINDOWS + 1) * sizeof(int));
  int         *first    = (int *)malloc(((size_t)n + 1) * sizeof(int)); /* bucket q's windows: [first[q], first[q + 1]) */
  int          nw       = 0;
  aijt_err     err      = AIJT_OK;

  if (!w || !distinct || !first) err = AIJT_ERR_MEM;
  else {
    for (int q = 0; q < n; q++) {
      first[q] = nw;
      nw += aijt_locality_windows(count, b[q].begin, b[q].end, b[q].max_len, b[q].nnz, BUCKET_WINDOWS, w + nw);
    }
    first[n] = nw;
    if (nw) err = src->sectors(src->ctx, p, w, nw, distinct);
    for (int q = 0; q < n && !err; q++) b[q].d = aijt_locality_of(w + first[q], distinct + first[q], first[q + 1] - first[q]);
  }
  free(w);
  free(distinct);
  free(first);
  return err;
}

aijt_err aijt_model_buckets_from(const aijt_plan_source *src, const aijt_plan *p, const aijt_int *count, aijt_int max_len, aijt_bucket **out, int *nb)
{
  int          cap = 64, n = 0;
  aijt_bucket *b   = (aijt_bucket *)malloc((size_t)cap * sizeof(aijt_bucket));
  aijt_int     at  = 0; /* plan position */
  aijt_err     err = AIJT_OK;

  *out = NULL;
  *nb  = 0;
  if (!b) return AIJT_ERR_MEM;
  for (aijt_int len = aijt_count_prev(count, max_len); len >= 0 && at < p->nrows;) {
    int      cls = length_class(len);
    aijt_int first_len = len, last = len, rows = 0;
    int64_t  nnz = 0;
    for (; len >= 0 && length_class(len) == cls; len = aijt_count_prev(count, len - 1)) {
      rows += count[len];
      nnz += (int64_t)count[len] * len;
      last = len;
    }
    if (n == cap) {
      aijt_bucket *g = (aijt_bucket *)realloc(b, (size_t)(cap *= 2) * sizeof(aijt_bucket));
      if (!g) {
        err = AIJT_ERR_MEM;
        goto done;
      }
      b = g;
    }
    b[n].begin   = at;
    b[n].end     = at + rows;
    b[n].nnz     = (aijt_int)nnz;
    b[n].max_len = first_len; /* sorted: the first row is the longest, the last the shortest */
    b[n].min_len = last;
    b[n].d       = 0;
    n++;
    at += rows;
  }
  if (src) err = bucket_localities(src, p, count, b, n); /* else ranges only: the bounds before localities */
done:
  if (err) {
    free(b);
    return err;
  }
  *out = b;
  *nb  = n;
  return AIJT_OK;
}

aijt_err aijt_model_buckets(const aijt_csr *A, const aijt_int *order, const aijt_int *count, aijt_int max_len, aijt_bucket **b, int *nb)
{
  aijt_plan        p;
  aijt_plan_source src;

  memset(&p, 0, sizeof(p));
  p.nrows   = A->nrows;
  p.ncols   = A->ncols;
  p.order   = (aijt_int *)order;
  p.col_pos = (aijt_int *)A->col_pos;
  p.col_hot = A->col_hot;
  aijt_plan_source_host(A, &src);
  return aijt_model_buckets_from(&src, &p, count, max_len, b, nb);
}

/* ---- the host's source: A's own arrays */

static aijt_err host_lengths(void *ctx, aijt_features *f, aijt_int **count)
{
  const aijt_csr *A = (const aijt_csr *)ctx;
  aijt_features_compute(A, f);
  return aijt_length_counts(A, f->max_len, count);
}

static int host_diagonals(void *ctx, int max, aijt_int *offsets)
{
  return aijt_diagonals((const aijt_csr *)ctx, max, offsets);
}

static int host_blocks(void *ctx, int bs)
{
  return aijt_blocks_exact((const aijt_csr *)ctx, bs);
}

static aijt_err host_columns(void *ctx, const aijt_rules *R, int nd, aijt_plan *p)
{
  return aijt_plan_order_columns((const aijt_csr *)ctx, R, nd, p);
}

static aijt_err host_rows(void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order)
{
  return aijt_order_from_counts((const aijt_csr *)ctx, max_len, count, order);
}

static aijt_err host_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct)
{
  aijt_csr A = *(const aijt_csr *)ctx; /* read through the plan's column order */
  A.col_pos  = p->col_pos;
  A.col_hot  = p->col_hot;
  for (int q = 0; q < n; q++) distinct[q] = aijt_window_sectors(&A, p->order, &w[q]);
  return AIJT_OK;
}

void aijt_plan_source_host(const aijt_csr *A, aijt_plan_source *src)
{
  memset(src, 0, sizeof(*src));
  src->ctx       = (void *)A;
  src->lengths   = host_lengths;
  src->diagonals = host_diagonals;
  src->blocks    = host_blocks;
  src->columns   = host_columns;
  src->rows      = host_rows;
  src->sectors   = host_sectors;
}

/* The kernels a strip may use: the model's, of allowed formats (DIA apart). */
typedef struct {
  const aijt_model_kernel *k;
  double                  *prefix; /* ns of buckets [0, b) */
  int                     *bad;    /* buckets in [0, b) the kernel was not measured for */
  const aijt_model_at     *at;     /* its table at bucket b's longest row, a strip's longest from b on (class_tables) */
} choice;

static int allowed_kernel(const aijt_rules *R, const aijt_model_kernel *k)
{
  return !!(R->allowed & AIJT_STRIP_FORMATS & AIJT_FORMAT_BIT(k->format)); /* DIA, PANEL, STREAM: wholeplan.c */
}

/* Each allowed kernel's table read at each length class, once for the floor, the bound and the split of a
   plan (they read the same classes: 1480 of actor_movie_incidence's 2072 readings were theirs):
   top[q][i] at bucket i's longest row, a strip's longest from i on; mean[q][i] at its mean length, where
   its rows' time is read (the same reading for a class of one length, every class up to 64). */
typedef struct {
  aijt_model_at *top[AIJT_MODEL_MAX_KERNELS], *mean[AIJT_MODEL_MAX_KERNELS]; /* NULL: not allowed */
  aijt_model_at *memory;
} class_tables;

static void class_tables_free(class_tables *T)
{
  free(T->memory);
  memset(T, 0, sizeof(*T));
}

static aijt_err class_tables_make(const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, class_tables *T)
{
  int nk = 0;

  memset(T, 0, sizeof(*T));
  for (int q = 0; q < m->nkernels; q++) nk += allowed_kernel(R, &m->kernels[q]);
  if (!(T->memory = (aijt_model_at *)malloc((2 * (size_t)nk * (size_t)nb + 1) * sizeof(aijt_model_at)))) return AIJT_ERR_MEM;
  aijt_model_at *at = T->memory;
  for (int q = 0; q < m->nkernels; q++) {
    const aijt_model_kernel *k = &m->kernels[q];
    if (!allowed_kernel(R, k)) continue;
    int near_top = AIJT_MODEL_NEAR_START, near_mean = AIJT_MODEL_NEAR_START; /* the classes come longest first */
    T->top[q]  = at;
    T->mean[q] = at + nb;
    at += 2 * (size_t)nb;
    for (int i = 0; i < nb; i++) {
      const aijt_int rows = b[i].end - b[i].begin;
      const double   len  = rows ? (double)b[i].nnz / (double)rows : 0;
      aijt_model_at_len_near(k, (double)b[i].max_len, &near_top, &T->top[q][i]);
      if (len == (double)b[i].max_len) T->mean[q][i] = T->top[q][i];
      else aijt_model_at_len_near(k, len, &near_mean, &T->mean[q][i]);
    }
  }
  return AIJT_OK;
}

/* The dynamic program's table: best[j], the least time of buckets [0, j), reached by the strip [from[j], j)
   in kernel via[j] (LONG with parts[j] blocks per row). */
typedef struct {
  double *best;
  int    *from, *via, *parts;
} table;

static void offer(table *T, int j, double t, int i, int q, int parts)
{
  if (t < T->best[j]) {
    T->best[j]  = t;
    T->from[j]  = i;
    T->via[j]   = q;
    T->parts[j] = parts;
  }
}

/* fmax without the library call (no value here is a NaN) */
static double larger(double a, double b)
{
  return a > b ? a : b;
}

static int too_wide(aijt_int rows, aijt_int lmax)
{
  return (double)rows * (double)(lmax > 0 ? lmax : 1) + 64.0 * (double)lmax >= (double)INT32_MAX;
}

/* Offers best[i] + the strip [i, j) in kernel q (choice c) + one more strip's cost to every j in (i, jend],
   in increasing j.  With bound, the strip's work is at most that for any localities of the buckets.
   A strip costs the larger of its work and its critical path.  The loop ends at the first j past which
   nothing can be offered:
   - a kernel that becomes infeasible stays so for larger j (more rows; a shorter shortest row; one more
     bucket the kernel was not measured for);
   - a strip's time never falls as j grows (a sum of non-negative per-bucket times, a critical path that
     only grows; for ELL, its rows at the least time per row of any locality), so once it reaches
     `most`, the largest best[j'] for j' in (i, jend] when bucket i began, no later j can take it:
     best[] only falls;
   - in a kernel other than ELL, where best[i] and the strip's work reach below[j] (the cut, less one more strip
     and the floor of the buckets after it, offer_limits; with a margin over the floor's sums), the offer to j
     and every later one are at or above their j's limit, where best[j] starts: each later j adds to the work at
     least the floor it takes from the rest.  Any such j ends the walk, so halving finds one before it starts
     (a bucket the kernel was not measured for adds nothing to its prefix: a j past it may not be found, and
     the walk ends at that bucket anyway).  On actor_movie_incidence, whose split STREAM beats, the host's
     planning work went from 61.5 to 43.3 us with the H200 model and from 32.7 to 27.3 with the H100's on the
     development machine, the same plans (bench/results/2026-11-28-host-pricing).
   The offers that are made are the same as offering every j, so the plan is too. */
static void push_strips(const aijt_model *m, const aijt_rules *R, const aijt_bucket *b, const choice *c, int q, int i, int jend, int bound, double most, const double *below, table *T) /* below: NULL without a cut */
{
  const aijt_model_kernel *k    = c->k;
  const aijt_model_at     *at   = &c->at[i];
  const aijt_int           lmax = b[i].max_len;
  const double             crit = aijt_model_at_crit_us(at), from = T->best[i];

  if (k->format == AIJT_ELL) {
    /* pads every row to the strip's longest, at the entry-weighted locality of its buckets */
    double       ell_nnz = 0, ell_dn = 0;
    const double ns_min  = aijt_model_at_row_ns_min(at); /* at most its time per row at any locality */
    for (int j = i + 1; j <= jend; j++) {
      aijt_int rows = b[j - 1].end - b[i].begin;
      ell_nnz += (double)b[j - 1].nnz;
      ell_dn += (double)b[j - 1].nnz * b[j - 1].d;
      if (too_wide(rows, lmax) || from + (larger((double)rows * ns_min * 1e-3, crit) + m->strip_us) >= most) break;
      double ns = bound ? ns_min : aijt_model_at_row_ns(at, ell_nnz > 0 ? ell_dn / ell_nnz : 0);
      if (ns < 0) {
        if (!at->known) break;
        continue;
      }
      offer(T, j, from + (larger((double)rows * ns * 1e-3, crit) + m->strip_us), i, q, 1);
    }
    return;
  }
  if (below && from + (c->prefix[jend] - c->prefix[i]) * 1e-3 >= below[jend]) { /* the walk ends before some j where it reaches below[j]: found by halving */
    int lo = i + 1, hi = jend;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (from + (c->prefix[mid] - c->prefix[i]) * 1e-3 >= below[mid]) hi = mid;
      else lo = mid + 1;
    }
    jend = hi - 1;
  }
  for (int j = i + 1; j <= jend; j++) {
    aijt_int rows = b[j - 1].end - b[i].begin;
    double   ns, work;
    int      parts = 1;
    if (k->format == AIJT_SELL && too_wide(rows, lmax)) break;
    if (c->bad[j] - c->bad[i]) break;
    ns = c->prefix[j] - c->prefix[i];
    if (k->format == AIJT_LONG) {
      /* every row of a LONG strip gets the parts of its longest: rows far shorter would be cut to crumbs
         (an R-MAT strip of 400- to 62k-entry rows at 16 parts each ran 4x slower than predicted) */
      if (4 * (double)b[j - 1].min_len < (double)lmax) break;
      parts = aijt_long_parts(R->block, rows, lmax);
      work  = larger(ns * 1e-3, aijt_model_long_crit_us(m, (double)lmax, parts));
    } else {
      if (k->format == AIJT_COO) ns += 1e3 * m->launch_us; /* COO strips' entries go to the tail, a launch of its own after the strips' */
      work = larger(ns * 1e-3, crit); /* a strip that cannot fill the device waits for its longest row */
    }
    double t = from + (work + m->strip_us);
    if (t >= most) break;
    offer(T, j, t, i, q, parts);
  }
}

/* lim[j], where the dynamic program's best[j] starts: the largest offer to j (exclusive) that may lie on a
   path under the cut, the cut less a floor of what any strips of buckets [j, nb) cost.  An offer at or above it
   lies on no path under the cut, nor does any larger one: j is left unreached instead of taking its least
   offer, and the buckets that only such paths reach are skipped.  Every path under the cut has all its offers
   made with the same values in the same order, so the plan is the same (the margin, 1e-9 of the cut, covers
   the floor's sums against a path's).  Without a cut, INFINITY: the program as before.  below[j]: the cut less
   a strip's fixed cost and that floor of buckets [j, nb), where push_strips ends its walks (INFINITY without a
   cut; below[nb] the cut's).
   The floor takes each bucket at its cheapest kernel's time for its rows, as push_strips reads it: in a kernel
   other than ELL its share of the kernel's prefix (a strip's work is their sum, its cost no less); in ELL its
   rows at the least time per row of the table it is padded to, a strip's first bucket's (this one or an
   earlier one), at the least of its times at the buckets' localities (a strip's is their mean, weighted by
   entries; with bound, at any locality, as the prefixes are).  Empty rows an in-place product skips cost
   nothing.  split_floor takes the same floor from the tables, before any prefix exists; one function for both
   read the tables here too, 1.05x the host part's instructions in geometric mean against 1.02x
   (bench/results/2026-11-27-rest-floor-ell, shared-floor.patch).  On actor_movie_incidence's split, which STREAM
   beats, 8 of its 71 buckets are reached (H100 model) instead of all (bench/results/2026-11-27-rest-floor-ell). */
static void offer_limits(const aijt_model *m, const aijt_rules *R, const aijt_bucket *b, int nb, const choice *c, int nk, int bound, int first_empty, double cut, double *lim, double *below)
{
  double ell_min[AIJT_MODEL_MAX_KERNELS], dlo = INFINITY, dhi = -INFINITY;
  const double cut_hi = cut + 1e-6 * fabs(cut); /* below[]'s margin covers the floor's sums against a walk's */

  for (int j = 0; j <= nb; j++) below[j] = INFINITY;
  if (!(cut < INFINITY)) { /* no cut, no limit (R-MAT, which no whole-matrix plan can hold, would pay for the floor alone) */
    for (int j = 0; j <= nb; j++) lim[j] = INFINITY;
    return;
  }
  for (int q = 0; q < nk; q++) ell_min[q] = INFINITY;
  for (int i = 0; i < nb && !bound; i++) { /* an ELL strip's locality lies between its buckets' */
    dlo = fmin(dlo, b[i].d);
    dhi = fmax(dhi, b[i].d);
  }
  for (int i = 0; i < nb; i++) { /* each bucket's least time, in lim[i] until the sums are made */
    const aijt_int rows  = b[i].end - b[i].begin;
    double         least = R->empty_free && i == first_empty ? 0 : INFINITY;
    for (int q = 0; q < nk; q++) {
      double us;
      if (c[q].k->format == AIJT_ELL) {
        const double ns = bound ? aijt_model_at_row_ns_min(&c[q].at[i]) : aijt_model_at_row_ns_least(&c[q].at[i], dlo, dhi);
        if (ns >= 0 && ns < ell_min[q]) ell_min[q] = ns;
        us = ell_min[q] * (double)rows * 1e-3;
      } else if (c[q].bad[i + 1] - c[q].bad[i]) continue;
      else us = (c[q].prefix[i + 1] - c[q].prefix[i]) * 1e-3;
      if (us < least) least = us;
    }
    lim[i] = least;
  }
  double rest = 0; /* buckets [j, nb) */
  lim[nb]     = cut;
  below[nb]   = cut_hi - m->strip_us;
  for (int j = nb - 1; j >= 0; j--) {
    rest += lim[j];
    below[j] = cut_hi - m->strip_us - rest;
    lim[j]   = !(rest > 0) ? cut : isinf(rest) ? -INFINITY : cut - rest + 1e-9 * fabs(cut); /* INFINITY: some bucket has no kernel */
  }
}

/* The strip for buckets [i, j) in kernel k. */
static aijt_strip strip_of(const aijt_rules *R, const aijt_bucket *b, int i, int j, const aijt_model_kernel *k, int parts)
{
  aijt_strip s;
  memset(&s, 0, sizeof(s));
  s.format  = k->format;
  s.begin   = b[i].begin;
  s.end     = b[j - 1].end;
  s.max_len = b[i].max_len;
  s.block   = R->block;
  for (int q = i; q < j; q++) s.nnz += b[q].nnz;
  switch (k->format) {
  case AIJT_CSR:
    s.tpr = k->param;
    break;
  case AIJT_LONG:
    s.blocks_per_row = parts;
    break;
  case AIJT_ELL:
    s.width = s.max_len;
    break;
  case AIJT_SELL:
    s.chunk = k->param > 0 ? k->param : R->sell_chunk;
    s.sigma = 1;
    break;
  case AIJT_COO:
    s.tail_nnz = s.nnz;
    s.nnz      = 0;
    break;
  default:
    break;
  }
  return s;
}

/* aijt_model_split; with bound, at most its prediction for any localities of the buckets (their d
   unread), the strips appended all the same.  beat: a whole-matrix plan's price, which wins unless the
   split's prediction is at most it.  That prediction is best[nb] plus at least one launch, so an offer
   above beat - launch_us is on no path that could win, and none is made: where the best path is below
   that, the table holds for its buckets what it would without the cut, the same path is found, and the
   plan is the same; where it is not, the whole-matrix plan wins either way (best[nb] is then left
   INFINITY).  actor_movie_incidence's split, which STREAM beats, ran the whole dynamic program for
   nothing. */
static aijt_err split_buckets(const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, const class_tables *ct, int bound, double beat, aijt_plan *p, int *cap, double *predicted)
{
  const double cut = m->launch_us >= 0 ? nextafter(beat - m->launch_us, INFINITY) : INFINITY; /* offers from here on are cut (push_strips' most) */
  choice   c[AIJT_MODEL_MAX_KERNELS];
  int      nk = 0, *from = NULL, *via = NULL, *parts = NULL;
  double  *best = NULL, *below = NULL; /* below: where push_strips' walks end (offer_limits) */
  aijt_err err = AIJT_OK;

  *predicted = INFINITY;
  memset(c, 0, sizeof(c));
  for (int q = 0; q < m->nkernels; q++) {
    const aijt_model_kernel *k = &m->kernels[q];
    if (!allowed_kernel(R, k)) continue;
    c[nk].k      = k;
    c[nk].prefix = (double *)calloc((size_t)nb + 1, sizeof(double));
    c[nk].bad    = (int *)calloc((size_t)nb + 1, sizeof(int));
    c[nk].at     = ct->top[q];
    if (!c[nk].prefix || !c[nk++].bad) goto nomem;
    for (int i = 0; i < nb; i++) {
      const aijt_int       rows = b[i].end - b[i].begin;
      const aijt_model_at *at   = &ct->mean[q][i];
      const double         ns   = bound ? aijt_model_at_row_ns_min(at) : aijt_model_at_row_ns(at, b[i].d);
      c[nk - 1].prefix[i + 1] = c[nk - 1].prefix[i] + (ns > 0 ? ns * (double)rows : 0);
      c[nk - 1].bad[i + 1]    = c[nk - 1].bad[i] + (ns < 0);
    }
  }
  best  = (double *)malloc(((size_t)nb + 1) * sizeof(double));
  below = (double *)malloc(((size_t)nb + 1) * sizeof(double));
  from  = (int *)malloc(((size_t)nb + 1) * sizeof(int));
  via   = (int *)malloc(((size_t)nb + 1) * sizeof(int));
  parts = (int *)malloc(((size_t)nb + 1) * sizeof(int));
  if (!best || !below || !from || !via || !parts) goto nomem;
  table T = {best, from, via, parts};
  /* empty rows (the last bucket, sorted) get a strip of their own: y += A x in place skips it (the
     off-diagonal block of an MPI matrix is mostly empty rows, and MatMultAdd is all it ever does) */
  int first_empty = nb && b[nb - 1].max_len == 0 ? nb - 1 : nb;
  offer_limits(m, R, b, nb, c, nk, bound, first_empty, cut, best, below); /* best[j] starts at its limit, from[j] unreached */
  best[0] = 0;
  for (int j = 0; j <= nb; j++) from[j] = -1;
  /* best[j] = min over i < j and kernels of best[i] + the strip [i, j), pushed from each final best[i]
     to every j: each j meets its candidates in the order of i, then of the kernel, as a pull over i
     would (the first of equal candidates wins) */
  for (int i = 0; i < nb; i++) {
    int    jend = i < first_empty ? first_empty : nb;
    double most = 0;
    if (i && from[i] < 0) continue;
    if (R->empty_free && i == first_empty) { /* empty rows an in-place product skips cost nothing */
      for (int j = i + 1; j <= jend && nk; j++) offer(&T, j, best[i], i, 0, 1);
      continue;
    }
    for (int j = jend; j > i && most < cut; j--) most = larger(most, best[j]); /* from the end, where the largest are: past the cut it is the cut */
    if (cut < most) most = cut;
    for (int q = 0; q < nk; q++) push_strips(m, R, b, &c[q], q, i, jend, bound, most, cut < INFINITY ? below : NULL, &T);
  }
  if (nb && from[nb] >= 0) {
    /* walk back from the end, then append the strips in plan order */
    int n = 0;
    for (int j = nb; j > 0; j = from[j]) n++;
    int *ends = (int *)malloc((size_t)n * sizeof(int));
    if (!ends) goto nomem;
    for (int j = nb, q = n; j > 0; j = from[j]) ends[--q] = j;
    for (int q = 0; q < n && !err; q++) {
      int        j = ends[q];
      aijt_strip s   = strip_of(R, b, from[j], j, c[via[j]].k, parts[j]);
      if (best[j] > best[from[j]]) s.predicted_us = c[via[j]].k->overhead_us + best[j] - best[from[j]] - m->strip_us; /* the strip alone */
      err            = aijt_plan_append(p, cap, &s);
    }
    free(ends);
    *predicted = best[nb] + m->launch_us * ((n + AIJT_FUSED_MAX - 1) / AIJT_FUSED_MAX);
  } else if (!nb) *predicted = 0;
  goto done;
nomem:
  err = AIJT_ERR_MEM;
done:
  for (int q = 0; q < AIJT_MODEL_MAX_KERNELS; q++) {
    free(c[q].prefix);
    free(c[q].bad);
  }
  free(best);
  free(below);
  free(from);
  free(via);
  free(parts);
  return err;
}

aijt_err aijt_model_split(const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, double beat, aijt_plan *p, int *cap, double *predicted)
{
  class_tables ct;
  aijt_err     err;

  *predicted = INFINITY;
  if ((err = class_tables_make(R, m, b, nb, &ct))) return err;
  err = split_buckets(R, m, b, nb, &ct, 0, beat, p, cap, predicted);
  class_tables_free(&ct);
  return err;
}

/* A bound below the split's predicted time from the length classes b alone (their ranges), before the
   rows are ordered or any locality read (INFINITY where the model has no kernel for some rows). */
static aijt_err split_bound(const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_bucket *b, int nb, const class_tables *ct, double *bound)
{
  aijt_plan q;
  int       cap = 0;
  aijt_err  err;

  *bound = INFINITY;
  memset(&q, 0, sizeof(q));
  q.nrows = p->nrows;
  q.ncols = p->ncols;
  err     = split_buckets(R, m, b, nb, ct, 1, INFINITY, &q, &cap, bound);
  free(q.strips);
  return err;
}

/* A floor below split_bound, without its dynamic program: each bucket at the least time per row of any
   kernel (ELL's at the least of the lengths it could be padded to: this bucket's longest row or an
   earlier one's), one strip's fixed cost and one launch, no critical path.  O(buckets x kernels). */
static double split_floor(const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, const class_tables *ct)
{
  double sum = 0, ell_min[AIJT_MODEL_MAX_KERNELS];

  for (int q = 0; q < m->nkernels; q++) ell_min[q] = INFINITY;
  for (int i = 0; i < nb; i++) {
    const aijt_int rows  = b[i].end - b[i].begin;
    double         least = R->empty_free && i == nb - 1 && b[i].max_len == 0 ? 0 : INFINITY; /* empty rows an in-place product skips */
    for (int q = 0; q < m->nkernels; q++) {
      const aijt_model_kernel *k = &m->kernels[q];
      double                   ns;
      if (!allowed_kernel(R, k)) continue;
      if (k->format == AIJT_ELL) {
        ns = aijt_model_at_row_ns_min(&ct->top[q][i]);
        if (ns >= 0 && ns < ell_min[q]) ell_min[q] = ns;
        ns = ell_min[q];
      } else ns = aijt_model_at_row_ns_min(&ct->mean[q][i]);
      if (ns >= 0 && ns * (double)rows * 1e-3 < least) least = ns * (double)rows * 1e-3;
    }
    sum += least;
  }
  return nb ? sum + m->strip_us + m->launch_us : 0;
}

/* split_bound runs only where a whole-matrix plan is within this factor of the floor.  On the 69 shared
   matrices and the generated suite, with both models, the bound stayed within 1.28 of the floor (1.02-1.04
   at the median), and every whole-matrix plan that beat the bound was within 1.02 of the floor.  A
   whole-matrix plan between the reach and the bound would make the split for nothing (the plan is the
   same: the split loses to it); one past the reach saves a dynamic program, a third of
   actor_movie_incidence's host time (bench/results/2026-11-26-split-floor). */
#define AIJT_FLOOR_REACH 1.1

/* Steps 2 to 4 on the sorted plan p (count: its rows of each length; b: its nb length classes, their
   tables ct), against beat, the whole-matrix plans' best price (split_buckets). */
static aijt_err split(const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, aijt_plan *p, const aijt_int *count, aijt_bucket *b, int nb, const class_tables *ct, double beat, int *cap, double *predicted)
{
  aijt_err err;

  *predicted = INFINITY;
  if ((err = bucket_localities(src, p, count, b, nb))) return err;
  return split_buckets(R, m, b, nb, ct, 0, beat, p, cap, predicted);
}

aijt_err aijt_plan_model(const aijt_csr *A, const aijt_rules *rules, const aijt_model *m, aijt_plan **out)
{
  aijt_plan_source src;
  aijt_plan_source_host(A, &src);
  return aijt_plan_model_from(A, &src, rules, m, out);
}

/* The slots of p's SELL strips, from count[len] (p's rows of each length).  The plan's order is by
   decreasing length, and the layout keeps it within each slice (a sorting window re-sorts sorted rows to
   themselves), so a slice's width is the length of its first row, which the counts give: the skeleton then
   needs no pass over the rows and no wait for them (bench/results/2026-11-22-h100-plan-reps: the GPU's
   pass and its wait took about 65 us of circuit's 0.57 ms of planning).  The rows of one length are a run
   of positions, and the slices whose first row lies in a run are counted at once: a walk over the lengths,
   not the slices (slice by slice, the step that held it took 100 us on random's 62k slices and 36 us on
   circuit's inside PETSc on an H100, bench/results/2026-11-28-plan-steps; per run, circuit's planning alone
   took about 20 us less on an H200, bench/results/2026-11-28-diag-tile).  The walk starts from the shortest
   rows, which come last, where SELL strips are: it reads the counts up to the strips' longest rows only (from
   the longest, circuit's walk crossed 73k lengths). */
static void sell_slots_from_counts(aijt_plan *p, const aijt_int *count)
{
  aijt_int len   = 0;
  int64_t  below = 0; /* the rows shorter than len: positions [nrows - below, nrows) */

  for (int s = p->nstrips - 1; s >= 0; s--) { /* strips down the order: len only grows */
    aijt_strip   *S = &p->strips[s];
    const int64_t begin = S->begin, end = S->end, C = S->chunk;
    int64_t       slots = 0;

    if (S->format != AIJT_SELL || C <= 0 || begin >= end) continue;
    if (end > (int64_t)p->nrows - below) len = 0, below = 0; /* a strip after the walk's place: from the shortest again */
    for (;;) {
      const int64_t hi = (int64_t)p->nrows - below, lo = hi - count[len]; /* the rows of length len: [lo, hi) */
      const int64_t a = lo > begin ? lo : begin, b = hi < end ? hi : end;
      if (a < b) slots += (int64_t)len * C * ((b - begin + C - 1) / C - (a - begin + C - 1) / C); /* slices whose first row is in [a, b) */
      if (lo <= begin) break; /* the strip's first row: the walk stays at its length for the strips before */
      below += count[len++];  /* stops at max_len at the latest (lo is 0 there) */
    }
    S->slots = slots;
  }
}

/* Plan p becomes strip s alone over the whole matrix in natural order (DIA, PANEL, STREAM or BCSR), predicted at
   us (its price less the strip's share of the launch). */
static aijt_err plan_whole(aijt_plan *p, int *cap, aijt_strip *s, double us)
{
  free(p->order);
  p->order    = NULL;
  p->sorted   = 0;
  p->nstrips  = 0;
  p->tail_nnz = 0;
  s->predicted_us = us;
  return aijt_plan_append(p, cap, s);
}

aijt_err aijt_plan_model_from(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *rules, const aijt_model *m, aijt_plan **out)
{
  aijt_plan   *p = NULL;
  aijt_int    *count = NULL;
  aijt_bucket *b = NULL; /* the length classes, from count */
  class_tables ct;
  int          cap = 0, nd, nb = 0;
  double       predicted, dia, panel, stream, bcsr;
  aijt_strip   ps, ss, bs;
  aijt_err     err;

  *out = NULL;
  memset(&ct, 0, sizeof(ct));
  if (!(rules->allowed & AIJT_ALL_FORMATS)) return AIJT_ERR_FORMAT;
  if (!m || !rules->sort || !(rules->allowed & AIJT_STRIP_FORMATS)) return aijt_plan_rules(A, rules, out);
  if (rules->block < 32) return AIJT_ERR_ARG;
  if ((err = aijt_plan_new(A, &p))) return err;
  aijt_model_prefetch(m); /* while the lengths' pass runs on the GPU */
  if ((err = src->lengths(src->ctx, &p->features, &count))) goto fail;
  dia = aijt_whole_dia_us(A, src, rules, m, &nd);
  if (isnan(dia)) {
    err = AIJT_ERR_DEVICE;
    goto fail;
  }
  bcsr = aijt_whole_bcsr_us(A, src, rules, m, p, count, dia, &bs); /* it wins only at or below DIA's price (below) */
  if (isnan(bcsr)) {
    err = AIJT_ERR_DEVICE;
    goto fail;
  }
  dia = fmin(dia, bcsr); /* below, "DIA" stands for the better of the two until the end (one natural-order strip) */
  if ((err = src->columns(src->ctx, rules, nd, p))) goto fail; /* the strips' locality reads x as they will */
  panel = aijt_whole_panel_us(rules, m, p, &ps);
  predicted = INFINITY;
  stream    = aijt_whole_stream_us(A, src, rules, m, p, count, fmin(dia, panel), &ss);
  if (isnan(stream)) {
    err = AIJT_ERR_DEVICE;
    goto fail;
  }
  if ((err = aijt_model_buckets_from(NULL, p, count, p->features.max_len, &b, &nb)) || (err = class_tables_make(rules, m, b, nb, &ct))) goto fail;
  if (isfinite(dia) || isfinite(panel) || isfinite(stream)) { /* DIA, PANEL or STREAM below the split's bound win whatever it is: no order, no locality */
    const double whole = fmin(fmin(dia, panel), stream);
    const double floor_us = split_floor(rules, m, b, nb, &ct);
    double       bound;
    if (whole < floor_us * (1 - 1e-9)) predicted = floor_us; /* the margin covers the bounds' other rounding */
    else if (whole < floor_us * AIJT_FLOOR_REACH) { /* the dynamic program's bound may still be above it */
      if ((err = split_bound(rules, m, p, b, nb, &ct, &bound))) goto fail;
      if (whole < bound * (1 - 1e-9)) predicted = bound;
    }
  }
  if (!isfinite(predicted)) {
    if (A->nrows > 1) {
      if ((err = src->rows(src->ctx, p->features.max_len, count, &p->order))) goto fail;
      p->sorted = 1;
    }
    if ((err = split(src, rules, m, p, count, b, nb, &ct, fmin(fmin(dia, panel), stream), &cap, &predicted))) goto fail;
    if (p->sorted) sell_slots_from_counts(p, count);
  }
  aijt_counts_free(count);
  count = NULL;
  free(b);
  b = NULL;
  class_tables_free(&ct);
  if ((panel < predicted && panel <= dia) || dia < predicted || stream < predicted) aijt_plan_drop_col_order(p); /* DIA and PANEL find columns from rows, STREAM reads x's */
  if (stream < predicted && stream < dia && stream < panel) { /* one STREAM strip in natural order instead */
    if ((err = plan_whole(p, &cap, &ss, stream - m->strip_us))) goto fail;
    predicted = stream;
  } else if (panel < predicted && panel <= dia) { /* one PANEL strip in natural order instead */
    if ((err = plan_whole(p, &cap, &ps, panel - m->strip_us))) goto fail;
    predicted = panel;
  } else if (dia < predicted && bcsr <= dia) { /* one BCSR strip in natural order instead */
    if ((err = plan_whole(p, &cap, &bs, bcsr - m->strip_us))) goto fail;
    predicted = bcsr;
  } else if (dia < predicted) { /* one DIA strip in natural order instead */
    aijt_strip s;
    aijt_whole_strip(p, AIJT_DIA, nd, rules->block, &s);
    if ((err = plan_whole(p, &cap, &s, dia - m->strip_us))) goto fail;
    predicted = dia;
  }
  if (!isfinite(predicted)) { /* the model has no allowed kernel for some rows */
    aijt_plan_destroy(&p);
    return aijt_plan_rules(A, rules, out);
  }
  if (src->fetch && (err = src->fetch(src->ctx, p))) goto fail; /* the order and column order the plan keeps */
  *out = p; /* the strips' predictions come from the search: no pass over the rows again */
  return AIJT_OK;
fail:
  aijt_counts_free(count);
  free(b);
  class_tables_free(&ct);
  aijt_plan_destroy(&p);
  return err;
}
