/*
   The rule-based planner: the choices of the seed papers, written down as rules, until a calibrated
   performance model replaces them.

   1. Order.  Rows are ordered by decreasing length, stably (seed 000 sorts rows by nnz), unless
      rules->sort is off.
   2. Long and short runs.  Seed 003's Algorithm 1 walks the ordered rows and cuts a new block wherever
      a row crosses T_LONG (rules->long_row) in either direction.  Sorted, that is one long run then
      one short run; unsorted, runs alternate.
   3. Long runs become LONG strips: several thread blocks share a row, so a row of 50k entries is not
      left to one warp (the starvation seed 003 measures).
   4. Sorted short runs are cut where seed 004's threads-per-row class changes (the next power of two above
      sqrt(row length), at most 32); segments too small to stand alone (see Size) join their neighbour.
   5. Each short segment takes the first allowed format of its preference list:
        - ELL when its rows are short (<= rules->sell_max_len entries: one thread per row) and equal, or
          nearly so (padding <= rules->ell_max_pad of its entries); the
          width is clSpMV's HYB choice (seed 001): the w minimising w * rows + coo_cost * excess(w), the
          excess going to the COO tail;
        - SELL-C-sigma when its rows are short (longest <= rules->sell_max_len: a thread works through a
          whole row, and the slowest thread sets the time of a small matrix's product), or, in a strip
          of at least rules->sell_big_rows rows, up to 8 times that: so many rows keep every SM busy
          whatever one thread's row costs, and SELL's one-thread-per-row reads need no shuffles
          (sellcuda beat CSR-vector on 81-entry elasticity rows, bench/results/2026-11-21-h200-bench-v1):
          one thread per row, and slices of C rows stored
          column-major read coalesced where CSR-vector with few threads per row does not;
        - CSR-vector otherwise, with seed 003's TpR_SqMean = min(32, 2^ceil(log2 ceil(sqrt(len)))) taken
          at the strip's longest row, not its mean: on the medium matrices the product is latency
          bound, and a row of 394 entries on the 8 lanes its strip's mean asked for was 49 dependent
          steps (ckt11752_dc_1, bench/results/2026-11-21-h200-fused).
      A format that is not allowed falls back to CSR, SELL, ELL, LONG, then COO, in that order.
   6. In natural order (rules->sort off) runs alternate; a run too small for a kernel launch of its own
      (fewer than min_strip_rows rows and fewer than 16 * min_strip_rows entries) rides in the COO tail,
      which is one launch for all of them.

   0. Diagonals first.  When the matrix in natural order has at most AIJT_DIA_MAX_DIAGS distinct
      diagonals and its entries fill at least rules->dia_min_fill of them (stencils and banded FEM
      matrices), the plan is one DIA strip over all rows, unsorted: a slot costs 8 bytes of value against
      CSR's 12 per entry (value and column), so DIA moves fewer bytes while the fill is above 2/3.  With
      DIA the only allowed format, any fill is accepted, and a matrix with too many diagonals cannot be
      planned (AIJT_ERR_FORMAT).
      Column panels next (panel.c): when x spans at least 4 panels and the rows hold at least
      rules->panel_min_len entries per panel on average (LP-like), one PANEL strip over all rows, unsorted.
      With PANEL the only allowed format, every matrix is one PANEL strip.
      Whole blocks next (blocks.c): a matrix whose block size (A->bs) its pattern honours, every block stored
      whole, is one BCSR strip over all rows, unsorted: one column index a block instead of one an entry.
      With BCSR the only allowed format, any other matrix cannot be planned (AIJT_ERR_FORMAT).
      Row blocks (STREAM) are the model planner's: the rules take them only where no format of sorted
      strips and no PANEL is allowed, as one STREAM strip over all rows, unsorted (AIJT_ERR_FORMAT for a
      row longer than AIJT_STREAM_MAX_LEN).

   Size: the strips of a plan share one launch (kernels/spmv.cu), so a strip costs no launch of its own;
   it still needs enough work to fill its blocks.  A segment stands alone with at least min_strip_rows
   rows or 32 times that many entries (a few long rows are work enough), and at least min_strip_share
   of the matrix's entries; a smaller one joins its neighbour.  (When each strip was a launch, the first
   GPU runs needed a share of 1/4: bench/results/2026-11-21-h200-rules-v2.)

   The default numbers are rules of thumb, not measurements; the performance model issue replaces them.
*/
#include "planbuild.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void aijt_rules_default(aijt_rules *rules)
{
  rules->allowed        = AIJT_ALL_FORMATS;
  rules->sort           = 1;
  rules->long_row       = 512; /* 32 lanes x 16 entries: beyond this a warp per row runs long */
  rules->min_strip_rows  = 128;
  rules->min_strip_share = 0.01;
  rules->ell_max_pad    = 0.10;
  rules->coo_cost       = 3.0; /* a tail entry reads row, col and val and adds atomically */
  rules->sell_max_len  = 16;
  rules->sell_big_rows = 65536; /* about 500 rows for each of 132 SMs: throughput, not latency */
  rules->sell_chunk     = 32; /* a warp per slice */
  rules->sell_sigma     = 256;
  rules->block          = 256;
  rules->dia_min_fill   = 0.75; /* 8 / 0.75 = 10.7 bytes per entry, a margin under CSR's 12 */
  rules->panel_min_len  = 8;    /* a row's partial sum (8 bytes written, 8 read) is then <= 1/6 of its entries' bytes */
  rules->col_order      = AIJT_COLS_AUTO;
  rules->col_hot_degree = 2; /* a column read once gains nothing from a copy, which reads it once too */
  rules->empty_free     = 0;
}

typedef struct {
  const aijt_csr   *A;
  const aijt_rules *rules;
  aijt_plan        *plan;
  int               cap;
  aijt_int         *len; /* sorted plans: the length of the row at each position */
} builder;

static aijt_int row_len(const builder *b, aijt_int k)
{
  return b->len ? b->len[k] : b->A->rowptr[k + 1] - b->A->rowptr[k];
}

/* The steps below read the sorted rows' lengths several times over: through the order, each was a cache
   miss on an irregular matrix (R-MAT: 41 ms of planning).  The counts give them in sequence. */
static aijt_err sort_rows(builder *b)
{
  const aijt_int max_len = b->plan->features.max_len;
  aijt_int      *count   = NULL;
  aijt_err       err;

  if ((err = aijt_length_counts(b->A, max_len, &count))) return err;
  err = aijt_order_from_counts(b->A, max_len, count, &b->plan->order);
  if (!err && !(b->len = (aijt_int *)malloc(((size_t)b->A->nrows + 1) * sizeof(aijt_int)))) err = AIJT_ERR_MEM;
  for (aijt_int len = max_len, k = 0; !err && len >= 0; len--)
    for (aijt_int e = k + count[len]; k < e; k++) b->len[k] = len;
  aijt_counts_free(count);
  b->plan->sorted = !err;
  return err;
}

typedef struct {
  aijt_int rows, nnz, min_len, max_len;
} range_stats;

static range_stats stats_of(const builder *b, aijt_int begin, aijt_int end)
{
  range_stats st = {end - begin, 0, 0, 0};
  for (aijt_int k = begin; k < end; k++) {
    aijt_int len = row_len(b, k);
    st.nnz += len;
    if (k == begin || len < st.min_len) st.min_len = len;
    if (len > st.max_len) st.max_len = len;
  }
  return st;
}

static int allowed(const builder *b, aijt_format f)
{
  return (b->rules->allowed & AIJT_FORMAT_BIT(f)) != 0;
}

/* entries a strip needs to be worth its own launch */
static int too_small(const builder *b, double rows, double nnz)
{
  const double min_rows = (double)b->rules->min_strip_rows;
  return (rows < min_rows && nnz < 32 * min_rows) || nnz < b->rules->min_strip_share * (double)b->plan->nnz;
}

/* step 6: a run of the natural order too small for a launch of its own */
static int tiny_run(const builder *b, range_stats st)
{
  return st.rows < b->rules->min_strip_rows && st.nnz < 16 * (double)b->rules->min_strip_rows;
}

static aijt_err push_strip(builder *b, const aijt_strip *s)
{
  return aijt_plan_append(b->plan, &b->cap, s);
}

static aijt_strip strip_init(const builder *b, aijt_format f, aijt_int begin, aijt_int end, range_stats st)
{
  aijt_strip s;
  memset(&s, 0, sizeof(s));
  s.format  = f;
  s.begin   = begin;
  s.end     = end;
  s.nnz     = st.nnz;
  s.max_len = st.max_len;
  s.block   = b->rules->block;
  return s;
}

/* clSpMV's HYB width: minimise w * rows + coo_cost * excess(w) over w in [min_len, max_len]. */
static aijt_int hyb_width(const builder *b, aijt_int begin, aijt_int end, range_stats st, aijt_int *excess)
{
  aijt_int  span  = st.max_len - st.min_len;
  aijt_int *count = (aijt_int *)calloc((size_t)span + 1, sizeof(aijt_int));
  aijt_int  best  = st.max_len, above = 0;
  double    best_cost, ex = 0;

  *excess = 0;
  if (!count) return best; /* no memory for the histogram: plain ELL is still correct */
  for (aijt_int k = begin; k < end; k++) count[row_len(b, k) - st.min_len]++;
  best_cost = (double)st.max_len * (double)st.rows;
  /* walk w down from max_len; above = rows longer than w, ex = their entries past w */
  for (aijt_int w = st.max_len - 1; w >= st.min_len; w--) {
    above += count[w + 1 - st.min_len];
    ex += (double)above;
    double cost = (double)w * (double)st.rows + b->rules->coo_cost * ex;
    if (cost < best_cost) {
      best_cost = cost;
      best      = w;
      *excess   = (aijt_int)ex;
    }
  }
  free(count);
  return best;
}

static aijt_err emit_short(builder *b, aijt_int begin, aijt_int end)
{
  const aijt_rules *R  = b->rules;
  range_stats       st = stats_of(b, begin, end);
  double            ell_slots = (double)st.max_len * (double)st.rows;
  aijt_format       prefer, order[6];
  int               n = 0;

  if (st.max_len <= R->sell_max_len && (st.max_len == st.min_len || ell_slots - (double)st.nnz <= R->ell_max_pad * (double)st.nnz)) prefer = AIJT_ELL;
  else if (st.max_len <= R->sell_max_len || (R->sell_big_rows > 0 && st.rows >= R->sell_big_rows && st.max_len <= 8 * R->sell_max_len)) prefer = AIJT_SELL;
  else prefer = AIJT_CSR;
  order[n++] = prefer;
  order[n++] = AIJT_CSR;
  order[n++] = AIJT_SELL;
  order[n++] = AIJT_ELL;
  order[n++] = AIJT_LONG;
  order[n++] = AIJT_COO;
  for (int i = 0; i < n; i++) {
    aijt_format f = order[i];
    if (!allowed(b, f)) continue;
    /* padded formats must fit the index type; otherwise try the next format */
    if ((f == AIJT_ELL || f == AIJT_SELL) && ell_slots + (double)R->sell_chunk * (double)st.max_len >= (double)INT32_MAX) continue;
    aijt_strip s = strip_init(b, f, begin, end, st);
    switch (f) {
    case AIJT_CSR:
      s.tpr = aijt_tpr_sqmean((double)st.max_len);
      break;
    case AIJT_LONG:
      s.blocks_per_row = 1;
      break;
    case AIJT_ELL: {
      aijt_int excess = 0;
      s.width         = allowed(b, AIJT_COO) ? hyb_width(b, begin, end, st, &excess) : st.max_len;
      s.nnz -= excess;
      s.tail_nnz = excess;
    } break;
    case AIJT_SELL:
      s.chunk = R->sell_chunk;
      s.sigma = b->plan->sorted ? 1 : R->sell_sigma;
      break;
    case AIJT_COO:
      s.tail_nnz = s.nnz;
      s.nnz      = 0;
      break;
    default:
      break;
    }
    return push_strip(b, &s);
  }
  return AIJT_ERR_FORMAT; /* unreachable while at least one format is allowed and COO never overflows */
}

static int long_parts(const builder *b, aijt_int rows, aijt_int max_len)
{
  return aijt_long_parts(b->rules->block, rows, max_len);
}

/* The power of two at or above the parts a row of len entries needs at 4 entries per thread. */
static int parts_class(const builder *b, aijt_int len)
{
  int c = 1;
  while (c < 1024 && (double)c * 4 * (double)b->rules->block < (double)len) c *= 2;
  return c;
}

/* Step 3.  Sorted, a long run is cut where the parts class changes, so that a row of 600 entries does not
   get the hundred blocks a row of 100k needs (an R-MAT graph's long rows span three decades). */
static aijt_err emit_long(builder *b, aijt_int begin, aijt_int end)
{
  if (!allowed(b, AIJT_LONG)) return emit_short(b, begin, end);
  for (aijt_int seg = begin; seg < end;) {
    aijt_int e = seg + 1;
    if (b->plan->sorted)
      while (e < end && parts_class(b, row_len(b, e)) == parts_class(b, row_len(b, seg))) e++;
    else e = end;
    range_stats st = stats_of(b, seg, e);
    aijt_strip  s  = strip_init(b, AIJT_LONG, seg, e, st);
    s.blocks_per_row = long_parts(b, st.rows, st.max_len);
    aijt_err err     = push_strip(b, &s);
    if (err) return err;
    seg = e;
  }
  return AIJT_OK;
}

static aijt_err emit_coo(builder *b, aijt_int begin, aijt_int end)
{
  range_stats st = stats_of(b, begin, end);
  aijt_strip  s  = strip_init(b, AIJT_COO, begin, end, st);
  s.tail_nnz     = s.nnz;
  s.nnz          = 0;
  return push_strip(b, &s);
}

/* The threads-per-row class of a row, remembered for the last length seen: sorted, a run of one length
   asks for it row after row (a square root each: 2M rows of random's 33 entries, 3 ms). */
typedef struct {
  aijt_int len;
  int      cls;
} tpr_memo;

static int tpr_class(aijt_int len, tpr_memo *memo)
{
  if (len != memo->len) memo->len = len, memo->cls = aijt_tpr_sqmean((double)len);
  return memo->cls;
}

/* Step 4: cut a short run where the threads-per-row class changes; small segments grow into the next
   class, and a small remainder joins the last segment.  Linear in the run's rows. */
static aijt_err cut_short(builder *b, aijt_int begin, aijt_int end)
{
  /* entries counted in integers: the same numbers as in doubles (below 2^53), without a chain of
     floating-point additions row after row */
  int64_t  run_nnz = 0, done_nnz = 0;
  aijt_int seg     = begin;
  tpr_memo memo    = {-1, 0};

  if (!b->plan->sorted) return emit_short(b, begin, end); /* classes are not contiguous in natural order */
  for (aijt_int k = begin; k < end; k++) run_nnz += row_len(b, k);
  while (seg < end) {
    aijt_int e   = seg;
    int64_t  nnz = 0;
    do {
      int cls = aijt_tpr_sqmean((double)row_len(b, e));
      while (e < end && tpr_class(row_len(b, e), &memo) == cls) nnz += row_len(b, e++);
    } while (e < end && too_small(b, (double)(e - seg), (double)nnz));
    if (e < end && too_small(b, (double)(end - e), (double)(run_nnz - done_nnz - nnz))) e = end;
    aijt_err err = emit_short(b, seg, e);
    if (err) return err;
    done_nnz += nnz;
    seg = e;
  }
  return AIJT_OK;
}

/* Step 0: the whole matrix as one DIA strip, if allowed and worth it; *done tells whether it was. */
static aijt_err plan_dia(builder *b, int *done)
{
  aijt_int    offsets[AIJT_DIA_MAX_DIAGS];
  const int   only = b->rules->allowed == AIJT_FORMAT_BIT(AIJT_DIA);
  const int   nd   = aijt_diagonals(b->A, AIJT_DIA_MAX_DIAGS, offsets);
  range_stats st   = {b->plan->nrows, b->plan->nnz, b->plan->features.min_len, b->plan->features.max_len};

  *done = 0;
  if (nd < 0) return only ? AIJT_ERR_FORMAT : AIJT_OK;
  if (!only && (double)b->plan->nnz < b->rules->dia_min_fill * (double)nd * (double)b->plan->nrows) return AIJT_OK;
  if ((double)nd * (double)b->plan->nrows >= (double)INT32_MAX) return only ? AIJT_ERR_OVERFLOW : AIJT_OK;
  if (b->plan->nrows == 0) return AIJT_OK;
  aijt_strip s = strip_init(b, AIJT_DIA, 0, b->plan->nrows, st);
  s.width      = nd;
  *done        = 1;
  return push_strip(b, &s);
}

/* Step 0, after DIA: the whole matrix as one BCSR strip where it is made of whole blocks (A->bs); with BCSR
   the only allowed format, a matrix that is not cannot be planned. */
static aijt_err plan_bcsr(builder *b, int *done)
{
  const int  only = b->rules->allowed == AIJT_FORMAT_BIT(AIJT_BCSR);
  aijt_strip s;

  *done = 0;
  if (!aijt_blocks_exact(b->A, b->A->bs)) return only ? AIJT_ERR_FORMAT : AIJT_OK;
  if (b->plan->nrows == 0) return AIJT_OK;
  aijt_bcsr_strip(b->plan, b->A->bs, b->rules->block, &s);
  *done = 1;
  return push_strip(b, &s);
}

/* No format of the sorted strips is allowed. */
static int no_strip_formats(const aijt_rules *R)
{
  return !(R->allowed & AIJT_STRIP_FORMATS);
}

/* Neither a format of the sorted strips nor STREAM is allowed: PANEL must take any matrix. */
static int panel_only(const aijt_rules *R)
{
  return no_strip_formats(R) && !(R->allowed & AIJT_FORMAT_BIT(AIJT_STREAM));
}

/* Step 0, second part: the whole matrix as one PANEL strip, if allowed and worth it. */
static aijt_err plan_panel(builder *b, int *done)
{
  const int  only = panel_only(b->rules);
  aijt_strip s;
  aijt_err   err;

  *done = 0;
  if (b->plan->nrows == 0 || (!only && !aijt_panel_worth(b->plan, b->rules))) return AIJT_OK;
  if ((err = aijt_panel_strip(b->plan, &s))) return only ? err : AIJT_OK;
  *done = 1;
  return push_strip(b, &s);
}

/* Only STREAM is left (no format of the sorted strips, no PANEL taken): one STREAM strip over all rows. */
static aijt_err plan_stream(builder *b)
{
  range_stats st = {b->plan->nrows, b->plan->nnz, b->plan->features.min_len, b->plan->features.max_len};
  if (b->plan->nrows == 0) return AIJT_OK;
  if (b->plan->features.max_len > AIJT_STREAM_MAX_LEN) return AIJT_ERR_FORMAT;
  aijt_strip s = strip_init(b, AIJT_STREAM, 0, b->plan->nrows, st);
  s.tpr        = 1;
  s.block      = AIJT_STREAM_BLOCK;
  return push_strip(b, &s);
}

aijt_err aijt_plan_rules(const aijt_csr *A, const aijt_rules *rules, aijt_plan **out)
{
  builder  b;
  aijt_err err = AIJT_OK;

  *out = NULL;
  if (!(rules->allowed & AIJT_ALL_FORMATS)) return AIJT_ERR_FORMAT;
  if (rules->long_row < 1 || rules->min_strip_rows < 1 || rules->sell_chunk < 1 || rules->sell_sigma < 1 || rules->block < 32) return AIJT_ERR_ARG;
  memset(&b, 0, sizeof(b));
  b.A     = A;
  b.rules = rules;
  if ((err = aijt_plan_start(A, &b.plan))) return err;
  if (allowed(&b, AIJT_DIA)) {
    int done;
    if ((err = plan_dia(&b, &done))) goto fail;
    if (done || rules->allowed == AIJT_FORMAT_BIT(AIJT_DIA)) {
      *out = b.plan;
      return AIJT_OK;
    }
  }
  if (allowed(&b, AIJT_BCSR)) {
    int done;
    if ((err = plan_bcsr(&b, &done))) goto fail;
    if (done || rules->allowed == AIJT_FORMAT_BIT(AIJT_BCSR)) {
      *out = b.plan;
      return AIJT_OK;
    }
  }
  if (allowed(&b, AIJT_PANEL)) {
    int done;
    if ((err = plan_panel(&b, &done))) goto fail;
    if (done || panel_only(rules)) {
      *out = b.plan;
      return AIJT_OK;
    }
  }
  if (no_strip_formats(rules)) { /* STREAM is allowed: what DIA and PANEL left */
    if ((err = plan_stream(&b))) goto fail;
    *out = b.plan;
    return AIJT_OK;
  }
  if (rules->sort && A->nrows > 1 && (err = sort_rows(&b))) goto fail;

  /* Step 2: seed 003's Algorithm 1 over the ordered rows. */
  for (aijt_int k = 0; k < A->nrows;) {
    int      is_long = row_len(&b, k) >= rules->long_row;
    aijt_int e       = k + 1;
    while (e < A->nrows && (row_len(&b, e) >= rules->long_row) == is_long) e++;
    if (!b.plan->sorted && allowed(&b, AIJT_COO) && tiny_run(&b, stats_of(&b, k, e))) err = emit_coo(&b, k, e); /* step 6 */
    else err = is_long ? emit_long(&b, k, e) : cut_short(&b, k, e);
    if (err) goto fail;
    k = e;
  }
  if ((err = aijt_plan_order_columns(A, rules, -1, b.plan))) goto fail;
  free(b.len);
  *out = b.plan;
  return AIJT_OK;

fail:
  free(b.len);
  aijt_plan_destroy(&b.plan);
  return err;
}

int aijt_rules_equal(const aijt_rules *a, const aijt_rules *b)
{
  return a->allowed == b->allowed && a->sort == b->sort && a->long_row == b->long_row && a->min_strip_rows == b->min_strip_rows && a->min_strip_share == b->min_strip_share && a->ell_max_pad == b->ell_max_pad && a->coo_cost == b->coo_cost && a->sell_max_len == b->sell_max_len && a->sell_big_rows == b->sell_big_rows && a->sell_chunk == b->sell_chunk && a->sell_sigma == b->sell_sigma && a->block == b->block && a->dia_min_fill == b->dia_min_fill && a->panel_min_len == b->panel_min_len && a->col_order == b->col_order && a->col_hot_degree == b->col_hot_degree && a->empty_free == b->empty_free;
}
