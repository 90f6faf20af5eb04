/*
   Device test of the aijtuned kernels against the planner's host reference (aijt_ref_spmv).

   For every generated matrix and every rule set: plan with aijt_plan_rules, lay out with
   aijt_layouts_build, upload every strip and the tail, then run y = A x, y = A x + z (z separate) and
   y = A x + y (in place) through aijt_cuda_strip / aijt_cuda_tail on a non-blocking stream, y poisoned
   with NaN first (every row must be written).  Three trials per case:
     exact   values k/8 and x k/16 (dyadic, nonzero): every product is a multiple of 1/128 and every
             partial sum stays far below 2^53/128, so any summation order is exact; a missing or
             doubled entry moves a row by at least 1/128.  Checked with the brief's bound,
             |y - ref| / max(1, |ref|) <= 1e-12.
     random  values and x uniform in [-1, 1]: rounding differs with the order, and a row of 50k entries
             whose sum cancels could exceed the plain bound by chance, so the denominator also admits
             the row's absolute sum: |y - ref| <= 1e-12 max(1, |ref|, |z| + sum |a x|).
     inf     x = 1 except Inf at columns 0 and ncols/2: rows that reference them must be exactly as
             non-finite as the reference, others within the random bound (padding must not leak an Inf;
             column 0 is where a padding index clamped to 0 would read).
   The random and inf trials' products carry a MatScale factor (aijt_cuda_spmv's scale: -1.5, -0.5) that the
   uploaded values do not hold, against a reference from the values times it; the exact trial's none.
   Every plan is also built on the device from its skeleton, and every array must equal the host
   build's bit for bit, before and after the new values of the random and inf trials (aijt_dev_refresh; but
   the val of a DIA strip whose new values code, which a refill leaves).  DIA strips get value codes
   (dia_codes.cu): the exact and inf trials' few values are coded, the random trial's are too many, and every
   code and table is checked against the host's values and masks after every upload, build and refresh.
   Rule sets include overrides of the plan's launch parameters (every tpr of CSR, PANEL's extremes, a forced multi-block LONG
   split, odd blocks), since the kernels must be correct for any parameters the API accepts.
   Prints one line per matrix and rule set, then "N passed, N failed"; exit 1 on any failure.
   Without a CUDA device: "no CUDA device: skipped", exit 0.
   MatGetDiagonal's and MatShift's kernels (csr_diagonal.cu) are checked on every matrix against the host.
   "test_kernels NAME" runs only the products of the matrices whose name contains NAME, without the
   planner's GPU cases and the diagonal's: a short run, for example under compute-sanitizer.
*/
#include "count_sort.cuh"
#include "devcopy.h"
extern "C" {
#include "aijttune.h" /* aijt_strip_pattern */
}
#include "../../tests/common/teststencil.h"
#include "../../tests/common/testblocks.h"
#include "../../tests/common/testmodel.h"
#include "../../tests/common/xorshift.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- matrices */

typedef struct {
  const char *name;
  aijt_int    nrows, ncols;
  aijt_int   *rowptr, *colidx;
  double     *values;
  int         bs; /* the block size the planner is told (0: none) */
} matrix;

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

static unsigned long long rnd(void)
{
  return xorshift64(&rng_state);
}

static double rnd_uniform(void) /* [-1, 1] */
{
  return (double)(rnd() % 2000001) / 1000000.0 - 1.0;
}

static double rnd_dyadic(int denom) /* +-k/denom, k in [1, denom]: never zero */
{
  double v = (double)(1 + rnd() % (unsigned long long)denom) / denom;
  return rnd() & 1 ? v : -v;
}

/* A matrix from row lengths (capped at ncols): distinct random columns, sorted within each row. */
static matrix make(const char *name, aijt_int m, aijt_int n, const aijt_int *len)
{
  matrix A = {name, m, n, NULL, NULL, NULL, 0};
  A.rowptr = (aijt_int *)malloc(((size_t)m + 1) * sizeof(aijt_int));
  A.rowptr[0] = 0;
  for (aijt_int i = 0; i < m; i++) A.rowptr[i + 1] = A.rowptr[i] + (len[i] < n ? len[i] : n);
  A.colidx            = (aijt_int *)malloc(((size_t)A.rowptr[m] + 1) * sizeof(aijt_int));
  A.values            = (double *)calloc((size_t)A.rowptr[m] + 1, sizeof(double));
  unsigned char *used = (unsigned char *)calloc((size_t)n + 1, 1);
  for (aijt_int i = 0; i < m; i++) {
    aijt_int l = A.rowptr[i + 1] - A.rowptr[i], k = A.rowptr[i];
    if (l > n / 2) { /* dense-ish row: walk the columns, keeping each with the right probability */
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
  return A;
}

/* A stencil (teststencil.h); values are set per trial. */
static matrix make_stencil(const char *name, aijt_int nx, aijt_int ny, aijt_int nz, int holes)
{
  aijt_int n = nx * ny * nz;
  matrix   A = {name, n, n, NULL, NULL, NULL, 0};
  A.rowptr   = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));
  A.colidx   = (aijt_int *)malloc(((size_t)7 * n + 1) * sizeof(aijt_int));
  A.values   = (double *)calloc((size_t)7 * n + 1, sizeof(double));
  test_stencil_pattern(nx, ny, nz, holes, A.rowptr, A.colidx);
  return A;
}

/* Whole bs x bs blocks (testblocks.h), the block size told; drop >= 0 leaves out that entry. */
static matrix make_blocks(const char *name, aijt_int nb, int bs, int per, int64_t drop)
{
  const aijt_int n = nb * bs;
  matrix         A = {name, n, n, NULL, NULL, NULL, bs};
  A.rowptr         = (aijt_int *)malloc(((size_t)n + 1) * sizeof(aijt_int));
  A.colidx         = (aijt_int *)malloc(((size_t)n * per * bs + 1) * sizeof(aijt_int));
  A.values         = (double *)calloc((size_t)n * per * bs + 1, sizeof(double));
  test_blocks_pattern(nb, bs, per, drop, A.rowptr, A.colidx);
  return A;
}

static void matrix_free(matrix *A)
{
  free(A->rowptr), free(A->colidx), free(A->values);
}

/* ---------------------------------------------------------------- rule sets */

typedef struct {
  char       name[48];
  aijt_rules rules;
  int        tpr;   /* > 0: every CSR strip uses this tpr */
  int        bpr;   /* > 0: every LONG strip uses this many blocks per row */
  int        block; /* > 0: every launch uses this block */
} ruleset;

static int nrulesets = 0;
static ruleset rulesets[96];

static ruleset *add_ruleset(const char *name)
{
  if (nrulesets == (int)(sizeof(rulesets) / sizeof(rulesets[0]))) { /* a new rule set needs room */
    printf("FAIL test_kernels: more than %d rule sets\n", nrulesets);
    exit(1);
  }
  ruleset *rs = &rulesets[nrulesets++];
  memset(rs, 0, sizeof(*rs));
  snprintf(rs->name, sizeof(rs->name), "%s", name);
  aijt_rules_default(&rs->rules);
  return rs;
}

/* A rule set that allows format f alone */
static ruleset *add_alone(const char *name, aijt_format f)
{
  ruleset *rs       = add_ruleset(name);
  rs->rules.allowed = AIJT_FORMAT_BIT(f);
  return rs;
}

static void small_thresholds(aijt_rules *R) /* cut even small matrices into many strips */
{
  R->min_strip_rows  = 1;
  R->min_strip_share = 0;
  R->long_row       = 8;
  R->sell_max_len  = 4;
  R->sell_chunk     = 4;
  R->sell_sigma     = 8;
  R->ell_max_pad    = 0.5;
}

static void make_rulesets(void)
{
  char name[48];
  for (int small = 0; small < 2; small++)
    for (int sort = 1; sort >= 0; sort--)
      for (int f = -1; f < AIJT_NFORMATS; f++) {
        snprintf(name, sizeof(name), "%s%s %s", small ? "small" : "default", sort ? "" : " unsorted", f < 0 ? "all" : aijt_format_names[f]);
        ruleset *rs = add_ruleset(name);
        if (small) small_thresholds(&rs->rules);
        rs->rules.sort = sort;
        if (f >= 0) rs->rules.allowed = AIJT_FORMAT_BIT(f);
      }
  ruleset *rs = add_ruleset("hyb ell+coo");
  rs->rules.allowed     = AIJT_FORMAT_BIT(AIJT_ELL) | AIJT_FORMAT_BIT(AIJT_COO);
  rs->rules.ell_max_pad = 1e9; /* every short strip is ELL with its excess in the tail */
  for (int tpr = 1; tpr <= 32; tpr *= 2) {
    snprintf(name, sizeof(name), "csr tpr=%d", tpr);
    add_alone(name, AIJT_CSR)->tpr = tpr;
  }
  /* a column order: the hot columns' copy of x by aijt_cuda_gather, then the strips read it and x */
  rs                  = add_ruleset("cols=degree all");
  rs->rules.col_order = AIJT_COLS_DEGREE;
  rs                  = add_ruleset("small cols=degree all");
  small_thresholds(&rs->rules);
  rs->rules.col_order = AIJT_COLS_DEGREE;
  rs                  = add_ruleset("cols=degree hot=all"); /* every label hot: x itself unread */
  rs->rules.col_order = AIJT_COLS_DEGREE;
  rs->rules.col_hot_degree = 0;
  rs                  = add_ruleset("small cols=degree hot=one"); /* one hot column */
  small_thresholds(&rs->rules);
  rs->rules.col_order = AIJT_COLS_DEGREE;
  rs->rules.col_hot_degree = 1 << 30;
  add_alone("panel tpr=1", AIJT_PANEL)->tpr = 1;
  rs      = add_alone("panel tpr=32 block=64", AIJT_PANEL);
  rs->tpr = 32, rs->block = 64;
  add_alone("bcsr tpr=1", AIJT_BCSR)->tpr = 1;
  rs      = add_alone("bcsr tpr=32 block=64", AIJT_BCSR);
  rs->tpr = 32, rs->block = 64;
  rs      = add_alone("long bpr=7 block=64", AIJT_LONG);
  rs->bpr = 7, rs->block = 64;
  rs      = add_alone("long bpr=1 block=1024", AIJT_LONG);
  rs->bpr = 1, rs->block = 1024;
  rs = add_ruleset("long_row=8 block=32 (planned split)");
  small_thresholds(&rs->rules);
  rs->rules.block = 32; /* 512 entries per block: long rows get many blocks */
  add_alone("sell C=1", AIJT_SELL)->rules.sell_chunk = 1;
  rs                   = add_alone("sell C=7 unsorted sigma=64", AIJT_SELL);
  rs->rules.sell_chunk = 7, rs->rules.sort = 0, rs->rules.sell_sigma = 64;
  add_alone("sell C=32 unsorted", AIJT_SELL)->rules.sort = 0;
  rs                   = add_alone("sell C=1000 block=96", AIJT_SELL);
  rs->rules.sell_chunk = 1000, rs->block = 96;
  add_alone("sell C=1024", AIJT_SELL)->rules.sell_chunk = 1024;
  rs = add_ruleset("small block=40 (normalised)");
  small_thresholds(&rs->rules);
  rs->rules.block = 40;
  rs              = add_ruleset("small block=1024");
  small_thresholds(&rs->rules);
  rs->rules.block = 1024;
}

/* ---------------------------------------------------------------- one case */

/* "format:strips ..." of the plan into info; the characters written. */
static size_t plan_formats(const aijt_plan *plan, char *info, size_t info_len)
{
  aijt_int ns[AIJT_NFORMATS], nr[AIJT_NFORMATS], nz[AIJT_NFORMATS];
  size_t   used = 0;
  aijt_plan_summary(plan, ns, nr, nz);
  info[0] = 0;
  for (int f = 0; f < AIJT_NFORMATS && used < info_len; f++)
    if (ns[f]) used += (size_t)snprintf(info + used, info_len - used, "%s%s:%lld", used ? " " : "", aijt_format_names[f], (long long)ns[f]);
  return used < info_len ? used : info_len;
}

enum { TRIAL_EXACT, TRIAL_RANDOM, TRIAL_INF, NTRIALS };
static const char *const trial_names[NTRIALS] = {"exact", "random", "inf"};
static const char *const mode_names[3]        = {"y=Ax", "y=Ax+z", "y=Ax+y"};

/* max over rows of the scaled error; negative when a row is wrong in kind (NaN, unwritten, Inf). */
static double compare(const matrix *A, const double *x, const double *z, const double *y, const double *ref, int trial, aijt_int *bad_row)
{
  double worst = 0.0;
  for (aijt_int i = 0; i < A->nrows; i++) {
    if (!isfinite(ref[i])) {
      if (isnan(ref[i]) ? !isnan(y[i]) : y[i] != ref[i]) return *bad_row = i, -1.0;
      continue;
    }
    double denom = fmax(1.0, fabs(ref[i]));
    if (trial != TRIAL_EXACT) {
      double abs_sum = z ? fabs(z[i]) : 0.0;
      for (aijt_int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) abs_sum += fabs(A->values[k] * x[A->colidx[k]]);
      denom = fmax(denom, abs_sum);
    }
    double err = fabs(y[i] - ref[i]) / denom;
    if (!(err <= 1e-12)) return *bad_row = i, isnan(err) ? -1.0 : err;
    if (err > worst) worst = err;
  }
  return worst;
}

/* ---------------------------------------------------------------- the GPU build */

/* n elements of device array d equal to host array h, bit for bit. */
static int same_array(const void *d, const void *h, size_t n, size_t size, const char *what, int s)
{
  void *copy = malloc(n * size + 1);
  int   ok   = copy && aijt_cuda_ok(cudaMemcpy(copy, d, n * size, cudaMemcpyDeviceToHost), "cudaMemcpy (GPU build)") && !memcmp(copy, h, n * size);
  if (!ok) printf("  GPU build: %s of strip %d differs from the host build\n", what, s);
  free(copy);
  return ok;
}

/* Whether DIA strip d's product reads its value codes (their table) rather than val. */
static int codes_in_use(const aijt_dev_strip *d)
{
  int state[AIJT_CODES_STATE];
  return d->code && aijt_cuda_ok(cudaMemcpy(state, d->codes_state, sizeof(state), cudaMemcpyDeviceToHost), "cudaMemcpy codes state") && state[AIJT_CODES_USED];
}

/* The layouts built on the device (D, from the plan's skeleton) are the host's L, array by array (but the val of
   a strip whose codes are in use, with coded_val_stale: a refill leaves it, and codes_match checks the codes). */
static int same_as_host_but(const aijt_dev_layouts *D, const aijt_layouts *L, int coded_val_stale)
{
  int ok = D->nstrips == L->nstrips && D->tail.nnz == L->tail.nnz && D->nhot == L->nhot;
  if (!ok) printf("  GPU build: %d strips, %lld tail entries, %lld hot, host %d, %lld, %lld\n", D->nstrips, (long long)D->tail.nnz, (long long)D->nhot, L->nstrips, (long long)L->tail.nnz, (long long)L->nhot);
  for (int s = 0; s < L->nstrips && ok; s++) {
    const aijt_layout    *S = &L->strips[s];
    const aijt_dev_strip *d = &D->strips[s];
    const size_t          n = (size_t)S->nslots;
    ok = d->nslots == S->nslots && same_array(d->rows, S->rows, (size_t)S->nrows, sizeof(aijt_int), "rows", s);
    ok = ok && (coded_val_stale && codes_in_use(d) ? 1 : same_array(d->val, S->val, n, sizeof(double), "val", s));
    ok = ok && ((!D->src[s] && d->row_start) || same_array(D->src[s], S->src, n, sizeof(aijt_int), "src", s)); /* no map: the rows' first places */
    if (S->col && n) ok = ok && same_array(d->col, S->col, aijt_layout_col_count(S), sizeof(aijt_int), "col", s);
    if (S->mask) ok = ok && same_array(d->mask, S->mask, (size_t)S->nrows, sizeof(uint32_t), "mask", s);
  }
  if (ok && L->tail.nnz) {
    const size_t n = (size_t)L->tail.nnz;
    ok = same_array(D->tail.row, L->tail.row, n, sizeof(aijt_int), "tail row", -1) && same_array(D->tail.col, L->tail.col, n, sizeof(aijt_int), "tail col", -1);
    ok = ok && same_array(D->tail.val, L->tail.val, n, sizeof(double), "tail val", -1) && same_array(D->tail_src, L->tail.src, n, sizeof(aijt_int), "tail src", -1);
  }
  if (ok && L->hot) ok = same_array(D->hot, L->hot, (size_t)L->nhot, sizeof(aijt_int), "hot columns", -1);
  return ok;
}

static int same_as_host(const aijt_dev_layouts *D, const aijt_layouts *L)
{
  return same_as_host_but(D, L, 0);
}

static int gpu_builds = 0; /* plans built on the device too */
static int coded_strips = 0, uncoded_strips = 0; /* DIA strips checked with their values coded, and over the table */
static int by_rows_strips[2] = {0, 0}; /* strips built on the device without a map (refilled through their rows' first places): DIA, others */

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* A DIA strip's value codes on the device (d) against the host layout S: used exactly when S's present
   slots hold fewer distinct bit patterns than the table has entries, the table those patterns (in the
   order the coding met them, so compared as sets), and every slot's code 0 where the mask has no entry, else its
   value's place. */
static int codes_match(const aijt_dev_strip *d, const aijt_layout *S, int s)
{
  const size_t n = (size_t)S->nslots, row_bytes = 8 * (size_t)aijt_dia_code_words(S->width), nc = (size_t)S->nrows * row_bytes;
  int          state[AIJT_CODES_STATE], ok = 1;
  double       table[AIJT_DIA_CODES];
  uint8_t     *code = (uint8_t *)malloc(nc + 1);
  uint64_t    *bits = (uint64_t *)malloc((n + 1) * sizeof(uint64_t));
  size_t       np = 0, nd = 0;

  if (S->format != AIJT_DIA || !d->code) {
    free(code), free(bits);
    return 1;
  }
  ok = aijt_cuda_ok(cudaMemcpy(state, d->codes_state, sizeof(state), cudaMemcpyDeviceToHost), "cudaMemcpy codes state");
  ok = ok && aijt_cuda_ok(cudaMemcpy(table, d->table, sizeof(table), cudaMemcpyDeviceToHost), "cudaMemcpy codes table");
  ok = ok && (!nc || aijt_cuda_ok(cudaMemcpy(code, d->code, nc, cudaMemcpyDeviceToHost), "cudaMemcpy codes"));
  for (size_t k = 0; k < n; k++)
    if (S->mask[k % (size_t)S->nrows] >> (k / (size_t)S->nrows) & 1u) memcpy(&bits[np++], &S->val[k], sizeof(uint64_t));
  qsort(bits, np, sizeof(uint64_t), cmp_u64);
  for (size_t k = 0; k < np; k++) bits[nd] = bits[k], nd += !nd || bits[nd - 1] != bits[k];
  if (ok && state[AIJT_CODES_USED] != (nd < AIJT_DIA_CODES)) ok = 0, printf("  DIA codes of strip %d: used %d with %zu distinct values\n", s, state[AIJT_CODES_USED], nd);
  if (ok && state[AIJT_CODES_USED]) {
    uint64_t entries[AIJT_DIA_CODES];
    memcpy(entries, &table[1], nd * sizeof(uint64_t));
    qsort(entries, nd, sizeof(uint64_t), cmp_u64);
    if (state[AIJT_CODES_COUNT] != (int)nd) ok = 0, printf("  DIA codes of strip %d: %d codes for %zu distinct values\n", s, state[AIJT_CODES_COUNT], nd);
    for (size_t j = 0; j < nd && ok; j++)
      if (entries[j] != bits[j]) ok = 0, printf("  DIA codes of strip %d: the table does not hold the %zu-th value\n", s, j + 1);
    for (size_t k = 0; k < nc && ok; k++) { /* row-major, row_bytes a row, zero past the width */
      const size_t i = k / row_bytes, dg = k % row_bytes, slot = dg * (size_t)S->nrows + i;
      const int    has = dg < (size_t)S->width && (S->mask[i] >> dg & 1u);
      if (has ? !code[k] || code[k] > nd || memcmp(&table[code[k]], &S->val[slot], sizeof(double)) : code[k] != 0) ok = 0, printf("  DIA codes of strip %d: row %zu diagonal %zu has code %d\n", s, i, dg, code[k]);
    }
  }
  if (ok) (state[AIJT_CODES_USED] ? coded_strips : uncoded_strips)++;
  free(code), free(bits);
  return ok;
}

static int codes_match_all(const aijt_dev_layouts *D, const aijt_layouts *L)
{
  int ok = 1;
  for (int s = 0; s < L->nstrips && ok; s++) ok = codes_match(&D->strips[s], &L->strips[s], s);
  return ok;
}

/* Returns 1 when every trial and mode agrees with the reference; describes the plan into info. */
/* Windows (aijt_dev_strip_window): every strip of D cut at a third and two thirds of its rows (SELL's cuts
   at slice boundaries) into w (room for 3 * nstrips); a strip that cannot be cut stays whole.  The counts
   say how many strips were cut and how many formats refused. */
static int windowed_strips = 0, whole_strips = 0;
static int windows_of(const aijt_dev_layouts *D, aijt_dev_strip *w)
{
  int n = 0;
  for (int s = 0; s < D->nstrips; s++) {
    const aijt_dev_strip *S    = &D->strips[s];
    const aijt_int        unit = S->format == AIJT_SELL ? S->chunk : 1;
    const aijt_int        cut[4] = {0, S->nrows / 3 / unit * unit, 2 * (S->nrows / 3) / unit * unit, S->nrows};
    const int             first  = n;
    int                   cuts   = 1;
    for (int k = 0; k < 3 && cuts; k++)
      if (cut[k + 1] > cut[k]) cuts = aijt_dev_strip_window(S, cut[k], cut[k + 1] - cut[k], &w[n++]);
    if (!cuts) {
      n      = first;
      w[n++] = *S;
    }
    (cuts ? windowed_strips : whole_strips)++;
  }
  return n;
}

static int run_case(matrix *A, const ruleset *rs, cudaStream_t stream, char *info, size_t info_len, double *max_err)
{
  aijt_csr      csr  = {A->nrows, A->ncols, A->rowptr, A->colidx, A->values, NULL, 0, A->bs};
  aijt_plan    *plan = NULL;
  aijt_layouts *L    = NULL, *K = NULL;
  aijt_dev_layouts   D, B;
  size_t        nx = (size_t)A->ncols + 1, ny = (size_t)A->nrows + 1;
  double       *x = (double *)malloc(nx * sizeof(double)), *z = (double *)malloc(ny * sizeof(double));
  double       *y = (double *)malloc(ny * sizeof(double)), *ref = (double *)malloc(ny * sizeof(double));
  double       *dx = NULL, *dz = NULL, *dy = NULL;
  int           ok = 1;
  aijt_err      err;

  memset(&D, 0, sizeof(D));
  memset(&B, 0, sizeof(B));
  *max_err = 0.0;
  snprintf(info, info_len, "-");
  for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) A->values[k] = rnd_dyadic(8);
  err = aijt_plan_rules(&csr, &rs->rules, &plan);
  if (err == AIJT_ERR_FORMAT && rs->rules.allowed == AIJT_FORMAT_BIT(AIJT_DIA)) { /* DIA alone: only few diagonals */
    aijt_int offsets[AIJT_DIA_MAX_DIAGS];
    ok = aijt_diagonals(&csr, AIJT_DIA_MAX_DIAGS, offsets) < 0;
    snprintf(info, info_len, "too many diagonals for dia");
    goto done;
  }
  if (err == AIJT_ERR_FORMAT && rs->rules.allowed == AIJT_FORMAT_BIT(AIJT_STREAM)) { /* STREAM alone: only rows it holds */
    aijt_features f;
    aijt_features_compute(&csr, &f);
    ok = f.max_len > AIJT_STREAM_MAX_LEN;
    snprintf(info, info_len, "rows too long for stream");
    goto done;
  }
  if (err == AIJT_ERR_FORMAT && rs->rules.allowed == AIJT_FORMAT_BIT(AIJT_BCSR)) { /* BCSR alone: only whole blocks */
    ok = !aijt_blocks_exact(&csr, A->bs);
    snprintf(info, info_len, "not whole blocks for bcsr");
    goto done;
  }
  if (err || (err = aijt_plan_check(plan, &csr)) || (err = aijt_layouts_build(plan, &csr, &L))) {
    printf("  planner error: %s\n", aijt_err_string(err));
    ok = 0;
    goto done;
  }
  {
    size_t used = plan_formats(plan, info, info_len);
    if (used < info_len) snprintf(info + used, info_len - used, "%stail:%lld", used ? " " : "", (long long)L->tail.nnz);
  }
  /* the GPU build of the same plan: the host's layouts exactly, before and after new values */
  {
    aijt_dev_params o = {rs->tpr, rs->bpr, rs->block, 1, 0};
    gpu_builds++;
    o.by_rows = gpu_builds % 2; /* every other build: every strip that can, without a map, refilled through its rows' first places */
    if ((err = aijt_layouts_skeleton(plan, &csr, &K))) {
      printf("  skeleton error: %s\n", aijt_err_string(err));
      ok = 0;
    }
    ok = ok && aijt_dev_build_on_device(plan, K, &csr, &o, rs->rules.block, &B) && same_as_host(&B, L) && codes_match_all(&B, L);
    for (int s = 0; s < B.nstrips; s++)
      if (B.strips[s].row_start) by_rows_strips[B.strips[s].format != AIJT_DIA]++;
  }
  ok = ok && aijt_cuda_ok(cudaMalloc((void **)&dx, nx * sizeof(double)), "cudaMalloc x");
  ok = ok && aijt_cuda_ok(cudaMalloc((void **)&dz, ny * sizeof(double)), "cudaMalloc z");
  ok = ok && aijt_cuda_ok(cudaMalloc((void **)&dy, ny * sizeof(double)), "cudaMalloc y");

  for (int trial = 0; trial < NTRIALS && ok; trial++) {
    /* a MatScale factor the values do not hold (aijt_cuda_spmv's scale): none where sums must be exact; -0.5 keeps
       the dyadic values of the inf trial exact, -1.5 rounds */
    const double scale = trial == TRIAL_EXACT ? 1.0 : trial == TRIAL_RANDOM ? -1.5 : -0.5;
    if (trial != TRIAL_EXACT) { /* new values, same pattern: refresh the layouts and upload again (random: too many for
                                   DIA's value codes, inf: few again) */
      for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) A->values[k] = trial == TRIAL_RANDOM ? rnd_uniform() : rnd_dyadic(8);
      aijt_layouts_refresh(L, A->values);
      if (K) ok = ok && aijt_dev_refresh(&B, A->values, A->rowptr[A->nrows]) && same_as_host_but(&B, L, 1) && codes_match_all(&B, L);
    }
    for (aijt_int j = 0; j < A->ncols; j++) x[j] = trial == TRIAL_EXACT ? rnd_dyadic(16) : trial == TRIAL_RANDOM ? rnd_uniform() : 1.0;
    if (trial == TRIAL_INF && A->ncols) x[0] = x[A->ncols / 2] = INFINITY; /* 0: where a clamped padding index would read */
    for (aijt_int i = 0; i < A->nrows; i++) z[i] = trial == TRIAL_EXACT ? (double)((int)(rnd() % 33) - 16) / 16.0 : rnd_uniform();
    {
      aijt_dev_params o = {rs->tpr, rs->bpr, rs->block, 1};
      ok                = aijt_dev_free(&D) && ok;
      ok                = ok && aijt_dev_upload(plan, L, &o, rs->rules.block, &D) && codes_match_all(&D, L);
    }
    if (scale != 1.0) { /* the reference's matrix: the uploaded values times scale, which the products apply */
      for (aijt_int k = 0; k < A->rowptr[A->nrows]; k++) A->values[k] *= scale;
      aijt_layouts_refresh(L, A->values);
    }
    ok = ok && aijt_cuda_ok(cudaMemcpy(dx, x, (size_t)A->ncols * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy x");
    ok = ok && aijt_cuda_ok(cudaMemcpy(dz, z, (size_t)A->nrows * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy z");
    ok = ok && aijt_cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize (x, z and layouts up)"); /* as in plan_gpu_case */
    ok = ok && aijt_cuda_ok(aijt_cuda_gather(D.nhot, D.hot, dx, D.xhot, stream), "aijt_cuda_gather (hot columns)");
    for (int mode = 0; mode < 3 && ok; mode++) {
      const size_t bytes = (size_t)A->nrows * sizeof(double);
      const double *zarg = mode == 0 ? NULL : mode == 1 ? dz : dy;
      /* stream-ordered: the legacy stream does not order a non-blocking stream */
      if (mode < 2) ok = ok && aijt_cuda_ok(cudaMemsetAsync(dy, 0xff, bytes, stream), "cudaMemsetAsync (NaN poison)");
      else ok = ok && aijt_cuda_ok(cudaMemcpyAsync(dy, dz, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync y = z");
      /* the fused launch of the strips (exact), of their windows (inf), or the windows one by one (random) */
      if (trial == TRIAL_EXACT) ok = ok && aijt_cuda_ok(aijt_cuda_spmv(D.strips, D.nstrips, &D.tail, scale, dx, zarg, dy, stream), "aijt_cuda_spmv");
      else {
        aijt_dev_strip *w  = (aijt_dev_strip *)malloc((3 * (size_t)D.nstrips + 1) * sizeof(aijt_dev_strip));
        const int       nw = windows_of(&D, w);
        if (trial == TRIAL_RANDOM) {
          for (int s = 0; s < nw && ok; s++) ok = aijt_cuda_ok(aijt_cuda_strip(&w[s], scale, dx, zarg, dy, stream), "aijt_cuda_strip (window)");
          ok = ok && aijt_cuda_ok(aijt_cuda_tail(&D.tail, scale, dx, dy, stream), "aijt_cuda_tail");
        } else ok = ok && aijt_cuda_ok(aijt_cuda_spmv(w, nw, &D.tail, scale, dx, zarg, dy, stream), "aijt_cuda_spmv (windows)");
        free(w);
      }
      ok = ok && aijt_cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel execution)");
      ok = ok && aijt_cuda_ok(cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy y");
      if (!ok) break;
      for (aijt_int i = 0; i < A->nrows; i++) ref[i] = NAN;
      aijt_ref_spmv(L, x, mode ? z : NULL, ref);
      aijt_int bad = -1;
      double   e   = compare(A, x, mode ? z : NULL, y, ref, trial, &bad);
      if (e < 0 || bad >= 0) {
        printf("  %s %s: row %lld (original) y = %.17g, reference %.17g, scaled error %g\n", trial_names[trial], mode_names[mode], (long long)bad, y[bad], ref[bad], e);
        ok = 0;
      }
      if (e > *max_err) *max_err = e;
    }
  }
done:
  ok = aijt_dev_free(&D) && ok;
  ok = aijt_dev_free(&B) && ok;
  aijt_layouts_destroy(&K);
  ok = aijt_cuda_ok(cudaFree(dx), "cudaFree x") && ok;
  ok = aijt_cuda_ok(cudaFree(dz), "cudaFree z") && ok;
  ok = aijt_cuda_ok(cudaFree(dy), "cudaFree y") && ok;

  aijt_layouts_destroy(&L);
  aijt_plan_destroy(&plan);
  free(x), free(z), free(y), free(ref);
  return ok;
}

/* ---------------------------------------------------------------- the planner's GPU source */

/* The model planner on the device (aijt_dev_plan_model) against the host (aijt_plan_model): the same
   plan, strip for strip (predictions included), the same order, column order and features. */
static int same_features(const aijt_features *a, const aijt_features *b)
{
  return a->nrows == b->nrows && a->nnz == b->nnz && a->min_len == b->min_len && a->max_len == b->max_len && a->empty_rows == b->empty_rows && a->mean_len == b->mean_len && a->std_len == b->std_len;
}

/* n device values equal to the host's h (NULL h: n must be 0) */
static int same_on_device(const aijt_int *d, const aijt_int *h, size_t n, const char *what, int s)
{
  aijt_int *back = (aijt_int *)malloc((n ? n : 1) * sizeof(aijt_int));
  int       ok   = back && aijt_cuda_ok(cudaMemcpy(back, d, n * sizeof(aijt_int), cudaMemcpyDeviceToHost), "cudaMemcpy back") && (!n || !memcmp(back, h, n * sizeof(aijt_int)));
  if (!ok) printf("  device skeleton: strip %d's %s differ from the host skeleton's\n", s, what);
  free(back);
  return ok;
}

/* The skeleton made on the device (skeleton.cu) from the order and column order the planner left there
   (aijt_dev_plan_model_keep) against the host's (aijt_layouts_skeleton of the host's plan): sizes, rows,
   offsets, hot columns, and the strips' fingerprint patterns. */
static int device_skeleton_case(const aijt_plan *host, const aijt_plan *kept, aijt_int *kept_order, const aijt_int *col_pos, const aijt_csr *csr, const aijt_dev_csr *D, cudaStream_t stream)
{
  aijt_layouts   *K = NULL, *S = NULL;
  aijt_dev_strip *d = (aijt_dev_strip *)calloc((size_t)kept->nstrips + 1, sizeof(aijt_dev_strip));
  uint64_t       *pat = (uint64_t *)calloc((size_t)kept->nstrips + 1, sizeof(uint64_t));
  aijt_int       *hot = NULL, *ident = NULL; /* rows for the strips in natural order that read rows, as the upload makes them */
  cudaError_t     cerr = cudaSuccess;
  int             ok = d && pat;

  ok = ok && !aijt_layouts_skeleton(host, csr, &K);
  ok = ok && !aijt_dev_skeleton(kept, csr, D->rowptr, kept_order, stream, &S, &cerr) && aijt_cuda_ok(cerr, "aijt_dev_skeleton");
  if (ok && !kept_order && csr->nrows) ok = aijt_cuda_ok(cudaMalloc((void **)&ident, (size_t)csr->nrows * sizeof(aijt_int)), "cudaMalloc identity") && aijt_cuda_ok(aijt_dev_iota(ident, 0, csr->nrows, stream), "aijt_dev_iota");
  if (ok && (S->nstrips != K->nstrips || S->tail.nnz != K->tail.nnz || S->nhot != K->nhot)) {
    printf("  device skeleton: %d strips, tail %lld, %lld hot; host %d, %lld, %lld\n", S->nstrips, (long long)S->tail.nnz, (long long)S->nhot, K->nstrips, (long long)K->tail.nnz, (long long)K->nhot);
    ok = 0;
  }
  for (int s = 0; ok && s < S->nstrips; s++) {
    const aijt_layout *a = &S->strips[s], *b = &K->strips[s];
    if (a->format != b->format || a->nrows != b->nrows || a->nslots != b->nslots || a->width != b->width || a->chunk != b->chunk || a->ncols != b->ncols || (a->format == AIJT_DIA && memcmp(a->ptr, b->ptr, (size_t)a->width * sizeof(aijt_int)))) {
      printf("  device skeleton: strip %d's sizes differ (%lld slots against %lld)\n", s, (long long)a->nslots, (long long)b->nslots);
      ok = 0;
    }
    aijt_dev_strip_init(&d[s], &kept->strips[s], a);
    d[s].rows = kept_order ? kept_order + kept->strips[s].begin : aijt_dev_strip_reads_rows(&d[s]) && ident ? ident + kept->strips[s].begin : NULL; /* as Upload */
    if (a->nrows && d[s].row0 != (a->format == AIJT_DIA ? b->rows[0] : kept->strips[s].begin)) {
      printf("  device skeleton: strip %d's first row %lld\n", s, (long long)d[s].row0);
      ok = 0;
    }
    if (a->format != AIJT_DIA && aijt_dev_strip_ptr_count(&d[s])) ok = ok && aijt_cuda_ok(cudaMalloc((void **)&d[s].ptr, aijt_dev_strip_ptr_count(&d[s]) * sizeof(aijt_int)), "cudaMalloc ptr");
  }
  ok = ok && aijt_cuda_ok(aijt_dev_skeleton_ptrs(kept, D->rowptr, D->colidx, d, stream), "aijt_dev_skeleton_ptrs") && aijt_cuda_ok(cudaStreamSynchronize(stream), "sync");
  ok = ok && aijt_cuda_ok(aijt_dev_strip_patterns(d, S->nstrips, D->rowptr, D->colidx, pat, stream), "aijt_dev_strip_patterns");
  for (int s = 0; ok && s < S->nstrips; s++) {
    const aijt_layout *b = &K->strips[s];
    if (d[s].rows) ok = same_on_device(d[s].rows, b->rows, (size_t)b->nrows, "rows", s);
    else { /* natural order, rows row0 on */
      for (aijt_int i = 0; ok && i < b->nrows; i++) ok = b->rows[i] == d[s].row0 + i;
      if (!ok) printf("  device skeleton: strip %d's rows are not the host skeleton's\n", s);
    }
    ok = ok && (b->format == AIJT_DIA || same_on_device(d[s].ptr, b->ptr, aijt_dev_strip_ptr_count(&d[s]), "offsets", s));
    if (ok && pat[s] != aijt_strip_pattern(b, csr)) {
      printf("  device skeleton: strip %d's pattern differs\n", s);
      ok = 0;
    }
  }
  if (ok && S->nhot) {
    ok = aijt_cuda_ok(cudaMalloc((void **)&hot, (size_t)S->nhot * sizeof(aijt_int)), "cudaMalloc hot") && aijt_cuda_ok(aijt_dev_hot_columns(col_pos, csr->ncols, S->nhot, hot, stream), "aijt_dev_hot_columns");
    ok = ok && aijt_cuda_ok(cudaStreamSynchronize(stream), "sync"); /* the copy back runs on another stream */
    ok = ok && same_on_device(hot, K->hot, (size_t)K->nhot, "hot columns", -1);
  }
  for (int s = 0; d && s < kept->nstrips; s++) ok = aijt_cuda_ok(cudaFree((void *)d[s].ptr), "cudaFree") && ok;
  ok = aijt_cuda_ok(cudaFree(hot), "cudaFree") && ok;
  ok = aijt_cuda_ok(cudaFree(ident), "cudaFree") && ok;
  aijt_layouts_destroy(&K);
  aijt_layouts_destroy(&S);
  free(d);
  free(pat);
  return ok;
}

/* The plan that leaves its order on the device: the host's once fetched, and its skeleton there (for a
   plan in natural order, rows numbered from each strip's first, as seqaijtuned makes them).  A plan of
   the host's rules (the model cannot plan the matrix) has its order on the host. */
static int plan_kept_case(const aijt_plan *host, const aijt_csr *csr, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream)
{
  aijt_plan  *kept = NULL;
  aijt_int   *order = NULL, *col_pos = NULL;
  cudaError_t cerr;
  aijt_err    err = aijt_dev_plan_model_keep(csr, D, R, m, stream, &kept, &order, &col_pos, &cerr);
  int         ok  = aijt_cuda_ok(cerr, "aijt_dev_plan_model_keep") && !err;

  if (ok && ((kept->order && order) || (kept->col_pos && col_pos) || (!kept->order && !order != !kept->sorted) || (!kept->col_pos && !col_pos != !kept->col_hot))) {
    printf("  kept plan: order and column order not where they should be\n");
    ok = 0;
  }
  if (ok && aijt_dev_skeleton_takes(kept)) ok = device_skeleton_case(host, kept, order, col_pos, csr, D, stream);
  ok = ok && !aijt_dev_plan_fetch(kept, order, col_pos, stream, &cerr) && aijt_cuda_ok(cerr, "aijt_dev_plan_fetch");
  if (ok && !aijt_plan_equal(host, kept)) {
    printf("  kept plan, fetched, differs from the host's\n");
    ok = 0;
  }
  ok = aijt_cuda_ok(cudaFree(order), "cudaFree") && ok;
  ok = aijt_cuda_ok(cudaFree(col_pos), "cudaFree") && ok;
  aijt_plan_destroy(&kept);
  return ok;
}

/* The same plan made in a thread of its own (plan_job.cu), its order and column order fetched: the host's.  The
   thread's first pass waits for an event recorded on stream, as after a COO assembly's launch (it then owns it). */
static int plan_job_case(const aijt_plan *host, const aijt_csr *csr, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream)
{
  aijt_dev_plan_job *job = NULL;
  aijt_plan         *p   = NULL;
  aijt_int          *order = NULL, *col_pos = NULL;
  cudaEvent_t        after = NULL;
  cudaError_t        cerr;
  int                ok = aijt_cuda_ok(cudaEventCreateWithFlags(&after, cudaEventDisableTiming), "cudaEventCreate") && aijt_cuda_ok(cudaEventRecord(after, stream), "cudaEventRecord");

  ok = ok && aijt_cuda_ok(aijt_dev_plan_job_begin(csr, D, R, m, after, &job), "aijt_dev_plan_job_begin");
  if (!job && after) (void)cudaEventDestroy(after);
  if (ok && !job) {
    printf("  no thread for the planner\n");
    return 0;
  }
  if (!ok) return 0;
  const aijt_err err = aijt_dev_plan_job_end(job, &p, &order, &col_pos, &cerr);
  ok                 = aijt_cuda_ok(cerr, "aijt_dev_plan_job_end") && !err;
  ok                 = ok && !aijt_dev_plan_fetch(p, order, col_pos, stream, &cerr) && aijt_cuda_ok(cerr, "aijt_dev_plan_fetch");
  if (ok && !aijt_plan_equal(host, p)) {
    printf("  plan made in the planner's thread differs from the host's\n");
    ok = 0;
  }
  ok = aijt_cuda_ok(cudaFree(order), "cudaFree") && ok;
  ok = aijt_cuda_ok(cudaFree(col_pos), "cudaFree") && ok;
  aijt_plan_destroy(&p);
  return ok;
}

static int plan_gpu_case(const matrix *A, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, char *info, size_t info_len)
{
  aijt_csr     csr = {A->nrows, A->ncols, A->rowptr, A->colidx, NULL, NULL, 0, A->bs};
  aijt_plan   *host = NULL, *dev = NULL;
  aijt_int    *rowptr = NULL, *colidx = NULL;
  const size_t nnz = (size_t)A->rowptr[A->nrows];
  cudaError_t  cerr = cudaSuccess;
  aijt_err     he, de = AIJT_ERR_ARG;
  int          ok;

  snprintf(info, info_len, "-");
  he = aijt_plan_model(&csr, R, m, &host);
  ok = aijt_cuda_ok(cudaMalloc((void **)&rowptr, ((size_t)A->nrows + 1) * sizeof(aijt_int)), "cudaMalloc rowptr") && aijt_cuda_ok(cudaMalloc((void **)&colidx, (nnz + 1) * sizeof(aijt_int)), "cudaMalloc colidx");
  ok = ok && aijt_cuda_ok(cudaMemcpy(rowptr, A->rowptr, ((size_t)A->nrows + 1) * sizeof(aijt_int), cudaMemcpyHostToDevice), "cudaMemcpy rowptr");
  ok = ok && aijt_cuda_ok(cudaMemcpy(colidx, A->colidx, nnz * sizeof(aijt_int), cudaMemcpyHostToDevice), "cudaMemcpy colidx");
  /* cudaMemcpy from pageable memory may return before its copy lands, and the planner's non-blocking
     stream does not wait for the legacy stream: a diagonal test once read columns not yet there */
  ok = ok && aijt_cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize (structure up)");
  if (ok) {
    aijt_dev_csr D = {A->nrows, A->ncols, (aijt_int)nnz, rowptr, colidx, NULL};
    de             = aijt_dev_plan_model(&csr, &D, R, m, stream, &dev, &cerr);
    ok             = aijt_cuda_ok(cerr, "aijt_dev_plan_model");
  }
  if (ok && (he != de || (he == AIJT_OK && (!aijt_plan_equal(host, dev) || host->sorted != dev->sorted || !same_features(&host->features, &dev->features))))) {
    printf("  host plan (%s) and device plan (%s) differ\n", aijt_err_string(he), aijt_err_string(de));
    if (host) aijt_plan_print(host, stdout);
    if (dev) aijt_plan_print(dev, stdout);
    ok = 0;
  }
  if (ok && he == AIJT_OK) {
    aijt_dev_csr D = {A->nrows, A->ncols, (aijt_int)nnz, rowptr, colidx, NULL};
    ok             = plan_kept_case(host, &csr, &D, R, m, stream) && plan_job_case(host, &csr, &D, R, m, stream);
  }
  if (ok && host) {
    size_t used = plan_formats(host, info, info_len);
    if (used < info_len) snprintf(info + used, info_len - used, "%s%s", host->col_pos ? " cols" : "", host->sorted ? " sorted" : "");
  }
  ok = aijt_cuda_ok(cudaFree(rowptr), "cudaFree rowptr") && ok;
  ok = aijt_cuda_ok(cudaFree(colidx), "cudaFree colidx") && ok;
  aijt_plan_destroy(&host);
  aijt_plan_destroy(&dev);
  return ok;
}

/* Every matrix under the model planner's rule sets, with each shipped model. */
static void plan_gpu_tests(matrix *mats, int nmats, cudaStream_t stream, int *passed, int *failed)
{
  static const char *const models[] = {"NVIDIA-H100-80GB-HBM3.model", "NVIDIA-H200.model"};
  for (int q = 0; q < 2; q++) {
    char       path[1024], why[256];
    aijt_model model;
    snprintf(path, sizeof(path), "%s/%s", AIJT_MODEL_DIR, models[q]);
    if (aijt_model_load(path, &model, why, sizeof(why))) {
      printf("FAIL plan on the GPU: model %s: %s\n", path, why);
      (*failed)++;
      continue;
    }
    for (int v = 0; v < 9; v++) {
      aijt_rules  R;
      const char *what[] = {"default", "cols=degree", "cols=natural", "cols=degree hot=all", "no dia, no panel", "csr sell", "empty free", "stream", "panel"};
      aijt_rules_default(&R);
      if (v == 1 || v == 3) R.col_order = AIJT_COLS_DEGREE;
      if (v == 2) R.col_order = AIJT_COLS_NATURAL;
      if (v == 3) R.col_hot_degree = 0;
      if (v == 4) R.allowed &= ~(AIJT_FORMAT_BIT(AIJT_DIA) | AIJT_FORMAT_BIT(AIJT_PANEL));
      if (v == 5) R.allowed = AIJT_FORMAT_BIT(AIJT_CSR) | AIJT_FORMAT_BIT(AIJT_SELL);
      if (v == 6) R.empty_free = 1;
      if (v == 7) R.allowed = AIJT_FORMAT_BIT(AIJT_STREAM); /* the device skeleton's block starts */
      if (v == 8) R.allowed = AIJT_FORMAT_BIT(AIJT_PANEL);  /* the device skeleton's offsets per panel */
      for (int k = 0; k < nmats; k++) {
        char info[160];
        int  ok = plan_gpu_case(&mats[k], &R, &model, stream, info, sizeof(info));
        printf("%s plan on the GPU %-17s %-28s | %-22s | %s\n", ok ? "PASS" : "FAIL", mats[k].name, models[q], what[v], info);
        if (ok) (*passed)++;
        else (*failed)++;
      }
    }
  }
}

/* ---------------------------------------------------------------- the planner's counting sort */

struct device_values { /* count_sort's values: a device array */
  const aijt_int *v;
  __device__ aijt_int operator()(int64_t i) const { return v[i]; }
};

/* aijt::count_sort of n values v (host) against the host's stable counting sort by decreasing value;
   fits: whether count_sort_fits must take them. */
static int count_sort_case(const char *what, const aijt_int *v, int64_t n, int fits)
{
  aijt_int max = 0;
  for (int64_t i = 0; i < n; i++) max = v[i] > max ? v[i] : max;
  aijt_int           *count = (aijt_int *)calloc((size_t)max + 1, sizeof(aijt_int)), *want = (aijt_int *)malloc((size_t)(n ? n : 1) * sizeof(aijt_int));
  aijt_int           *got = (aijt_int *)malloc((size_t)(n ? n : 1) * sizeof(aijt_int)), *dv = NULL, *dsorted = NULL, *dcounts = NULL;
  aijt::count_classes k;
  int                 ok = count && want && got;

  for (int64_t i = 0; ok && i < n; i++) count[v[i]]++;
  if (ok) { /* the reference: longest first, equal values in their order */
    aijt_int *start = (aijt_int *)malloc(((size_t)max + 2) * sizeof(aijt_int));
    ok              = start != NULL;
    for (aijt_int at = 0, x = max; ok && x >= 0; x--) start[x] = at, at += count[x];
    for (int64_t i = 0; ok && i < n; i++) want[start[v[i]]++] = (aijt_int)i;
    free(start);
  }
  const int took = ok && aijt::count_sort_fits(count, max, n, &k);
  if (ok && took != fits) {
    printf("  count sort %s: count_sort_fits says %d, expected %d\n", what, took, fits);
    ok = 0;
  }
  if (ok && took) {
    ok = aijt_cuda_ok(cudaMalloc((void **)&dv, (size_t)n * sizeof(aijt_int)), "cudaMalloc values") && aijt_cuda_ok(cudaMalloc((void **)&dsorted, (size_t)n * sizeof(aijt_int)), "cudaMalloc sorted") &&
         aijt_cuda_ok(cudaMalloc((void **)&dcounts, aijt::count_sort_scratch(k) * sizeof(aijt_int)), "cudaMalloc counts");
    ok = ok && aijt_cuda_ok(cudaMemcpy(dv, v, (size_t)n * sizeof(aijt_int), cudaMemcpyHostToDevice), "cudaMemcpy values");
    ok = ok && aijt_cuda_ok(aijt::count_sort(device_values{dv}, n, k, dcounts, dsorted, 0), "count_sort") && aijt_cuda_ok(cudaMemcpy(got, dsorted, (size_t)n * sizeof(aijt_int), cudaMemcpyDeviceToHost), "cudaMemcpy sorted");
    for (int64_t i = 0; ok && i < n; i++)
      if (got[i] != want[i]) {
        printf("  count sort %s (%d tiles of %lld, %d long values, top %d): place %lld holds %lld, expected %lld\n", what, k.ntiles, (long long)k.tile, k.nlong, k.top, (long long)i, (long long)got[i], (long long)want[i]);
        ok = 0;
      }
  }
  cudaFree(dv), cudaFree(dsorted), cudaFree(dcounts);
  free(count), free(want), free(got);
  return ok;
}

/* Sizes at and past a tile and past the tiles' cap, one class and the most, long values up to the table's
   size and one past it, and no short value at all. */
static void count_sort_checks(int *passed, int *failed)
{
  const int64_t most = aijt::COUNT_SORT_MAX_TILES * aijt::COUNT_SORT_TILE_MAX, big = 8000000;
  aijt_int     *v    = (aijt_int *)malloc((size_t)(most + 1) * sizeof(aijt_int));
  struct {
    const char *what;
    int64_t     n;
    int         kind, fits;
  } cases[] = {{"one value", 1, 0, 1},          {"random 0-11 past a tile", 2049, 1, 1}, {"one tile less one", 2047, 1, 1}, {"short and 40 long", 100000, 2, 1},
               {"all equal, capped tiles", 300001, 3, 1}, {"64 long, no short", 500000, 4, 1}, {"65 long", 5000, 5, 0}, {"0-1023, 8M", big, 6, 1},
               {"past the tiles' cap", most + 1, 1, 0}};

  if (!v) {
    (*failed)++;
    printf("FAIL count sort: no memory\n");
    return;
  }
  for (size_t q = 0; q < sizeof(cases) / sizeof(cases[0]); q++) {
    const int64_t n = cases[q].n;
    for (int64_t i = 0; i < n; i++) {
      switch (cases[q].kind) {
      case 0: v[i] = 0; break;
      case 1: v[i] = (aijt_int)(rnd() % 12); break;
      case 2: v[i] = (aijt_int)(rnd() % 301); break;
      case 3: v[i] = 7; break;
      case 4: v[i] = (aijt_int)(1024 + 1000 * (rnd() % 64)); break;
      case 5: v[i] = (aijt_int)(i < 65 ? 2000 + i : rnd() % 9); break;
      default: v[i] = (aijt_int)(rnd() % 1024); break;
      }
    }
    if (cases[q].kind == 2)
      for (int j = 0; j < 40; j++) v[rnd() % n] = (aijt_int)(1024 + rnd() % 100000);
    const int ok = count_sort_case(cases[q].what, v, n, cases[q].fits);
    printf("%s count sort: %s (%lld values)\n", ok ? "PASS" : "FAIL", cases[q].what, (long long)n);
    if (ok) (*passed)++;
    else (*failed)++;
  }
  free(v);
}

/* aijt_dev_copy_in: sizes below, at and past its piece path's, across pieces; the source overwritten as soon as it
   returns, the device's copy read back after the stream. */
static int upload_checks(cudaStream_t stream)
{
  const size_t sizes[] = {0, 100, ((size_t)1 << 20) - 1, (size_t)1 << 20, ((size_t)4 << 20) + 3, ((size_t)19 << 19) + 5};
  const size_t most    = ((size_t)19 << 19) + 5;
  unsigned char *src = (unsigned char *)malloc(most), *keep = (unsigned char *)malloc(most), *back = (unsigned char *)malloc(most), *dev = NULL;
  int            ok = src && keep && back && aijt_cuda_ok(cudaMalloc((void **)&dev, most), "cudaMalloc");

  for (int q = 0; ok && q < (int)(sizeof(sizes) / sizeof(sizes[0])); q++) {
    const size_t n = sizes[q];
    for (size_t i = 0; i < n; i++) src[i] = keep[i] = (unsigned char)rnd();
    ok = aijt_cuda_ok(aijt_dev_copy_in(dev, src, n, stream), "aijt_dev_copy_in");
    memset(src, 0xA5, n); /* the caller's next assembly */
    ok = ok && aijt_cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize") && aijt_cuda_ok(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (ok && memcmp(back, keep, n)) {
      printf("  aijt_dev_copy_in of %zu bytes: the device holds other bytes\n", n);
      ok = 0;
    }
  }
  if (dev) ok = aijt_cuda_ok(cudaFree(dev), "cudaFree") && ok;
  free(src);
  free(keep);
  free(back);
  aijt_dev_copy_in_free();
  return ok;
}

/* ---------------------------------------------------------------- API checks */

static int api_checks(cudaStream_t stream)
{
  aijt_dev_strip s;
  aijt_dev_coo   t;
  int            ok = 1;
  memset(&s, 0, sizeof(s));
  memset(&t, 0, sizeof(t));
  s.format = AIJT_CSR, s.nrows = 4, s.tpr = 3;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue; /* tpr not a power of two */
  s.tpr = 64;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_SELL, s.chunk = 0;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_LONG, s.blocks_per_row = 0;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.blocks_per_row = 2; /* a split LONG strip without its workspace */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_DIA, s.width = AIJT_DIA_MAX_DIAGS + 1;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_PANEL, s.width = AIJT_PANEL_WIDTH, s.chunk = 1, s.tpr = 4, s.ncols = 100; /* no workspace */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.partial = (double *)&t, s.width = AIJT_PANEL_WIDTH + 1; /* panels wider than shared memory holds */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.width = AIJT_PANEL_WIDTH, s.chunk = 0;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.partial = NULL;
  s.format = AIJT_NFORMATS;
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  ok &= aijt_cuda_spmv(NULL, 1, NULL, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_CSR, s.tpr = 1, s.nrows = 0; /* nothing to do */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaSuccess;
  s.nhot = 4; /* hot labels without their copy of x */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.xhot = (const double *)&t, s.format = AIJT_DIA, s.width = 1; /* DIA finds columns from rows: no labels */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  s.format = AIJT_CSR; /* the same, where labels belong */
  ok &= aijt_cuda_strip(&s, 1.0, NULL, NULL, NULL, stream) == cudaSuccess;
  ok &= aijt_cuda_tail(&t, 1.0, NULL, NULL, stream) == cudaSuccess;
  t.nnz = 1, t.nhot = 4;
  ok &= aijt_cuda_tail(&t, 1.0, NULL, NULL, stream) == cudaErrorInvalidValue;
  t.nnz = -1, t.nhot = 0;
  ok &= aijt_cuda_tail(&t, 1.0, NULL, NULL, stream) == cudaErrorInvalidValue;
  ok &= aijt_cuda_strip(NULL, 1.0, NULL, NULL, NULL, stream) == cudaErrorInvalidValue;
  ok &= cudaGetLastError() == cudaSuccess; /* refusals leave no error behind */
  return ok;
}

/* ---------------------------------------------------------------- the diagonal (csr_diagonal.cu) */

/* MatGetDiagonal and MatShift of A's CSR on the device (cuSPARSE's 32-bit arrays, as PETSc keeps them) against the
   host: each row's diagonal value, 0.0 where the row has none (rows past the last column too), then every value
   after a shift of the rows that hold one; bit for bit. */
static int diagonal_case(const matrix *A, cudaStream_t stream)
{
  const aijt_int m = A->nrows, nnz = A->rowptr[m], n = m < A->ncols ? m : A->ncols;
  const double   a = 0.375;
  int     *ri = (int *)malloc(((size_t)m + 1) * sizeof(int)), *ci = (int *)malloc(((size_t)nnz + 1) * sizeof(int));
  double  *v = (double *)malloc(((size_t)nnz + 1) * sizeof(double)), *d = (double *)malloc(((size_t)m + 1) * sizeof(double));
  int     *dri = NULL, *dci = NULL;
  double  *dv = NULL, *dd = NULL;
  int      ok;

  for (aijt_int i = 0; i <= m; i++) ri[i] = (int)A->rowptr[i];
  for (aijt_int k = 0; k < nnz; k++) ci[k] = (int)A->colidx[k], v[k] = rnd_uniform();
  ok = aijt_cuda_ok(cudaMalloc((void **)&dri, ((size_t)m + 1) * sizeof(int)), "cudaMalloc") && aijt_cuda_ok(cudaMalloc((void **)&dci, ((size_t)nnz + 1) * sizeof(int)), "cudaMalloc") &&
       aijt_cuda_ok(cudaMalloc((void **)&dv, ((size_t)nnz + 1) * sizeof(double)), "cudaMalloc") && aijt_cuda_ok(cudaMalloc((void **)&dd, ((size_t)m + 1) * sizeof(double)), "cudaMalloc");
  /* on the kernels' stream: it does not wait for the legacy stream, and a pageable cudaMemcpy returns before its
     copy lands */
  ok = ok && aijt_cuda_ok(cudaMemcpyAsync(dri, ri, ((size_t)m + 1) * sizeof(int), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync") &&
       aijt_cuda_ok(cudaMemcpyAsync(dci, ci, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync") &&
       aijt_cuda_ok(cudaMemcpyAsync(dv, v, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  ok = ok && aijt_cuda_ok(aijt_dev_csr_diagonal(dri, dci, dv, m, A->ncols, dd, stream), "aijt_dev_csr_diagonal") && aijt_cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  ok = ok && aijt_cuda_ok(cudaMemcpy(d, dd, (size_t)m * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (aijt_int i = 0; ok && i < m; i++) {
    double ref = 0.0;
    for (int k = ri[i]; k < ri[i + 1]; k++)
      if (ci[k] == (int)i) ref = v[k];
    if (memcmp(&ref, &d[i], sizeof(double))) ok = 0, printf("  diagonal: row %lld %g, the host's %g\n", (long long)i, d[i], ref);
  }
  ok = ok && aijt_cuda_ok(aijt_dev_csr_shift(dri, dci, dv, n, a, stream), "aijt_dev_csr_shift") && aijt_cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (aijt_int i = 0; i < n; i++)
    for (int k = ri[i]; k < ri[i + 1]; k++)
      if (ci[k] == (int)i) v[k] += a;
  ok = ok && same_array(dv, v, (size_t)nnz, sizeof(double), "values after MatShift", 0);
  cudaFree(dri), cudaFree(dci), cudaFree(dv), cudaFree(dd);
  free(ri), free(ci), free(v), free(d);
  return ok;
}

/* ---------------------------------------------------------------- another pattern */

/* The GPU build of the rules' plan for A, given the same arrays but another pattern, must refuse it
   (cudaErrorInvalidValue; PETSc's glue reports PETSC_ERR_PLIB), not fill the slots wrongly.  f == AIJT_LONG: the
   last row an entry shorter (it must be in a LONG strip; the row after it would take the entry otherwise); f ==
   AIJT_DIA: the first row's first entry moved to a column off the plan's diagonals. */
static int on_diagonal(const aijt_layout *S, aijt_int offset)
{
  for (aijt_int d = 0; d < S->width; d++)
    if (S->ptr[d] == offset) return 1;
  return 0;
}

static int another_pattern_case(const matrix *A, aijt_format f)
{
  aijt_csr         csr = {A->nrows, A->ncols, A->rowptr, A->colidx, A->values, NULL, 0, A->bs}, other = csr;
  aijt_rules       R;
  aijt_plan       *plan = NULL;
  aijt_layouts    *K    = NULL;
  aijt_dev_layouts B;
  const aijt_int   nnz    = A->rowptr[A->nrows];
  aijt_int        *rowptr = (aijt_int *)malloc(((size_t)A->nrows + 1) * sizeof(aijt_int)), *colidx = (aijt_int *)malloc(((size_t)nnz + 1) * sizeof(aijt_int));
  int              ok = 0, s, at = -1;

  memset(&B, 0, sizeof(B));
  aijt_rules_default(&R);
  if (!rowptr || !colidx || A->nrows < 1 || aijt_plan_rules(&csr, &R, &plan) || aijt_layouts_skeleton(plan, &csr, &K)) goto done;
  memcpy(rowptr, A->rowptr, ((size_t)A->nrows + 1) * sizeof(aijt_int));
  memcpy(colidx, A->colidx, (size_t)nnz * sizeof(aijt_int));
  for (s = 0; s < plan->nstrips && at < 0; s++) {
    const aijt_strip *P = &plan->strips[s];
    if (P->format != f) continue;
    for (aijt_int k = P->begin; k < P->end && at < 0; k++) {
      const aijt_int r = plan->order ? plan->order[k] : k;
      if (f == AIJT_LONG && r == A->nrows - 1) at = s;
      if (f == AIJT_DIA && r == 0 && rowptr[1] > 0) at = s;
    }
  }
  if (at < 0) {
    printf("  no %s strip holds the row to change\n", f == AIJT_LONG ? "LONG" : "DIA");
    goto done;
  }
  if (f == AIJT_LONG) rowptr[A->nrows]--;
  else {
    const aijt_layout *S = &K->strips[at];
    aijt_int           c = 0; /* the first column whose offset from row 0 is no diagonal's */
    while (c < A->ncols && on_diagonal(S, c)) c++;
    if (c >= A->ncols) goto done;
    colidx[0] = c;
  }
  other.rowptr = rowptr;
  other.colidx = colidx;
  printf("  (the build's error below is the one expected)\n");
  ok = !aijt_dev_build_on_device(plan, K, &other, NULL, R.block, &B);
done:
  ok = aijt_dev_free(&B) && ok;
  (void)cudaGetLastError();
  aijt_layouts_destroy(&K);
  aijt_plan_destroy(&plan);
  free(rowptr), free(colidx);
  return ok;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
  int          ndev = 0, passed = 0, failed = 0;
  cudaStream_t stream;
  static aijt_int len[60000];
  matrix       mats[32];
  int          nmats = 0;

  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("no CUDA device: skipped\n");
    return 0;
  }
  if (!aijt_cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags")) {
    printf("0 passed, 1 failed\n");
    return 1;
  }
  {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) printf("device: %s (sm_%d%d), aijt_int %d bits\n", prop.name, prop.major, prop.minor, (int)(8 * sizeof(aijt_int)));
  }
  if (api_checks(stream)) passed++, printf("PASS api: parameter checks\n");
  else failed++, printf("FAIL api: parameter checks\n");
  if (upload_checks(stream)) passed++, printf("PASS upload: pageable memory through page-locked pieces\n");
  else failed++, printf("FAIL upload: pageable memory through page-locked pieces\n");

  for (aijt_int i = 0; i < 3000; i++) len[i] = (aijt_int)(rnd() % 12);
  mats[nmats++] = make("random_0_11", 3000, 3000, len);
  for (aijt_int i = 0; i < 2000; i++) len[i] = i % 7 ? 5 : 0;
  mats[nmats++] = make("empty_rows", 2000, 1500, len);
  for (aijt_int i = 0; i < 3000; i++) len[i] = 2 + (aijt_int)(rnd() % 6);
  len[1500] = 50000, len[7] = 5000, len[2999] = 1100;
  mats[nmats++] = make("long_row_50k", 3000, 60000, len);
  for (aijt_int i = 0; i < 4096; i++) len[i] = 7;
  mats[nmats++] = make("all_rows_equal", 4096, 4096, len);
  for (aijt_int i = 0; i < 300; i++) len[i] = 1 + (aijt_int)(rnd() % 40);
  mats[nmats++] = make("rectangular_wide", 300, 5000, len);
  for (aijt_int i = 0; i < 5000; i++) len[i] = (aijt_int)(rnd() % 3);
  mats[nmats++] = make("rectangular_tall", 5000, 40, len);
  for (aijt_int i = 0; i < 2000; i++) len[i] = 50 + (aijt_int)(rnd() % 1500);
  mats[nmats++] = make("medium_rows", 2000, 8000, len);
  for (aijt_int i = 0; i < 500; i++) len[i] = 0;
  mats[nmats++] = make("all_empty", 500, 500, len);
  len[0]        = 1;
  mats[nmats++] = make("one_by_one", 1, 1, len);
  len[0]        = 0;
  mats[nmats++] = make("one_by_one_empty", 1, 1, len);
  mats[nmats++] = make("zero_rows", 0, 10, len);
  for (aijt_int i = 0; i < 20000; i++) { /* power law: P(len > k) ~ k^-1.2 */
    double u = (double)(rnd() % 1000000 + 1) / 1000001.0, l = pow(u, -1.0 / 1.2);
    len[i]   = (aijt_int)(l > 6000 ? 6000 : l);
  }
  mats[nmats++] = make("power_law", 20000, 20000, len);
  { /* rows at each edge of the GPU build's row sorts by column label (row_sort.cuh: CUB's up to 112, a warp up to
       256, block tiles up to 512, 1024, 2048 and 4096, CUB's again beyond), among short ones */
    static const aijt_int edge[] = {112, 113, 256, 257, 512, 513, 1024, 1025, 2048, 2049, 4096, 4097};
    for (aijt_int i = 0; i < 600; i++) len[i] = i % 5 ? 1 + (aijt_int)(rnd() % 9) : edge[(i / 5) % 12];
    mats[nmats++] = make("row_sort_edges", 600, 9000, len);
  }
  mats[nmats++] = make_stencil("stencil_2d", 61, 47, 1, 0);
  mats[nmats++] = make_stencil("stencil_3d_holes", 23, 19, 17, 1);
  /* runs of 5 long (12 >= long_row 8) and 5 short rows: unsorted small plans cut 80 strips, several launches */
  for (aijt_int i = 0; i < 400; i++) len[i] = (i / 5) % 2 ? 3 : 12;
  mats[nmats++] = make("many_strips", 400, 2000, len);
  /* LP-like: wide rows over 5 column panels, 20 entries per row and panel: the default plans are one
     PANEL strip of 5 row groups, the last one short */
  for (aijt_int i = 0; i < 3000; i++) len[i] = 90 + (aijt_int)(rnd() % 21);
  mats[nmats++] = make("lp_like_5_panels", 3000, 30000, len);

  /* whole blocks (BCSR): 3 x 3 with 9 blocks a block row, 2 x 2, 8 x 8, 5 x 5 rows over 20 thousand, and one
     entry short of whole 3 x 3 blocks (never BCSR) */
  mats[nmats++] = make_blocks("blocks_3", 700, 3, 9, -1);
  mats[nmats++] = make_blocks("blocks_2", 1500, 2, 4, -1);
  mats[nmats++] = make_blocks("blocks_8", 90, 8, 27, -1);
  mats[nmats++] = make_blocks("blocks_5_20k", 4100, 5, 7, -1);
  mats[nmats++] = make_blocks("blocks_3_partial", 700, 3, 9, 4321);

  const char *only = argc > 1 ? argv[1] : NULL;
  if (!only) count_sort_checks(&passed, &failed);
  if (!only) plan_gpu_tests(mats, nmats, stream, &passed, &failed);
  if (!only) { /* the shipped models may lack BCSR's kernels: the synthetic model, whose BCSR is cheap, plans the block
                  matrices on the device too (the block test's pass) */
    aijt_model synthetic;
    aijt_rules R;
    test_model(&synthetic);
    aijt_rules_default(&R);
    for (int k = 0; k < nmats; k++) {
      char info[160];
      if (!mats[k].bs) continue;
      int ok = plan_gpu_case(&mats[k], &R, &synthetic, stream, info, sizeof(info));
      printf("%s plan on the GPU %-17s %-28s | %-22s | %s\n", ok ? "PASS" : "FAIL", mats[k].name, "synthetic", "default", info);
      if (ok) passed++;
      else failed++;
    }
  }
  if (!only) { /* larger ones for the planner alone: a power law over 300k columns (the auto column order), a 3-D
       stencil (DIA), uniform random rows, and a dense 8200 x 1024 block, whose 8200 rows of 1024 entries
       are more long values than the statistics list (plan_gpu.cu's LONG_LISTED: the second pass) */
    matrix big[4];
    static aijt_int blen[300000];
    big[0].name = "power_law_cols";
    big[0].nrows = big[0].ncols = 300000;
    big[0].rowptr = (aijt_int *)malloc(300001 * sizeof(aijt_int));
    big[0].colidx = (aijt_int *)malloc(300000 * 12 * sizeof(aijt_int));
    big[0].values = NULL;
    big[0].bs = 0;
    big[0].rowptr[0] = 0;
    for (aijt_int i = 0; i < 300000; i++) { /* 1 to 12 columns, each at u^8 of the way: the first sixteenth holds ~70% */
      aijt_int l = 1 + (aijt_int)(rnd() % 12), k = big[0].rowptr[i], *c = big[0].colidx + k, n = 0;
      for (aijt_int j = 0; j < l; j++) {
        double   u = (double)(rnd() % 1000000) / 1e6, u2 = u * u, u4 = u2 * u2;
        aijt_int x = (aijt_int)(300000.0 * u4 * u4), p = n;
        while (p > 0 && c[p - 1] > x) p--; /* sorted, without repeats */
        if (p > 0 && c[p - 1] == x) continue;
        memmove(c + p + 1, c + p, (size_t)(n - p) * sizeof(aijt_int));
        c[p] = x, n++;
      }
      big[0].rowptr[i + 1] = k + n;
    }
    big[1] = make_stencil("stencil_3d_64", 64, 64, 64, 0);
    for (aijt_int i = 0; i < 300000; i++) blen[i] = 20 + (aijt_int)(rnd() % 27);
    big[2] = make("random_300k", 300000, 300000, blen);
    for (aijt_int i = 0; i < 8200; i++) blen[i] = 1024;
    big[3] = make("dense_8200x1024", 8200, 1024, blen);
    plan_gpu_tests(big, 4, stream, &passed, &failed);
    for (int b = 0; b < 4; b++) matrix_free(&big[b]);
  }

  { /* products only, with the register-capped kernel (spmv.cu's dense_launch): many short rows, a launch
       of more threads than AIJT_DENSE_THREADS, and fewer rows of 30 entries each; few columns, as make()
       walks them for every row */
    static aijt_int slen[600000];
    for (aijt_int i = 0; i < 600000; i++) slen[i] = 1 + (aijt_int)(rnd() % 8);
    mats[nmats++] = make("short_rows_600k", 600000, 256, slen);
    for (aijt_int i = 0; i < 140000; i++) slen[i] = 30;
    mats[nmats++] = make("rows_of_30_140k", 140000, 256, slen);
  }
  make_rulesets();
  for (int m = 0; m < nmats; m++) {
    for (int r = 0; r < nrulesets; r++) {
      char   info[160];
      double max_err;
      /* the two large matrices take the default rule sets only: the small ones cut them into 100k strips */
      if (mats[m].nrows > 100000 && strncmp(rulesets[r].name, "default", 7)) continue;
      if (only && !strstr(mats[m].name, only)) continue;
      int    ok = run_case(&mats[m], &rulesets[r], stream, info, sizeof(info), &max_err);
      printf("%s %-17s %6lld x %-6lld nnz %-7lld | %-36s | %-40s | max err %.1e\n", ok ? "PASS" : "FAIL", mats[m].name, (long long)mats[m].nrows, (long long)mats[m].ncols, (long long)mats[m].rowptr[mats[m].nrows], rulesets[r].name, info, max_err);
      fflush(stdout);
      if (ok) passed++;
      else failed++;
      if (!ok && cudaPeekAtLastError() != cudaSuccess) { /* a sticky error poisons the context: stop */
        printf("  sticky CUDA error %s: stopping\n", cudaGetErrorString(cudaPeekAtLastError()));
        m = nmats;
        break;
      }
    }
  }
  for (int m = 0; m < nmats && !only; m++) {
    int ok = diagonal_case(&mats[m], stream);
    printf("%s %-17s diagonal and shift on the device\n", ok ? "PASS" : "FAIL", mats[m].name);
    if (ok) passed++;
    else failed++;
  }
  if (!only) {
    const struct {
      const char *name;
      aijt_format f;
    } cases[] = {{"long_row_50k", AIJT_LONG}, {"stencil_2d", AIJT_DIA}};
    for (int c = 0; c < 2; c++)
      for (int m = 0; m < nmats; m++) {
        if (strcmp(mats[m].name, cases[c].name)) continue;
        int ok = another_pattern_case(&mats[m], cases[c].f);
        printf("%s %-17s the GPU build refuses another pattern (%s)\n", ok ? "PASS" : "FAIL", mats[m].name, cases[c].f == AIJT_LONG ? "a LONG row an entry shorter" : "an entry off the diagonals");
        if (ok) passed++;
        else failed++;
      }
  }
  for (int m = 0; m < nmats; m++) matrix_free(&mats[m]);
  if (!aijt_cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy")) failed++;
  printf("GPU build: %d plans built on the device and compared with the host's layouts\n", gpu_builds);
  printf("DIA value codes: %d strips checked coded, %d with too many values to code\n", coded_strips, uncoded_strips);
  printf("without a map: %d DIA and %d other strips built on the device and refilled through their rows' first places\n", by_rows_strips[0], by_rows_strips[1]);
  printf("Windows: %d strips run as three windows, %d whole (formats that cannot be cut)\n", windowed_strips, whole_strips);
  aijt_dev_stage_free(); /* what the set-up passes kept for the process */
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
