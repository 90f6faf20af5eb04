/*
   aijt_calibrate: measures this GPU for the performance model (src/mat/impls/tuned/plan/aijtmodel.h).
   No PETSc: it builds sample matrices, lays them out with the planner and runs the kernels of kernels/.

   For every kernel (CSR-vector at 1..32 threads per row, LONG, SELL, ELL, COO, DIA, STREAM at 1 and 4
   lanes per row, BCSR for each block size) and a range of row
   lengths it times a strip of equal rows sized to fill the device and to stream well past the L2 cache
   (seed 000, section 4: time against row length, rows enough to fill the device), in two column
   patterns: "local" (a row's columns next to the row) and "random" (columns spread over 2^21).  Each
   point is the median of CUDA-event-timed launches, less the kernel's fixed cost (a tiny strip alone),
   per row.  STREAM's samples have rows of mixed lengths (within a quarter of the length): rows all of one
   length put one lane's reads of 16, 32, ... entries on the same shared-memory banks, which the matrices
   STREAM holds rarely do.  The fixed costs, the cost of one more strip in a fused launch and one LONG block's rate
   complete the model, which is written as text.
*/
static const char help[] = "aijt_calibrate: the aijtuned performance model of this GPU (no PETSc needed)\n"
                           "  -o FILE   model file (default: <folder>/<device name>.model, the folder where the library looks: $AIJTUNED_MODEL_DIR,\n"
                           "            else share/aijtuned/models beside an installed aijt_calibrate (make install), else models/ here)\n"
                           "  -quick    a few lengths and repetitions (a smoke test, not a model)\n"
                           "  -reps N   timed launches per measurement, median (default 15)\n"
                           "  -add-stream FILE  measure only the STREAM kernels and add them to the model in FILE (written to -o,\n"
                           "            default FILE itself): a model calibrated before STREAM, its other kernels as they were\n"
                           "  -add-bcsr FILE    the same for the BCSR kernels (whole bs x bs blocks, bs 2 to 8)\n";

#include "devcopy.h"
#include "hold.h"
#include "../tests/common/xorshift.h" /* the tests' stream, with a seed of its own */
extern "C" { /* the planner is C */
#include "aijtmodel.h"
#include "planbuild.h"
}

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RANDOM_COLS  (1 << 21)  /* 16 MiB of x: the suite's irregular matrices have 1-2M columns */
#define TARGET_NNZ   (12 << 20) /* 144 MB of values and columns: well past a 50-60 MiB L2 */
#define MAX_ROWS     (1 << 22)
#define MIN_ROWS     16384      /* long rows: still 16k blocks or warps */
#define TINY_ROWS    256                   /* the fixed costs: almost no work */
#define CRIT_ROWS    AIJT_MODEL_TINY_ROWS  /* critical paths: every row runs at once */
#define BLOCK        256

static const int lengths_full[]  = {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};
static const int lengths_quick[] = {1, 4, 16, 64, 256, 1024};
static const int diags_full[]    = {1, 3, 5, 7, 9, 11, 13, 15, 19, 23, 27, 32};
static const int diags_quick[]   = {3, 7, 27};
static const int tprs[]          = {1, 2, 4, 8, 16, 32};
static const int stream_tprs[]   = {1, 4};

/* Which kernels measure which lengths: padded formats only while padding stays cheap to build, LONG
   only for rows long enough to need it, COO (atomics per entry) only for short rows. */
#define SELL_MAX_LEN 512
#define LONG_MIN_LEN 32
#define COO_MAX_LEN  32

static int    reps = 15, reps_small = 30; /* small strips are cheap and noisier: more calls */
static double *dx, *dy;
static cudaStream_t stream;

typedef struct {
  aijt_int  nrows, ncols;
  aijt_int *rowptr, *col;
  double   *val;
} sample;

static unsigned long long rng = 0x2545f4914f6cdd1dull;
static unsigned long long rnd(void)
{
  return xorshift64(&rng);
}

static int cmp_int(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b;
  return (x > y) - (x < y);
}

/* R rows of L entries on average, each pair of rows L + d and L - d long with d drawn from [0, spread]
   (spread 0: every row L long); local: row i reads columns i, i + 1, ...; random: distinct sorted columns. */
static void sample_make_spread(aijt_int R, aijt_int L, aijt_int spread, int random, sample *S)
{
  S->nrows  = R;
  S->ncols  = random ? RANDOM_COLS : R + L + spread;
  S->rowptr = (aijt_int *)malloc(((size_t)R + 1) * sizeof(aijt_int));
  S->col    = (aijt_int *)malloc(((size_t)R * L + 1) * sizeof(aijt_int));
  S->val    = (double *)malloc(((size_t)R * L + 1) * sizeof(double));
  S->rowptr[0] = 0;
  for (aijt_int i = 0; i < R; i += 2) {
    const aijt_int d = spread && i + 1 < R ? (aijt_int)(rnd() % (unsigned long long)(spread + 1)) : 0;
    S->rowptr[i + 1] = S->rowptr[i] + L + d;
    if (i + 1 < R) S->rowptr[i + 2] = S->rowptr[i + 1] + L - d;
  }
  for (aijt_int i = 0; i < R; i++) {
    aijt_int *c = S->col + S->rowptr[i];
    const aijt_int n = S->rowptr[i + 1] - S->rowptr[i];
    if (!random)
      for (aijt_int j = 0; j < n; j++) c[j] = i + j;
    else {
      for (aijt_int j = 0; j < n; j++) c[j] = (aijt_int)(rnd() % (unsigned long long)(RANDOM_COLS - n));
      qsort(c, (size_t)n, sizeof(aijt_int), cmp_int);
      for (aijt_int j = 0; j < n; j++) c[j] += j; /* strictly increasing, below RANDOM_COLS */
    }
  }
  for (size_t k = 0; k < (size_t)R * L; k++) S->val[k] = 1.0 / (double)(1 + k % 7);
}

/* R rows of L entries. */
static void sample_make(aijt_int R, aijt_int L, int random, sample *S)
{
  sample_make_spread(R, L, 0, random, S);
}

/* R rows of a band of nd full diagonals around the main one. */
static void sample_band(aijt_int R, int nd, sample *S)
{
  aijt_int lo = -(nd / 2), k = 0;
  S->nrows  = R;
  S->ncols  = R;
  S->rowptr = (aijt_int *)malloc(((size_t)R + 1) * sizeof(aijt_int));
  S->col    = (aijt_int *)malloc(((size_t)R * nd + 1) * sizeof(aijt_int));
  S->val    = (double *)malloc(((size_t)R * nd + 1) * sizeof(double));
  S->rowptr[0] = 0;
  for (aijt_int i = 0; i < R; i++) {
    for (int d = 0; d < nd; d++) {
      aijt_int c = i + lo + d;
      if (c >= 0 && c < R) {
        S->col[k] = c;
        S->val[k++] = 1.0 / (double)(1 + d);
      }
    }
    S->rowptr[i + 1] = k;
  }
}

/* nb block rows of per whole bs x bs blocks each (rows of per * bs entries): local, block row b reads block
   columns b, b + 1, ...; random, distinct sorted block columns spread over RANDOM_COLS columns. */
static void sample_blocks(aijt_int nb, int bs, aijt_int per, int random, sample *S)
{
  const aijt_int nbc = random ? RANDOM_COLS / bs : nb + per;
  aijt_int      *bcol = (aijt_int *)malloc((size_t)per * sizeof(aijt_int));
  size_t         k = 0;
  S->nrows  = nb * bs;
  S->ncols  = nbc * bs;
  S->rowptr = (aijt_int *)malloc(((size_t)S->nrows + 1) * sizeof(aijt_int));
  S->col    = (aijt_int *)malloc((size_t)S->nrows * per * bs * sizeof(aijt_int) + sizeof(aijt_int));
  S->val    = (double *)malloc((size_t)S->nrows * per * bs * sizeof(double) + sizeof(double));
  S->rowptr[0] = 0;
  for (aijt_int b = 0; b < nb; b++) {
    if (!random)
      for (aijt_int t = 0; t < per; t++) bcol[t] = b + t;
    else {
      for (aijt_int t = 0; t < per; t++) bcol[t] = (aijt_int)(rnd() % (unsigned long long)(nbc - per));
      qsort(bcol, (size_t)per, sizeof(aijt_int), cmp_int);
      for (aijt_int t = 0; t < per; t++) bcol[t] += t; /* strictly increasing */
    }
    for (int i = 0; i < bs; i++) {
      for (aijt_int t = 0; t < per; t++)
        for (int j = 0; j < bs; j++, k++) S->col[k] = bcol[t] * bs + j, S->val[k] = 1.0 / (double)(1 + k % 7);
      S->rowptr[b * bs + i + 1] = (aijt_int)k;
    }
  }
  free(bcol);
}

static void sample_free(sample *S)
{
  free(S->rowptr);
  free(S->col);
  free(S->val);
}

static aijt_csr csr_of(const sample *S)
{
  aijt_csr A = {S->nrows, S->ncols, S->rowptr, S->col, S->val, NULL, 0, 0};
  return A;
}

/* A block sample's CSR, its block size told. */
static aijt_csr csr_of_blocks(const sample *S, int bs)
{
  aijt_csr A = csr_of(S);
  A.bs       = bs;
  return A;
}

/* The planner's plan of nstrips equal strips of one format over A (rows in natural order). */
static aijt_plan *plan_one(const aijt_csr *A, aijt_format f, int param, int nstrips)
{
  aijt_plan *p;
  int        cap = 0;
  if (aijt_plan_start(A, &p)) return NULL;
  if (f == AIJT_BCSR) { /* the whole matrix, threads per row as the planner gives them */
    aijt_strip t;
    aijt_bcsr_strip(p, param, BLOCK, &t);
    if (aijt_plan_append(p, &cap, &t) || aijt_plan_check(p, A)) aijt_plan_destroy(&p);
    return p;
  }
  for (int s = 0; s < nstrips; s++) {
    aijt_strip t;
    memset(&t, 0, sizeof(t));
    t.format = f;
    t.begin  = (aijt_int)((int64_t)A->nrows * s / nstrips);
    t.end    = (aijt_int)((int64_t)A->nrows * (s + 1) / nstrips);
    t.nnz    = A->rowptr[t.end] - A->rowptr[t.begin];
    for (aijt_int i = t.begin; i < t.end; i++)
      if (A->rowptr[i + 1] - A->rowptr[i] > t.max_len) t.max_len = A->rowptr[i + 1] - A->rowptr[i];
    t.block          = BLOCK;
    t.tpr            = f == AIJT_CSR || f == AIJT_STREAM ? param : 0;
    t.blocks_per_row = f == AIJT_LONG ? aijt_long_parts(BLOCK, t.end - t.begin, t.max_len) : 0;
    t.width          = f == AIJT_ELL ? t.max_len : f == AIJT_DIA ? param : 0;
    t.chunk          = f == AIJT_SELL ? param : 0;
    if (f == AIJT_STREAM) t.block = AIJT_STREAM_BLOCK;
    t.sigma          = 1;
    if (f == AIJT_COO) t.tail_nnz = t.nnz, t.nnz = 0;
    if (aijt_plan_append(p, &cap, &t)) {
      aijt_plan_destroy(&p);
      return NULL;
    }
  }
  if (aijt_plan_check(p, A)) aijt_plan_destroy(&p);
  return p;
}

/* Median time (us) of the whole layout's product: n launches queued back to back between event pairs, as a
   solve issues them (synchronizing after each one put the launch's own latency inside the events: the
   first model's fixed costs came out ~1.5 us above the benchmarks', bench/results/2026-11-21-h200-model-v2),
   behind a held stream, so that the events time the device and not the host's launch rate (hold.h: a
   tiny strip's fixed cost came out 4.5 us in one calibration and 6.3-7.3 in the next on the same kind of
   H100, bench/results/2026-11-22-h100-model-check). */
#define MAX_REPS (AIJT_HOLD_MAX_LAUNCHES / 2) /* COO's tail: two launches */
static cudaEvent_t evs[2 * MAX_REPS];

static double time_us(const aijt_dev_layouts *D, int n)
{
  double t[MAX_REPS];
  n = n < MAX_REPS ? n : MAX_REPS;
  for (int w = 0; w < 3; w++) aijt_cuda_ok(aijt_cuda_spmv(D->strips, D->nstrips, &D->tail, 1.0, dx, NULL, dy, stream), "warm-up");
  aijt_cuda_ok(aijt_dev_hold(stream), "aijt_dev_hold");
  for (int r = 0; r < n; r++) {
    aijt_cuda_ok(cudaEventRecord(evs[2 * r], stream), "cudaEventRecord");
    aijt_cuda_ok(aijt_cuda_spmv(D->strips, D->nstrips, &D->tail, 1.0, dx, NULL, dy, stream), "aijt_cuda_spmv");
    aijt_cuda_ok(cudaEventRecord(evs[2 * r + 1], stream), "cudaEventRecord");
  }
  aijt_dev_release();
  aijt_cuda_ok(cudaEventSynchronize(evs[2 * n - 1]), "cudaEventSynchronize");
  if (aijt_dev_hold_timed_out()) printf("aijt_calibrate: warning: the held stream gave up waiting; this point's times are the host's launch rate\n");
  for (int r = 0; r < n; r++) {
    float ms = 0;
    aijt_cuda_ok(cudaEventElapsedTime(&ms, evs[2 * r], evs[2 * r + 1]), "cudaEventElapsedTime");
    t[r] = 1e3 * ms;
  }
  for (int i = 1; i < n; i++) /* insertion sort: a few values */
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      double v = t[j];
      t[j] = t[j - 1], t[j - 1] = v;
    }
  return t[n / 2];
}

/* Time of A in one format: plan, lay out, upload, time (each tpr of CSR on the same layout). */
static int time_format_n(const aijt_csr *A, aijt_format f, int param, int nstrips, int ntprs, int n, double *us)
{
  aijt_plan    *p = plan_one(A, f, param, nstrips);
  aijt_layouts *L = NULL;
  aijt_dev_layouts   D;
  int           ok = p && !aijt_layouts_build(p, A, &L);

  ok = ok && aijt_dev_upload(p, L, NULL, BLOCK, &D);
  for (int t = 0; ok && t < ntprs; t++) {
    for (int s = 0; s < D.nstrips && f == AIJT_CSR; s++) D.strips[s].tpr = tprs[t];
    us[t] = time_us(&D, n);
  }
  if (ok) ok = aijt_dev_free(&D);
  aijt_layouts_destroy(&L);
  aijt_plan_destroy(&p);
  return ok;
}

/* Small strips are cheap to time and noisier: they get more calls. */
static int time_format(const aijt_csr *A, aijt_format f, int param, int nstrips, int ntprs, double *us)
{
  return time_format_n(A, f, param, nstrips, ntprs, A->rowptr[A->nrows] < (1 << 20) ? reps_small : reps, us);
}

/* Fixed cost of each kernel: a tiny strip alone. */
static double tiny_us(aijt_format f, int param)
{
  sample   S;
  double   us[6] = {0};
  aijt_int L     = f == AIJT_LONG ? LONG_MIN_LEN : f == AIJT_DIA ? 0 : 4;
  if (f == AIJT_DIA) sample_band(TINY_ROWS, param, &S);
  else sample_make(TINY_ROWS, L, 0, &S);
  aijt_csr A = csr_of(&S);
  if (f == AIJT_CSR) {
    double all[6];
    time_format(&A, f, 1, 1, 6, all);
    for (int t = 0; t < 6; t++)
      if (tprs[t] == param) us[0] = all[t];
  } else time_format(&A, f, param, 1, 1, us);
  sample_free(&S);
  return us[0];
}

static aijt_int rows_for(int L)
{
  int64_t R = TARGET_NNZ / (L > 0 ? L : 1);
  return (aijt_int)(R > MAX_ROWS ? MAX_ROWS : R < MIN_ROWS ? MIN_ROWS : R);
}

static void add_point(aijt_model_kernel *k, double len, double us_local, double us_random, aijt_int R, double d_local, double d_random, double us_crit)
{
  int j = k->npoints++;
  k->len[j]       = len;
  k->local_ns[j]  = fmax(1e-3, (us_local - k->overhead_us) * 1e3 / (double)R);
  k->random_ns[j] = fmax(1e-3, (us_random - k->overhead_us) * 1e3 / (double)R);
  k->d_local[j]   = d_local;
  k->d_random[j]  = d_random;
  k->crit_us[j]   = fmax(0.0, us_crit - k->overhead_us);
}

/* The STREAM kernels (row blocks, natural order) at each length: as the others, local and random columns,
   and the critical path; added to m. */
static int measure_stream(aijt_model *m, const int *lens, int nlen)
{
  aijt_model_kernel *k[2];
  for (int t = 0; t < 2; t++) {
    if (aijt_model_kernel_find(m, AIJT_STREAM, stream_tprs[t])) {
      printf("aijt_calibrate: the model already has kernel stream %d\n", stream_tprs[t]);
      return 0;
    }
    if (!(k[t] = aijt_model_kernel_add(m, AIJT_STREAM, stream_tprs[t]))) return 0;
    k[t]->overhead_us = tiny_us(AIJT_STREAM, stream_tprs[t]);
  }
  printf("fixed costs (us): stream 1 %.2f, 4 %.2f\n%6s %8s | ns per row, local / random: stream 1 4 | critical path us\n", k[0]->overhead_us, k[1]->overhead_us, "len", "rows");
  for (int i = 0; i < nlen && lens[i] <= AIJT_STREAM_MAX_LEN; i++) {
    const int      L = lens[i];
    const aijt_int spread = L / 4 < AIJT_STREAM_MAX_LEN - L ? L / 4 : AIJT_STREAM_MAX_LEN - L; /* no row past STREAM's longest */
    aijt_int       R = rows_for(L);
    double         us[2][2], d[2], crit[2];
    int            ok = 1;
    for (int pat = 0; pat < 3 && ok; pat++) { /* local, random, then the critical path's few random rows */
      sample S;
      if (pat < 2) sample_make_spread(R, L, spread, pat > 0, &S); /* rows of mixed lengths, as STREAM meets them */
      else sample_make(CRIT_ROWS, L, 1, &S);
      aijt_csr A = csr_of(&S);
      if (pat < 2) d[pat] = aijt_locality(&A, NULL, 0, R, 64);
      for (int t = 0; t < 2 && ok; t++) ok = time_format(&A, AIJT_STREAM, stream_tprs[t], 1, 1, pat < 2 ? &us[pat][t] : &crit[t]);
      sample_free(&S);
    }
    if (!ok) {
      printf("aijt_calibrate: stream, length %d failed\n", L);
      return 0;
    }
    for (int t = 0; t < 2; t++) add_point(k[t], L, us[0][t], us[1][t], R, d[0], d[1], crit[t]);
    printf("%6d %8lld | %.3g/%.3g %.3g/%.3g | %.3g %.3g\n", L, (long long)R, k[0]->local_ns[k[0]->npoints - 1], k[0]->random_ns[k[0]->npoints - 1], k[1]->local_ns[k[1]->npoints - 1], k[1]->random_ns[k[1]->npoints - 1], k[0]->crit_us[k[0]->npoints - 1], k[1]->crit_us[k[1]->npoints - 1]);
    fflush(stdout);
  }
  return 1;
}

/* The BCSR kernels (whole bs x bs blocks, natural order), one per block size, at rows of bs times each count
   of blocks: local and random block columns, and the critical path; added to m. */
static const int bcsr_blocks_full[]  = {1, 2, 3, 4, 6, 8, 12, 16, 20, 27, 32, 48, 64};
static const int bcsr_blocks_quick[] = {1, 4, 27};

static int measure_bcsr(aijt_model *m, int quick)
{
  const int *per  = quick ? bcsr_blocks_quick : bcsr_blocks_full;
  const int  nper = quick ? (int)(sizeof(bcsr_blocks_quick) / sizeof(int)) : (int)(sizeof(bcsr_blocks_full) / sizeof(int));
  printf("bcsr: ns per row, local / random, critical path us, for rows of bs x blocks entries\n");
  for (int bs = 2; bs <= AIJT_BCSR_MAX_BS; bs++) {
    aijt_model_kernel *k;
    if (aijt_model_kernel_find(m, AIJT_BCSR, bs)) {
      printf("aijt_calibrate: the model already has kernel bcsr %d\n", bs);
      return 0;
    }
    if (!(k = aijt_model_kernel_add(m, AIJT_BCSR, bs))) return 0;
    { /* the fixed cost: a tiny matrix of one block a block row */
      sample S;
      sample_blocks(TINY_ROWS / bs, bs, 1, 0, &S);
      aijt_csr A = csr_of_blocks(&S, bs);
      if (!time_format(&A, AIJT_BCSR, bs, 1, 1, &k->overhead_us)) return 0;
      sample_free(&S);
    }
    printf("bcsr %d: fixed cost %.2f us;", bs, k->overhead_us);
    for (int i = 0; i < nper; i++) {
      const int      L = bs * per[i];
      const aijt_int nb = rows_for(L) / bs;
      double         us[2], d[2], crit = 0;
      int            ok = 1;
      for (int pat = 0; pat < 3 && ok; pat++) { /* local, random, then the critical path's few random rows */
        sample S;
        sample_blocks(pat < 2 ? nb : CRIT_ROWS / bs, bs, per[i], pat > 0, &S);
        aijt_csr A = csr_of_blocks(&S, bs);
        if (pat < 2) d[pat] = aijt_locality(&A, NULL, 0, A.nrows, 64);
        ok = time_format(&A, AIJT_BCSR, bs, 1, 1, pat < 2 ? &us[pat] : &crit);
        sample_free(&S);
      }
      if (!ok) {
        printf("\naijt_calibrate: bcsr %d, %d blocks a row failed\n", bs, per[i]);
        return 0;
      }
      add_point(k, L, us[0], us[1], nb * bs, d[0], d[1], crit);
      printf(" %d: %.3g/%.3g %.3g", L, k->local_ns[k->npoints - 1], k->random_ns[k->npoints - 1], k->crit_us[k->npoints - 1]);
      fflush(stdout);
    }
    printf("\n");
  }
  return 1;
}

/* Every kernel: the fixed costs, the launch's and a strip's, LONG's block rate, then each length. */
static int measure_all(aijt_model &m, int quick)
{
  aijt_model_kernel *csr[6], *lng, *sell, *ell, *coo, *dia;

  /* fixed costs first: every point below is less its kernel's */
  for (int t = 0; t < 6; t++) (csr[t] = aijt_model_kernel_add(&m, AIJT_CSR, tprs[t]))->overhead_us = tiny_us(AIJT_CSR, tprs[t]);
  (lng = aijt_model_kernel_add(&m, AIJT_LONG, 0))->overhead_us = tiny_us(AIJT_LONG, 0);
  (sell = aijt_model_kernel_add(&m, AIJT_SELL, 32))->overhead_us = tiny_us(AIJT_SELL, 32);
  (ell = aijt_model_kernel_add(&m, AIJT_ELL, 0))->overhead_us = tiny_us(AIJT_ELL, 0);
  (coo = aijt_model_kernel_add(&m, AIJT_COO, 0))->overhead_us = tiny_us(AIJT_COO, 0);
  (dia = aijt_model_kernel_add(&m, AIJT_DIA, 0))->overhead_us = tiny_us(AIJT_DIA, 3);
  { /* a launch's own cost: the median of the kernels' fixed costs */
    double o[AIJT_MODEL_MAX_KERNELS];
    for (int q = 0; q < m.nkernels; q++) o[q] = m.kernels[q].overhead_us;
    for (int i = 1; i < m.nkernels; i++)
      for (int j = i; j > 0 && o[j] < o[j - 1]; j--) {
        double t = o[j];
        o[j] = o[j - 1], o[j - 1] = t;
      }
    m.launch_us = o[m.nkernels / 2];
  }
  { /* one more strip in a launch: 16 tiny CSR strips against one */
    sample S;
    double one[6], many[6];
    sample_make(16 * TINY_ROWS, 4, 0, &S);
    aijt_csr A = csr_of(&S);
    time_format(&A, AIJT_CSR, 4, 1, 3, one);
    time_format(&A, AIJT_CSR, 4, 16, 3, many);
    m.strip_us = fmax(0.0, (many[2] - one[2]) / 15.0);
    sample_free(&S);
  }
  { /* one LONG block's rate: a single row of 2^18 entries on one block */
    sample S;
    double us = 0;
    sample_make(1, 1 << 18, 1, &S);
    aijt_csr   A = csr_of(&S);
    aijt_plan *p = plan_one(&A, AIJT_LONG, 0, 1);
    aijt_layouts *L = NULL;
    aijt_dev_layouts   D;
    aijt_dev_params    o = {0, 1, 0};
    if (p && !aijt_layouts_build(p, &A, &L) && aijt_dev_upload(p, L, &o, BLOCK, &D)) {
      us = time_us(&D, reps_small);
      aijt_dev_free(&D);
    }
    m.long_entry_ns = fmax(0.0, (us - lng->overhead_us) * 1e3 / (double)(1 << 18));
    aijt_layouts_destroy(&L);
    aijt_plan_destroy(&p);
    sample_free(&S);
  }
  printf("fixed costs (us): csr %.2f %.2f %.2f %.2f %.2f %.2f, long %.2f, sell %.2f, ell %.2f, coo %.2f, dia %.2f; strip %.3f; long block %.3f ns/entry\n", csr[0]->overhead_us, csr[1]->overhead_us, csr[2]->overhead_us, csr[3]->overhead_us, csr[4]->overhead_us, csr[5]->overhead_us, lng->overhead_us, sell->overhead_us, ell->overhead_us, coo->overhead_us, dia->overhead_us, m.strip_us, m.long_entry_ns);

  const int *lens = quick ? lengths_quick : lengths_full;
  int        nlen = quick ? (int)(sizeof(lengths_quick) / sizeof(int)) : (int)(sizeof(lengths_full) / sizeof(int));
  printf("%6s %8s %6s %6s | ns per row, local / random: csr 1 2 4 8 16 32, long, sell, ell, coo\n", "len", "rows", "d_loc", "d_rnd");
  for (int i = 0; i < nlen; i++) {
    const int L = lens[i];
    aijt_int  R = rows_for(L);
    double    us[2][6 + 4], d[2], crit[6 + 4];
    int       ok = 1;
    for (int pat = 0; pat < 2; pat++) {
      sample S;
      sample_make(R, L, pat, &S);
      aijt_csr A = csr_of(&S);
      d[pat]     = aijt_locality(&A, NULL, 0, R, 64);
      ok = ok && time_format(&A, AIJT_CSR, 1, 1, 6, us[pat]);
      if (L >= LONG_MIN_LEN) ok = ok && time_format(&A, AIJT_LONG, 0, 1, 1, &us[pat][6]);
      if (L <= SELL_MAX_LEN) ok = ok && time_format(&A, AIJT_SELL, 32, 1, 1, &us[pat][7]);
      if (L <= SELL_MAX_LEN) ok = ok && time_format(&A, AIJT_ELL, 0, 1, 1, &us[pat][8]);
      if (L <= COO_MAX_LEN) ok = ok && time_format(&A, AIJT_COO, 0, 1, 1, &us[pat][9]);
      sample_free(&S);
    }
    { /* critical paths: CRIT_ROWS random rows, all at once */
      sample S;
      sample_make(CRIT_ROWS, L, 1, &S);
      aijt_csr A = csr_of(&S);
      ok = ok && time_format(&A, AIJT_CSR, 1, 1, 6, crit);
      if (L >= LONG_MIN_LEN) ok = ok && time_format(&A, AIJT_LONG, 0, 1, 1, &crit[6]);
      if (L <= SELL_MAX_LEN) ok = ok && time_format(&A, AIJT_SELL, 32, 1, 1, &crit[7]);
      if (L <= SELL_MAX_LEN) ok = ok && time_format(&A, AIJT_ELL, 0, 1, 1, &crit[8]);
      if (L <= COO_MAX_LEN) ok = ok && time_format(&A, AIJT_COO, 0, 1, 1, &crit[9]);
      sample_free(&S);
    }
    if (!ok) {
      printf("aijt_calibrate: length %d failed\n", L);
      return 0;
    }
    for (int t = 0; t < 6; t++) add_point(csr[t], L, us[0][t], us[1][t], R, d[0], d[1], crit[t]);
    if (L >= LONG_MIN_LEN) add_point(lng, L, us[0][6], us[1][6], R, d[0], d[1], crit[6]);
    if (L <= SELL_MAX_LEN) add_point(sell, L, us[0][7], us[1][7], R, d[0], d[1], crit[7]);
    if (L <= SELL_MAX_LEN) add_point(ell, L, us[0][8], us[1][8], R, d[0], d[1], crit[8]);
    if (L <= COO_MAX_LEN) add_point(coo, L, us[0][9], us[1][9], R, d[0], d[1], crit[9]);
    printf("%6d %8lld %6.3f %6.3f |", L, (long long)R, d[0], d[1]);
    for (int t = 0; t < 6; t++) printf(" %.3g/%.3g", csr[t]->local_ns[csr[t]->npoints - 1], csr[t]->random_ns[csr[t]->npoints - 1]);
    aijt_model_kernel *rest[4] = {lng, sell, ell, coo};
    for (int q = 0; q < 4; q++) {
      if (rest[q]->npoints && rest[q]->len[rest[q]->npoints - 1] == L) printf(" %.3g/%.3g", rest[q]->local_ns[rest[q]->npoints - 1], rest[q]->random_ns[rest[q]->npoints - 1]);
      else printf(" -");
    }
    printf(" | critical path us: csr 1 %.3g, 32 %.3g, sell %.3g\n", csr[0]->crit_us[csr[0]->npoints - 1], csr[5]->crit_us[csr[5]->npoints - 1], L <= SELL_MAX_LEN ? sell->crit_us[sell->npoints - 1] : 0.0);
    fflush(stdout);
  }
  const int *nds = quick ? diags_quick : diags_full;
  int        nnd = quick ? (int)(sizeof(diags_quick) / sizeof(int)) : (int)(sizeof(diags_full) / sizeof(int));
  for (int i = 0; i < nnd; i++) {
    sample S;
    double us = 0;
    aijt_int R = rows_for(nds[i]);
    sample_band(R, nds[i], &S);
    aijt_csr A = csr_of(&S);
    if (!time_format(&A, AIJT_DIA, nds[i], 1, 1, &us)) return 0;
    add_point(dia, nds[i], us, us, R, 0, 0, 0);
    printf("dia %2d diagonals: %.3g ns per row\n", nds[i], dia->local_ns[dia->npoints - 1]);
    sample_free(&S);
  }

  return measure_stream(&m, lens, nlen) && measure_bcsr(&m, quick);
}

/* Where a new model goes unless -o says: where the library looks for models (aijt_model_dir), so that the next run
   finds it: $AIJTUNED_MODEL_DIR; else, for an aijt_calibrate installed by make install (PREFIX/bin),
   PREFIX/share/aijtuned/models; else models/ in the working folder (the source tree's, run from its root). */
static void default_folder(char *dir, size_t len)
{
  char    exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

  if (n > 0) exe[n] = 0;
  if (!aijt_model_dir(n > 0 ? exe : NULL, dir, len)) snprintf(dir, len, "models");
}

int main(int argc, char **argv)
{
  const char       *out = NULL, *add_stream = NULL, *add_bcsr = NULL;
  char              folder[PATH_MAX], path[PATH_MAX + 300];
  int               quick = 0;
  aijt_model        m;
  cudaDeviceProp    prop;
  struct timespec   t0, t1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "-quick")) quick = 1;
    else if (!strcmp(argv[i], "-reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-add-stream") && i + 1 < argc) add_stream = argv[++i];
    else if (!strcmp(argv[i], "-add-bcsr") && i + 1 < argc) add_bcsr = argv[++i];
    else {
      default_folder(folder, sizeof(folder));
      printf("%s  the default folder here: %s\n", help, folder);
      return strcmp(argv[i], "-help") ? 1 : 0;
    }
  }
  if (reps < 3) reps = 3;
  if (quick && reps > 5) reps = 5;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    printf("aijt_calibrate: no CUDA device\n");
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  memset(&m, 0, sizeof(m));
  m.version = AIJT_MODEL_VERSION;
  snprintf(m.device, sizeof(m.device), "%s", prop.name);
  if (add_stream && add_bcsr) {
    printf("aijt_calibrate: -add-stream and -add-bcsr one at a time\n");
    return 1;
  }
  if (add_stream || add_bcsr) { /* the file's model, for its STREAM or BCSR kernels alone */
    const char *from = add_stream ? add_stream : add_bcsr;
    char        why[256];
    if (aijt_model_load(from, &m, why, sizeof(why))) {
      printf("aijt_calibrate: %s: %s\n", from, why);
      return 1;
    }
    if (strcmp(m.device, prop.name)) printf("aijt_calibrate: warning: %s is a model of %s, not of this %s\n", from, m.device, prop.name);
    if (!out) out = from;
  }
  if (!out) { /* <folder>/<name>.model, the name with '-' for anything but letters and digits */
    char name[sizeof(m.device)];
    size_t n = 0;
    for (const char *c = prop.name; *c && n + 1 < sizeof(name); c++) name[n++] = isalnum((unsigned char)*c) ? *c : '-';
    name[n] = 0;
    default_folder(folder, sizeof(folder));
    snprintf(path, sizeof(path), "%s/%s.model", folder, name);
    out = path;
  }
  printf("aijt_calibrate: %s, %d SMs, %.0f MiB L2, %d timed launches per point%s\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0, reps, quick ? " (quick)" : "");

  size_t nx = (size_t)MAX_ROWS + 4096 > (size_t)RANDOM_COLS ? (size_t)MAX_ROWS + 4096 : (size_t)RANDOM_COLS;
  if (!aijt_cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate")) return 1;
  for (int e = 0; e < 2 * MAX_REPS; e++)
    if (!aijt_cuda_ok(cudaEventCreate(&evs[e]), "cudaEventCreate")) return 1;
  if (!aijt_cuda_ok(cudaMalloc((void **)&dx, nx * sizeof(double)), "cudaMalloc x") || !aijt_cuda_ok(cudaMalloc((void **)&dy, (size_t)MAX_ROWS * sizeof(double)), "cudaMalloc y")) return 1;
  {
    double *hx = (double *)malloc(nx * sizeof(double));
    for (size_t i = 0; i < nx; i++) hx[i] = 1.0 + (double)(i % 13) / 13.0;
    aijt_cuda_ok(cudaMemcpy(dx, hx, nx * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy x");
    free(hx);
  }

  if (add_bcsr ? !measure_bcsr(&m, quick) : add_stream ? !measure_stream(&m, quick ? lengths_quick : lengths_full, quick ? (int)(sizeof(lengths_quick) / sizeof(int)) : (int)(sizeof(lengths_full) / sizeof(int))) : !measure_all(m, quick)) return 1; /* the lengths as measure_all's */

  if (!strncmp(out, "models/", 7)) (void)mkdir("models", 0755); /* the default place, in a fresh tree */
  FILE *fp = fopen(out, "w");
  if (!fp) {
    printf("aijt_calibrate: cannot write %s (-o FILE writes elsewhere)\n", out);
    return 1;
  }
  fprintf(fp, "# written by aijt_calibrate on %s (%d SMs, %.0f MiB L2)%s; see src/mat/impls/tuned/plan/aijtmodel.h\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0, add_stream ? ", its STREAM kernels added to an earlier calibration" : add_bcsr ? ", its BCSR kernels added to an earlier calibration" : "");
  aijt_model_write(&m, fp);
  fclose(fp);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("aijt_calibrate: wrote %s; calibration took %.1f s\n", out, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
