/*
   The model planner's whole-matrix plans (steps 5 to 7 of partition.c): the predicted time of the whole
   matrix as one strip in natural order of DIA, of PANEL, or of STREAM, each INFINITY where the matrix, the
   rules or the model rule it out.  aijt_plan_model_from weighs them against the split.
*/
#include "aijtmodel.h"
#include "planbuild.h"

#include <math.h>
#include <string.h>

/* Step 5: the predicted time of the whole matrix as one DIA strip (INFINITY when it cannot be one). */
double aijt_whole_dia_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, int *nd)
{
  aijt_int                 offsets[AIJT_DIA_MAX_DIAGS];
  const aijt_model_kernel *k = aijt_model_kernel_find(m, AIJT_DIA, 0);

  *nd = -1;
  if (!k || !(R->allowed & AIJT_FORMAT_BIT(AIJT_DIA)) || A->nrows == 0) return INFINITY;
  *nd = src->diagonals(src->ctx, AIJT_DIA_MAX_DIAGS, offsets);
  if (*nd < -1) return NAN; /* the device failed */
  if (*nd < 0 || (double)*nd * (double)A->nrows >= (double)INT32_MAX) return INFINITY;
  double ns = aijt_model_row_ns(k, *nd > 0 ? (double)*nd : 1, 0);
  return ns < 0 ? INFINITY : k->overhead_us + m->strip_us + (double)A->nrows * ns * 1e-3; /* one strip, its own kernel's launch */
}

/* Step 6: the predicted time of the whole matrix as one PANEL strip (INFINITY when not worth one). */
double aijt_whole_panel_us(const aijt_rules *R, const aijt_model *m, const aijt_plan *p, aijt_strip *s)
{
  double work;

  if (!(R->allowed & AIJT_FORMAT_BIT(AIJT_PANEL)) || !aijt_panel_worth(p, R) || aijt_panel_strip(p, s)) return INFINITY;
  work = aijt_panel_work_us(m, s, p->ncols);
  return work < 0 ? INFINITY : m->launch_us + m->strip_us + work;
}

/* The work (us) of kernel k over the rows of a matrix in natural order, count[len] of them of each length len up to
   max_len, at locality d (d < 0: each row at the cheaper of its local and random times); -1 where k was not
   measured near some length.  An empty row costs what a row of one does. */
static double rows_work_us(const aijt_model_kernel *k, const aijt_int *count, aijt_int max_len, double d)
{
  double work = 0;
  int    near = AIJT_MODEL_NEAR_START; /* the lengths come longest first */
  for (aijt_int len = aijt_count_prev(count, max_len); len >= 0 && work >= 0; len = aijt_count_prev(count, len - 1)) {
    aijt_model_at a;
    aijt_model_at_len_near(k, len ? (double)len : 1, &near, &a);
    const double ns = d < 0 ? aijt_model_at_row_ns_min(&a) : aijt_model_at_row_ns(&a, d);
    work            = ns < 0 ? -1 : work + (double)count[len] * ns * 1e-3;
  }
  return work;
}

/* BCSR: the whole matrix as one strip of A->bs x A->bs blocks, where the source finds them whole.  Each row
   is priced at its kernel's local point for its length: a block's bs columns are neighbours, and the
   calibration's local blocks lie near the diagonal (tools/calibrate.cu).  The source looks for whole blocks
   (a pass over the entries and a wait) only where that price is at most beat: above it BCSR cannot win. */
double aijt_whole_bcsr_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_int *count, double beat, aijt_strip *s)
{
  const aijt_model_kernel *k;
  double                   work, crit, price;
  int                      whole;

  if (!(R->allowed & AIJT_FORMAT_BIT(AIJT_BCSR)) || A->bs < 2 || A->bs > AIJT_BCSR_MAX_BS || p->nrows == 0 || !(k = aijt_model_kernel_find(m, AIJT_BCSR, A->bs))) return INFINITY;
  if ((work = rows_work_us(k, count, p->features.max_len, 0)) < 0) return INFINITY;
  crit  = aijt_model_crit_us(k, (double)p->features.max_len);
  price = k->overhead_us + m->strip_us + (work > crit ? work : crit); /* its own kernel's fixed cost: one strip, one launch */
  if (price > beat) return INFINITY;
  whole = src->blocks(src->ctx, A->bs);
  if (whole < 0) return NAN;
  if (!whole) return INFINITY;
  aijt_bcsr_strip(p, A->bs, R->block, s);
  return price;
}

/* STREAM is weighed only for matrices of at most this many entries (4096 blocks, a few waves): its gains
   are in products that the sorted strips leave latency-bound (actor_movie_incidence, ct2010: 1.5M and 336k
   entries).  On matrices that fill the device many times over it ran level or behind while the model put
   it 5-7% ahead (random 66M entries: 619 against 582 us; elast 81M: 340-342 against 335; on an H100,
   bench/results/2026-11-25-h100-stream). */
#define STREAM_MAX_NNZ (4096 * AIJT_STREAM_SHARE)

/* STREAM's kernel of several lanes a row must be predicted faster than its one-lane kernel by this share.
   Against one lane, the model predicted four lanes 15% faster than they ran (geometric mean over the 15
   matrices bench_model times them on, every one on the same side; bench/results/2026-11-25-h100-stream-
   gpubuild/a), and chose four lanes for actor_movie_incidence (predicted at 0.990 of one lane's time,
   measured 1.072) and cage11 (0.976, 1.072), where the small matrices that four lanes won were predicted at
   0.73-0.89 (GT01R, bcsstk16, memplus).  Two causes showed:
   - the prices left out each kernel's fixed cost (about 5.0 us for one lane, 6.4 for four on an H100);
     they count it since bench/results/2026-11-25-whole-price, with this margin kept;
   - the calibration's rows all of one length put one lane's rows of 16, 32, ... entries on the same
     shared-memory banks (16 entries measured 1.7x 14).  The calibration now mixes lengths, which took
     the bias to 11% (bench/results/2026-11-25-h100-verify/v3); with this margin the faster lane count is
     chosen on 14 of the 15 (elast, which STREAM cannot hold, is the other).
   One lane also adds a row's products in the host reference's order. */
#define STREAM_LANES_MARGIN 0.05

/* Step 7: the whole matrix as one STREAM strip at locality d (d < 0: each row at the cheaper of its local
   and random times), the faster of its kernels into *s (INFINITY when it cannot be one), several lanes a
   row only by STREAM_LANES_MARGIN. */
static double stream_at(const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_int *count, double d, aijt_strip *s)
{
  double best = INFINITY, best_weighed = INFINITY;

  if (!(R->allowed & AIJT_FORMAT_BIT(AIJT_STREAM)) || p->nrows == 0 || p->nnz > STREAM_MAX_NNZ || p->features.max_len > AIJT_STREAM_MAX_LEN) return INFINITY;
  for (int i = 0; i < m->nkernels; i++) {
    const aijt_model_kernel *k    = &m->kernels[i];
    double                   work, crit, t;
    if (k->format != AIJT_STREAM || (work = rows_work_us(k, count, p->features.max_len, d)) < 0) continue;
    crit = aijt_model_crit_us(k, (double)p->features.max_len);
    t    = k->overhead_us + m->strip_us + (work > crit ? work : crit); /* its own kernel's fixed cost: one strip, one launch */
    const double weighed = k->param > 1 ? t * (1 + STREAM_LANES_MARGIN) : t;
    if (weighed < best_weighed) {
      best_weighed = weighed;
      best         = t;
      aijt_whole_strip(p, AIJT_STREAM, 0, AIJT_STREAM_BLOCK, s);
      s->tpr          = k->param;
      s->predicted_us = t - m->strip_us;
    }
  }
  return best;
}

int aijt_natural_windows(const aijt_csr *A, const aijt_rules *R, aijt_window *w)
{
  const int64_t total = A->nrows ? (int64_t)A->rowptr[A->nrows] : 0;
  int64_t       at    = 0;
  int           n = 0, nwin = (int)(total / AIJT_LOCALITY_WINDOW);

  if (!(R->allowed & AIJT_FORMAT_BIT(AIJT_STREAM)) || A->nrows == 0 || total > STREAM_MAX_NNZ) return 0; /* as stream_at */
  if (nwin > AIJT_NATURAL_WINDOWS) nwin = AIJT_NATURAL_WINDOWS;
  if (nwin < 1) nwin = 1;
  for (int k = 0; k < nwin && at < total; k++) {
    int64_t  start = (int64_t)((double)k * (double)total / (double)nwin);
    aijt_int lo = 0, hi = A->nrows - 1; /* the last row whose offset is at most start */
    if (start < at) start = at;
    while (lo < hi) {
      aijt_int mid = lo + (hi - lo + 1) / 2;
      if (A->rowptr[mid] <= start) lo = mid;
      else hi = mid - 1;
    }
    w[n].k = lo;
    w[n].e = (aijt_int)(start - A->rowptr[lo]);
    w[n].n = (int)(total - start < AIJT_LOCALITY_WINDOW ? total - start : AIJT_LOCALITY_WINDOW);
    at     = start + w[n].n;
    n++;
  }
  return n;
}

/* The natural order's locality through src; -1 where the source failed. */
static double natural_locality(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_plan *p)
{
  aijt_window w[AIJT_NATURAL_WINDOWS];
  int         distinct[AIJT_NATURAL_WINDOWS];
  const int   n = aijt_natural_windows(A, R, w);
  aijt_plan   q;

  memset(&q, 0, sizeof(q)); /* natural order, x's own columns */
  q.nrows = p->nrows;
  q.ncols = p->ncols;
  q.nnz   = p->nnz;
  if (src->sectors(src->ctx, &q, w, n, distinct)) return -1;
  return aijt_locality_of(w, distinct, n);
}

/* Step 7 whole: the optimistic price first, the locality (a pass over a few windows) only where that
   could beat DIA and PANEL (beat). */
double aijt_whole_stream_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_int *count, double beat, aijt_strip *s)
{
  double d;
  if (!(stream_at(R, m, p, count, -1, s) < beat)) return INFINITY;
  if ((d = natural_locality(A, src, R, p)) < 0) return NAN;
  return stream_at(R, m, p, count, d, s);
}
