static const char help[] = "The performance model without a GPU: its file (round trip, corrupt and stale files refused with a\n"
                           "reason), its interpolation, the locality feature, and the model planner's optimality: on matrices\n"
                           "whose rows the model prices exactly, no rule set and no single format is predicted faster; and the\n"
                           "same plans through a source that keeps the order and column order until the end, as the GPU's.\n";

#include "aijtmodel.h"
#include "planbuild.h" /* aijt_panel_worth */
#include "../common/testblocks.h"
#include "../common/testmodel.h"
#include "../common/xorshift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/expect.h"

static int near(double a, double b)
{
  return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/* Read text as a model file. */
static aijt_err read_text(const char *text, aijt_model *m, char *why, size_t len)
{
  FILE *fp = tmpfile();
  if (!fp) return AIJT_ERR_MEM;
  fputs(text, fp);
  rewind(fp);
  aijt_err err = aijt_model_read(fp, m, why, len);
  fclose(fp);
  return err;
}

static void check_file(const aijt_model *m)
{
  FILE      *fp = tmpfile();
  aijt_model back;
  char       why[200];

  aijt_model_write(m, fp);
  rewind(fp);
  EXPECT(!aijt_model_read(fp, &back, why, sizeof(why)), "written model does not read back: %s", why);
  fclose(fp);
  EXPECT(!strcmp(back.device, m->device) && back.nkernels == m->nkernels && near(back.launch_us, m->launch_us) && near(back.strip_us, m->strip_us) && near(back.long_entry_ns, m->long_entry_ns), "model header changed on its way through a file");
  for (int i = 0; i < m->nkernels && i < back.nkernels; i++) {
    const aijt_model_kernel *a = &m->kernels[i], *b = &back.kernels[i];
    int                      same = a->format == b->format && a->param == b->param && a->npoints == b->npoints && near(a->overhead_us, b->overhead_us);
    for (int j = 0; same && j < a->npoints; j++) same = near(a->len[j], b->len[j]) && fabs(a->local_ns[j] - b->local_ns[j]) < 1e-4 * a->local_ns[j] && fabs(a->random_ns[j] - b->random_ns[j]) < 1e-4 * a->random_ns[j] && fabs(a->crit_us[j] - b->crit_us[j]) <= 1e-3 * a->crit_us[j];
    EXPECT(same, "kernel %d changed on its way through a file", i);
  }
  /* files that must be refused, each with a reason */
  const char *bad[][2] = {
    {"", "empty file"},
    {"aijtuned-model 99\ndevice X\nkernel csr 1 3\npoint 1 1 2 0.1 1 0\nend\n", "version"},
    {"something else\n", "not an aijtuned model"},
    {"aijtuned-model 2\ndevice X\n", "no kernels"},
    {"aijtuned-model 2\nkernel csr 1 3\npoint 1 1 2 0.1 1 0\n", "no end"},
    {"aijtuned-model 2\nkernel csr 1 3\npoint 4 1 2 0.1 1 0\npoint 2 1 2 0.1 1 0\nend\n", "no usable points"},
    {"aijtuned-model 2\nkernel csr 1 3\npoint 1 -1 2 0.1 1 0\nend\n", "no usable points"},
    {"aijtuned-model 2\nkernel hyb 1 3\nend\n", "unknown"},
    {"aijtuned-model 2\nkernel csr 1 3\npoint 1 1 2 0.1 1 0\nend\nkernel csr 1 3\npoint 1 1 2 0.1 1 0\nend\n", "repeated"},
    {"aijtuned-model 2\nkernel csr 1 3\npoint 1 1 2\nend\n", "cannot read"},
    {"aijtuned-model 2\n\x01\x02garbage\n", "cannot read"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    why[0] = 0;
    EXPECT(read_text(bad[i][0], &back, why, sizeof(why)) == AIJT_ERR_ARG && strstr(why, bad[i][1]), "bad file %d accepted or wrong reason (\"%s\", expected \"%s\")", (int)i, why, bad[i][1]);
  }
  EXPECT(aijt_model_load("/nonexistent/x.model", &back, why, sizeof(why)) == AIJT_ERR_ARG && strstr(why, "cannot open"), "a missing file must be refused");
}

static void check_interpolation(const aijt_model *m)
{
  const aijt_model_kernel *csr4 = aijt_model_kernel_find(m, AIJT_CSR, 4), *lng = aijt_model_kernel_find(m, AIJT_LONG, 0), *sell = aijt_model_kernel_find(m, AIJT_SELL, 32);

  EXPECT(csr4 && lng && sell && !aijt_model_kernel_find(m, AIJT_CSR, 3), "kernel lookup");
  if (!csr4 || !lng || !sell) return;
  EXPECT(near(aijt_model_row_ns(csr4, 8, 0.125), test_model_ns(AIJT_CSR, 4, 8)), "at a point, local feature: the local time");
  EXPECT(near(aijt_model_row_ns(csr4, 8, 1), 2 * test_model_ns(AIJT_CSR, 4, 8)), "at a point, random feature: the random time");
  EXPECT(near(aijt_model_row_ns(csr4, 8, 0.5625), 1.5 * test_model_ns(AIJT_CSR, 4, 8)), "halfway feature: halfway time");
  EXPECT(near(aijt_model_row_ns(csr4, 8, 0), test_model_ns(AIJT_CSR, 4, 8)) && near(aijt_model_row_ns(csr4, 8, 3), 2 * test_model_ns(AIJT_CSR, 4, 8)), "feature outside the measured range is clamped");
  EXPECT(near(aijt_model_row_ns(csr4, 12, 0.125), 0.5 * (test_model_ns(AIJT_CSR, 4, 8) + test_model_ns(AIJT_CSR, 4, 16))), "between points: linear in the length");
  EXPECT(near(aijt_model_row_ns(csr4, 0, 0.125), test_model_ns(AIJT_CSR, 4, 1)), "an empty row costs a row of one entry");
  EXPECT(aijt_model_row_ns(lng, 16, 0.125) < 0, "LONG below its first measured length is unknown");
  EXPECT(near(aijt_model_row_ns(lng, 1 << 20, 0.125), test_model_ns(AIJT_LONG, 0, 1 << 20)), "LONG extrapolates linearly in the length");
  EXPECT(aijt_model_row_ns(sell, 2048, 0.125) < 0 && aijt_model_row_ns(sell, 1000, 0.125) > 0, "SELL past twice its last length is unknown");
  EXPECT(near(aijt_model_crit_us(sell, 96), 0.5 * (test_model_crit(AIJT_SELL, 32, 64) + test_model_crit(AIJT_SELL, 32, 128))), "critical path: linear between points");
  EXPECT(aijt_model_crit_us(sell, 4096) == 0, "critical path where the kernel was not measured: 0");
}

static void check_locality(void)
{
  aijt_int rp[3] = {0, 256, 512}, col[512];
  aijt_csr A     = {2, 4096, rp, col, NULL, NULL, 0, 0};

  for (int k = 0; k < 256; k++) col[k] = k, col[256 + k] = 4 * k + 3; /* row 0: neighbours; row 1: a sector each */
  EXPECT(near(aijt_locality(&A, NULL, 0, 1, 8), 0.25), "neighbouring columns: a quarter of a sector per entry (%g)", aijt_locality(&A, NULL, 0, 1, 8));
  EXPECT(near(aijt_locality(&A, NULL, 1, 2, 8), 1.0), "spread columns: a sector per entry (%g)", aijt_locality(&A, NULL, 1, 2, 8));
  EXPECT(near(aijt_locality(&A, NULL, 0, 2, 8), 0.625), "both rows: the mean over two windows (%g)", aijt_locality(&A, NULL, 0, 2, 8));
  aijt_int order[2] = {1, 0};
  EXPECT(near(aijt_locality(&A, order, 0, 1, 8), 1.0), "windows follow the plan order");
  EXPECT(aijt_locality(&A, NULL, 1, 1, 8) == 0, "no entries: 0");
}

/* A matrix from row lengths, columns spread at random. */
static unsigned long long rng_state = 0x853c49e6748fea9bull;
static aijt_int           rnd(aijt_int n)
{
  return (aijt_int)(xorshift64(&rng_state) % (unsigned long long)n);
}

/* aijt_model_at_len_near, lengths asked in any order from one hint, gives what aijt_model_at_len gives, bit for bit
   (the planner's plans depend on it): every kernel, lengths longest first as the planner asks, then shortest
   first, then scattered, over the table and past it. */
static void check_lookups_near(const char *name, const aijt_model *m)
{
  static const int orders = 3, nlen = 600;
  for (int q = 0; q < m->nkernels; q++) {
    const aijt_model_kernel *k = &m->kernels[q];
    for (int o = 0; o < orders; o++) {
      int near = AIJT_MODEL_NEAR_START, same = 1;
      for (int i = 0; i < nlen; i++) {
        const int     t   = o == 0 ? nlen - 1 - i : o == 1 ? i : i * 7919 % nlen; /* a prime's steps: scattered */
        const double  len = t < 400 ? (double)t : (double)t * t * 0.7; /* every length to 400, then past the tables */
        aijt_model_at a, b;
        aijt_model_at_len(k, len, &a);
        aijt_model_at_len_near(k, len, &near, &b);
        same &= !memcmp(&a, &b, sizeof(a));
      }
      EXPECT(same, "%s: kernel %s %d, lengths %s: walked lookups differ from halved ones", name, aijt_format_names[k->format], k->param, o == 0 ? "longest first" : o == 1 ? "shortest first" : "scattered");
    }
  }
}

static aijt_csr make(aijt_int m, aijt_int n, const aijt_int *len)
{
  aijt_int *rp = malloc(((size_t)m + 1) * sizeof(aijt_int)), k = 0;
  rp[0]        = 0;
  for (aijt_int i = 0; i < m; i++) rp[i + 1] = rp[i] + len[i];
  aijt_int *col = malloc(((size_t)rp[m] + 1) * sizeof(aijt_int));
  for (aijt_int i = 0; i < m; i++) /* distinct, increasing: a random start, random gaps */
    for (aijt_int j = 0, c = rnd(n - len[i] * 4 > 1 ? n - len[i] * 4 : 1); j < len[i]; j++, c += 1 + rnd(3)) col[k++] = c;
  aijt_csr A = {m, n, rp, col, NULL, NULL, 0, 0};
  return A;
}

/* The model plan is predicted no slower than the rules' plan and every one-format plan. */
static void check_optimal(const char *name, const aijt_csr *A, const aijt_model *m, double tolerance)
{
  aijt_rules R;
  aijt_plan *best = NULL, *other = NULL;
  double     t_best;

  aijt_rules_default(&R);
  EXPECT(!aijt_plan_model(A, &R, m, &best), "%s: model plan failed", name);
  if (!best) return;
  t_best = aijt_plan_predict(m, A, best);
  for (int s = 0; s < best->nstrips; s++) EXPECT(best->strips[s].predicted_us > 0, "%s: strip %d has no prediction", name, s);
  for (int f = -1; f < AIJT_NFORMATS; f++) {
    aijt_rules_default(&R);
    if (f >= 0) R.allowed = AIJT_FORMAT_BIT(f);
    if (aijt_plan_rules(A, &R, &other)) continue; /* DIA alone on a matrix of many diagonals */
    double t = aijt_plan_predict(m, A, other);
    int    complete = 1;
    /* PANEL alone takes any matrix; the model planner weighs PANEL only where the rules find the matrix
       wide and full enough for it (its streaming price is no guide to short parts), so elsewhere that
       plan is none it could have made */
    aijt_rules_default(&R);
    if (f == AIJT_PANEL && !aijt_panel_worth(other, &R)) complete = 0;
    for (int s = 0; s < other->nstrips; s++) complete &= other->strips[s].predicted_us > 0;
    if (complete) EXPECT(t_best <= t * (1 + tolerance) + 1e-9, "%s: the rules with formats %s are predicted faster: %.4g us against %.4g", name, f < 0 ? "all" : aijt_format_names[f], t, t_best);
    aijt_plan_destroy(&other);
  }
  printf("%-14s %6lld rows: model plan %d strips, predicted %.4g us\n", name, (long long)A->nrows, best->nstrips, t_best);
  aijt_plan_destroy(&best);
}

/* STREAM's kernel of four lanes a row is chosen over one lane only when predicted at least 5% faster
   (wholeplan.c's STREAM_LANES_MARGIN): at 97% of one lane's time the plan keeps one lane, at 90% four.
   Every part of the four-lane kernel's time is scaled, its fixed cost too, so that the kernel's price is
   that share of one lane's; only the strip's own fixed cost (strip_us), the same for both, is not. */
static void check_stream_lanes(aijt_int *len)
{
  for (int v = 0; v < 2; v++) {
    const double       share = v ? 0.90 : 0.97;
    aijt_model         s;
    aijt_model_kernel *k4;
    aijt_plan         *p = NULL;
    aijt_rules         R;

    test_model(&s);
    test_model_kernel(&s, AIJT_STREAM, 1, 1, 2048);
    test_model_kernel(&s, AIJT_STREAM, 4, 1, 2048);
    k4 = &s.kernels[s.nkernels - 1];
    for (int j = 0; j < k4->npoints; j++) k4->local_ns[j] *= share, k4->random_ns[j] *= share, k4->crit_us[j] *= share;
    k4->overhead_us *= share;
    for (aijt_int i = 0; i < 20000; i++) len[i] = 1 + rnd(20);
    aijt_csr A = make(20000, 50000, len);
    aijt_rules_default(&R);
    EXPECT(!aijt_plan_model(&A, &R, &s, &p) && p->nstrips == 1 && p->strips[0].format == AIJT_STREAM, "four lanes at %.0f%%: one STREAM strip (got %s)", 100 * share, p && p->nstrips ? aijt_format_names[p->strips[0].format] : "no plan");
    if (p && p->nstrips == 1) EXPECT(p->strips[0].tpr == (v ? 4 : 1), "four lanes at %.0f%% of one lane's time: %d lanes a row chosen", 100 * share, p->strips[0].tpr);
    aijt_plan_destroy(&p);
    free((void *)A.rowptr), free((void *)A.colidx);
  }
}

/* The natural order's locality windows (aijt_natural_windows, which the GPU planner counts in its first
   pass): spread evenly over the entries, one after another, each of at most AIJT_LOCALITY_WINDOW entries
   from a real entry of its row; none where the rules or the size rule STREAM out. */
static void check_natural_windows(aijt_int *len)
{
  aijt_window w[AIJT_NATURAL_WINDOWS];
  aijt_rules  R;
  int         n;

  for (aijt_int i = 0; i < 20000; i++) len[i] = 1 + rnd(20);
  aijt_csr      A     = make(20000, 50000, len);
  const int64_t total = A.rowptr[A.nrows];
  int64_t       end   = 0;

  aijt_rules_default(&R);
  n = aijt_natural_windows(&A, &R, w);
  EXPECT(n == AIJT_NATURAL_WINDOWS, "natural windows: %d of %d entries, expected %d", n, (int)total, AIJT_NATURAL_WINDOWS);
  for (int q = 0; q < n; q++) {
    const int64_t start = (int64_t)A.rowptr[w[q].k] + w[q].e, even = (int64_t)((double)q * (double)total / (double)n);
    EXPECT(w[q].k >= 0 && w[q].k < A.nrows && w[q].e >= 0 && w[q].e < A.rowptr[w[q].k + 1] - A.rowptr[w[q].k], "natural window %d starts past its row", q);
    EXPECT(start >= end && start == (even > end ? even : end), "natural window %d starts at entry %lld, expected %lld", q, (long long)start, (long long)(even > end ? even : end));
    EXPECT(w[q].n > 0 && w[q].n <= AIJT_LOCALITY_WINDOW && start + w[q].n <= total, "natural window %d holds %d entries", q, w[q].n);
    end = start + w[q].n;
  }
  R.allowed &= ~AIJT_FORMAT_BIT(AIJT_STREAM);
  EXPECT(aijt_natural_windows(&A, &R, w) == 0, "natural windows without STREAM");
  free((void *)A.rowptr), free((void *)A.colidx);

  for (aijt_int i = 0; i < 10; i++) len[i] = 1 + i % 3; /* 19 entries: one short window */
  A = make(10, 10, len);
  aijt_rules_default(&R);
  n = aijt_natural_windows(&A, &R, w);
  EXPECT(n == 1 && w[0].k == 0 && w[0].e == 0 && w[0].n == (int)A.rowptr[A.nrows], "natural windows of a small matrix: %d, the first of %d entries", n, n ? w[0].n : 0);
  A.nrows = 0;
  EXPECT(aijt_natural_windows(&A, &R, w) == 0, "natural windows of no rows");
  free((void *)A.rowptr), free((void *)A.colidx);
}

/* The block test (a pass over the entries, a wait on the GPU) is asked for only where BCSR's price can still win:
   on block-tridiagonal 2 x 2 blocks BCSR's rows of 6 entries cost less than DIA's 7 diagonals, and the test is
   asked once; with DIA's times halved DIA wins and it is not asked. */
static aijt_plan_source blocks_inner;
static int              blocks_asked;

static int blocks_counted(void *ctx, int bs)
{
  blocks_asked++;
  return blocks_inner.blocks(ctx, bs);
}

static void check_blocks_asked(const aijt_model *m)
{
  const aijt_int   nb = 2000;
  const int        bs = 2;
  aijt_int        *rp = malloc(((size_t)nb * bs + 1) * sizeof(aijt_int)), *col = malloc((size_t)nb * bs * 3 * bs * sizeof(aijt_int));
  aijt_model      *cheap = malloc(sizeof(*cheap));
  aijt_rules       R;
  aijt_plan_source src;

  test_blocks_pattern(nb, bs, 3, -1, rp, col); /* the diagonal block and its two neighbours */
  aijt_csr A = {nb * bs, nb * bs, rp, col, NULL, NULL, 0, bs};
  *cheap     = *m;
  for (int q = 0; q < cheap->nkernels; q++)
    if (cheap->kernels[q].format == AIJT_DIA)
      for (int j = 0; j < cheap->kernels[q].npoints; j++) cheap->kernels[q].local_ns[j] *= 0.5, cheap->kernels[q].random_ns[j] *= 0.5;
  aijt_rules_default(&R);
  aijt_plan_source_host(&A, &blocks_inner);
  src        = blocks_inner;
  src.blocks = blocks_counted;
  for (int v = 0; v < 2; v++) {
    const aijt_format want = v ? AIJT_DIA : AIJT_BCSR;
    aijt_plan        *p = NULL, *q = NULL;
    blocks_asked = 0;
    EXPECT(!aijt_plan_model_from(&A, &src, &R, v ? cheap : m, &p) && p->nstrips == 1 && p->strips[0].format == want, "block-tridiagonal 2 x 2 blocks%s: one %s strip", v ? ", DIA halved" : "", aijt_format_names[want]);
    EXPECT(blocks_asked == (v ? 0 : 1), "block-tridiagonal 2 x 2 blocks%s: the block test asked %d times", v ? ", DIA halved" : "", blocks_asked);
    EXPECT(!aijt_plan_model(&A, &R, v ? cheap : m, &q) && p && aijt_plan_equal(p, q), "block-tridiagonal 2 x 2 blocks%s: the host planner's plan differs", v ? ", DIA halved" : "");
    aijt_plan_destroy(&p);
    aijt_plan_destroy(&q);
  }
  free(cheap), free(rp), free(col);
}

/* A source that leaves the order and the column order where it made them, as the GPU's does
   (kernels/plan_gpu.cu): rows gives NULL, columns leaves col_pos NULL, sectors reads its own copies, and
   fetch hands over what the plan keeps.  The planner must then make the host's plan, order and column
   order included; test_kernels checks the GPU's source itself, this the planner's side on any machine. */
typedef struct {
  aijt_plan_source host;
  aijt_int        *order, *col_pos; /* kept here until fetch */
} deferred;

static aijt_err deferred_lengths(void *ctx, aijt_features *f, aijt_int **count)
{
  deferred *d = ctx;
  return d->host.lengths(d->host.ctx, f, count);
}

static int deferred_diagonals(void *ctx, int max, aijt_int *offsets)
{
  deferred *d = ctx;
  return d->host.diagonals(d->host.ctx, max, offsets);
}

static int deferred_blocks(void *ctx, int bs)
{
  deferred *d = ctx;
  return d->host.blocks(d->host.ctx, bs);
}

static aijt_err deferred_columns(void *ctx, const aijt_rules *R, int nd, aijt_plan *p)
{
  deferred *d   = ctx;
  aijt_err  err = d->host.columns(d->host.ctx, R, nd, p);
  free(d->col_pos);
  d->col_pos = p->col_pos; /* col_hot stays: the planner reads it */
  p->col_pos = NULL;
  return err;
}

static aijt_err deferred_rows(void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order)
{
  deferred *d = ctx;
  free(d->order);
  d->order = NULL;
  *order   = NULL;
  return d->host.rows(d->host.ctx, max_len, count, &d->order);
}

static aijt_err deferred_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct)
{
  deferred *d = ctx;
  aijt_plan q = *p;
  EXPECT(!p->order && !p->col_pos, "deferred source: the planner holds an order or a column order before fetch");
  q.order   = p->sorted ? d->order : NULL;
  q.col_pos = p->col_hot > 0 ? d->col_pos : NULL;
  return d->host.sectors(d->host.ctx, &q, w, n, distinct);
}

static aijt_err deferred_fetch(void *ctx, aijt_plan *p)
{
  deferred *d = ctx;
  if (p->sorted) p->order = d->order, d->order = NULL;
  if (p->col_hot > 0) p->col_pos = d->col_pos, d->col_pos = NULL;
  return AIJT_OK;
}

static void check_deferred(const char *name, const aijt_csr *A, const aijt_model *m, aijt_col_order cols)
{
  deferred         d;
  aijt_plan_source src = {&d, deferred_lengths, deferred_diagonals, deferred_blocks, deferred_columns, deferred_rows, deferred_sectors, deferred_fetch};
  aijt_plan       *p = NULL, *q = NULL;
  aijt_rules       R;

  memset(&d, 0, sizeof(d));
  aijt_plan_source_host(A, &d.host);
  aijt_rules_default(&R);
  R.col_order = cols;
  EXPECT(!aijt_plan_model_from(A, &src, &R, m, &p) && !aijt_plan_model(A, &R, m, &q), "%s, columns %s: a plan failed", name, aijt_col_order_names[cols]);
  EXPECT(p && q && aijt_plan_equal(p, q) && !p->sorted == !p->order && p->sorted == q->sorted, "%s, columns %s: the plan through a source that keeps its order differs from the host's", name, aijt_col_order_names[cols]);
  aijt_plan_destroy(&p);
  aijt_plan_destroy(&q);
  free(d.order);
  free(d.col_pos);
}

int main(void)
{
  aijt_model m;
  aijt_int  *len = malloc(20000 * sizeof(aijt_int));
  (void)help;

  test_model(&m);
  check_file(&m);
  check_interpolation(&m);
  check_lookups_near("test model", &m);
  { /* and the shipped models' tables (the tests run in tests/planner) */
    static const char *const shipped[] = {"../../models/NVIDIA-H100-80GB-HBM3.model", "../../models/NVIDIA-H200.model"};
    for (size_t f = 0; f < sizeof(shipped) / sizeof(shipped[0]); f++) {
      aijt_model sm;
      char       why[256];
      EXPECT(!aijt_model_load(shipped[f], &sm, why, sizeof(why)), "%s does not load: %s", shipped[f], why);
      check_lookups_near(shipped[f], &sm);
    }
  }
  check_locality();

  /* rows of at most 64 entries: one length per class, so the plan's price is exact */
  for (aijt_int i = 0; i < 20000; i++) len[i] = 1 + rnd(64);
  aijt_csr A = make(20000, 50000, len);
  check_optimal("lengths 1-64", &A, &m, 1e-9);
  for (int c = 0; c < 3; c++) check_deferred("lengths 1-64", &A, &m, (aijt_col_order)c);
  free((void *)A.rowptr), free((void *)A.colidx);
  for (aijt_int i = 0; i < 8000; i++) len[i] = i % 3 ? 7 : 2;
  A = make(8000, 8000, len);
  check_optimal("7 and 2", &A, &m, 1e-9);
  for (int c = 0; c < 3; c++) check_deferred("7 and 2", &A, &m, (aijt_col_order)c);
  free((void *)A.rowptr), free((void *)A.colidx);
  /* long rows share classes: the price of a class is its mean row, within a few percent */
  for (aijt_int i = 0; i < 20000; i++) len[i] = i % 1000 == 0 ? 500 + rnd(3000) : 1 + rnd(20);
  A = make(20000, 50000, len);
  check_optimal("long and short", &A, &m, 0.05);
  for (int c = 0; c < 3; c++) check_deferred("long and short", &A, &m, (aijt_col_order)c);
  free((void *)A.rowptr), free((void *)A.colidx);
  { /* few rows of 200 entries: SELL's work is least, but one thread per row waits on 200 gathers */
    aijt_plan *p = NULL;
    aijt_rules R;
    for (aijt_int i = 0; i < 2000; i++) len[i] = 200;
    A = make(2000, 50000, len);
    aijt_rules_default(&R);
    EXPECT(!aijt_plan_model(&A, &R, &m, &p) && p->nstrips == 1 && p->strips[0].format == AIJT_CSR, "few long rows: CSR-vector, not SELL (got %s)", p ? aijt_format_names[p->strips[0].format] : "no plan");
    aijt_plan_destroy(&p);
    check_optimal("few of 200", &A, &m, 1e-9);
    for (int c = 0; c < 3; c++) check_deferred("few of 200", &A, &m, (aijt_col_order)c);
    free((void *)A.rowptr), free((void *)A.colidx);
  }
  { /* empty rows: a strip of their own at the end, which an in-place y += A x skips */
    aijt_plan *p = NULL;
    aijt_rules R;
    for (aijt_int i = 0; i < 6000; i++) len[i] = i % 3 ? 0 : 1 + rnd(10);
    A = make(6000, 6000, len);
    aijt_rules_default(&R);
    EXPECT(!aijt_plan_model(&A, &R, &m, &p), "empty rows: plan failed");
    if (p) {
      int n = aijt_plan_empty_tail(p), ok = n >= 1;
      for (int s = 0; s < p->nstrips; s++) ok &= (s >= p->nstrips - n) == (p->strips[s].max_len == 0);
      EXPECT(ok && p->strips[p->nstrips - n].begin == 2000, "empty rows: %d trailing strips, and only they, hold the 4000 empty rows", n);
    }
    aijt_plan_destroy(&p);
    for (int c = 0; c < 3; c++) check_deferred("empty rows", &A, &m, (aijt_col_order)c);
    free((void *)A.rowptr), free((void *)A.colidx);
  }
  { /* a tridiagonal matrix: DIA is cheapest in the synthetic model */
    aijt_int   n = 5000, *rp = malloc((n + 1) * sizeof(aijt_int)), *col = malloc(3 * n * sizeof(aijt_int)), k = 0;
    aijt_plan *p = NULL;
    aijt_rules R;
    rp[0] = 0;
    for (aijt_int i = 0; i < n; i++) {
      for (aijt_int c = i - 1; c <= i + 1; c++)
        if (c >= 0 && c < n) col[k++] = c;
      rp[i + 1] = k;
    }
    aijt_csr T = {n, n, rp, col, NULL, NULL, 0, 0};
    aijt_rules_default(&R);
    EXPECT(!aijt_plan_model(&T, &R, &m, &p) && p->nstrips == 1 && p->strips[0].format == AIJT_DIA && !p->order, "tridiagonal: one DIA strip in natural order");
    aijt_plan_destroy(&p);
    check_optimal("tridiagonal", &T, &m, 1e-9);
    for (int c = 0; c < 3; c++) check_deferred("tridiagonal", &T, &m, (aijt_col_order)c);
    free(rp), free(col);
  }
  check_blocks_asked(&m);
  check_stream_lanes(len); /* last but one: the random lengths above stay as they were */
  check_natural_windows(len);
  free(len);
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0

TEST*/
