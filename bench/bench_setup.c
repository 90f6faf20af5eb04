/*
   The host side of aijtuned's setup, stage by stage, without PETSc or a GPU: what MatAssemblyEnd spends
   before the upload (plan, then layouts), on the generated suite.

     bench_setup [-model FILE] [-reps N] [-warmup N] [-print] [name[:size] ...]   default: the whole suite at its default sizes
                                                                     -print: each model plan, strip by strip

   Each stage is timed alone with clock_gettime (the median of N runs, 5 by default, after 1 untimed run:
   memory a process touches for the first time costs page faults, and in a virtual machine the host's
   as well, which the first matrix would otherwise carry alone): the stages of the
   model planner as aijt_plan_model runs them (CSR check, features, order by length, locality sampling
   of the length classes, diagonals, the dynamic program, the column order), the whole of aijt_plan_model with the model
   file (models/NVIDIA-H200.model by default) and of aijt_plan_rules, then aijt_layouts_build and
   aijt_layouts_refresh of the model's plan, and what writing the layouts' bytes into fresh memory costs
   (touch: the floor of build's page faults and stores), and aijt_layouts_skeleton, all the host does
   for the layouts when the GPU builds their slots (kernels/build.cu).  aijt_csr_check is not part of aijt_plan_model (the PETSc
   glue does not call it: PETSc's CSR is valid); it is timed for the planner's own callers.

   Every matrix also gets a digest of its model and rules plans and of the layouts of the model's plan
   (every array, bit for bit): a change that must not change plans or layouts must not change a digest.
*/
#include "aijtmodel.h"
#include "planbuild.h"
#include "matgen_aijt.h"
#include "wallclock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 101

/* FNV-1a over raw bytes: equal digests for equal plans and layouts (not a cryptographic claim). */
typedef uint64_t digest;

static void mix(digest *h, const void *p, size_t n)
{
  const unsigned char *c = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) *h = (*h ^ c[i]) * 1099511628211ull;
}

#define MIX(h, x) mix(h, &(x), sizeof(x))
#define MIXN(h, a, n) \
  do { \
    if (a) mix(h, a, (size_t)(n) * sizeof(*(a))); \
  } while (0)

static digest plan_digest(const aijt_plan *p)
{
  digest h = 14695981039346656037ull;
  MIX(&h, p->nrows), MIX(&h, p->ncols), MIX(&h, p->nnz), MIX(&h, p->sorted), MIX(&h, p->nstrips), MIX(&h, p->tail_nnz);
  MIX(&h, p->features.min_len), MIX(&h, p->features.max_len), MIX(&h, p->features.empty_rows), MIX(&h, p->features.mean_len), MIX(&h, p->features.std_len);
  for (int s = 0; s < p->nstrips; s++) { /* field by field: the struct has padding */
    const aijt_strip *S = &p->strips[s];
    MIX(&h, S->format), MIX(&h, S->begin), MIX(&h, S->end), MIX(&h, S->nnz), MIX(&h, S->tail_nnz), MIX(&h, S->max_len), MIX(&h, S->tpr), MIX(&h, S->block);
    MIX(&h, S->blocks_per_row), MIX(&h, S->width), MIX(&h, S->chunk), MIX(&h, S->sigma), MIX(&h, S->predicted_us), MIX(&h, S->tuned_us);
  }
  for (aijt_int k = 0; k < p->nrows; k++) {
    aijt_int r = aijt_plan_row(p, k);
    MIX(&h, r);
  }
  for (aijt_int j = 0; p->col_pos && j < p->ncols; j++) MIX(&h, p->col_pos[j]); /* nothing without a column order: digests stay */
  if (p->col_pos) MIX(&h, p->col_hot);
  return h;
}

static digest layouts_digest(const aijt_layouts *L)
{
  digest h = 14695981039346656037ull;
  MIX(&h, L->nrows), MIX(&h, L->ncols), MIX(&h, L->nstrips);
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S    = &L->strips[s];
    size_t             nptr = aijt_layout_ptr_count(S);
    MIX(&h, S->format), MIX(&h, S->nrows), MIX(&h, S->nslots), MIX(&h, S->width), MIX(&h, S->chunk);
    MIXN(&h, S->rows, S->nrows);
    MIXN(&h, S->ptr, nptr);
    MIXN(&h, S->col, S->nslots);
    MIXN(&h, S->mask, S->nrows);
    MIXN(&h, S->val, S->nslots);
    MIXN(&h, S->src, S->nslots);
  }
  MIX(&h, L->tail.nnz);
  MIXN(&h, L->tail.row, L->tail.nnz);
  MIXN(&h, L->tail.col, L->tail.nnz);
  MIXN(&h, L->tail.val, L->tail.nnz);
  MIXN(&h, L->tail.src, L->tail.nnz);
  return h;
}

enum { T_CHECK, T_FEATURES, T_ORDER, T_LOCALITY, T_DIAGONALS, T_SPLIT, T_COLUMNS, T_MODEL, T_RULES, T_BUILD, T_TOUCH, T_REFRESH, T_SKELETON, NSTAGES };
static const char *const StageName[NSTAGES] = {"check", "features", "order", "locality", "diagonals", "dp", "columns", "plan_model", "plan_rules", "build", "touch", "refresh", "skeleton"};

/* About what build cannot go below: storing as many bytes as the layouts hold into fresh memory, which
   costs the page faults (the kernel zeroes every new page) that the layouts' own allocations cost.  A
   loop of 4-byte stores, not memset: into fresh pages glibc's memset ran 25% slower on the benchmark
   machine than a plain store loop (1.95 GB/s against 2.5). */
static double touch_ms(size_t bytes)
{
  size_t    n  = bytes / sizeof(uint32_t) + 1;
  double    t0 = wall_seconds();
  uint32_t *p  = (uint32_t *)malloc(n * sizeof(uint32_t));
  if (!p) return -1;
  for (size_t i = 0; i < n; i++) p[i] = (uint32_t)i * 2654435761u; /* not a constant: no memset */
  double t = wall_seconds() - t0;
  if (((volatile uint32_t *)p)[n / 2] != (uint32_t)(n / 2) * 2654435761u) t = -1; /* keeps the stores */
  free(p);
  return t;
}

typedef struct {
  aijt_model model;
  aijt_rules rules;
  int        reps, warmup, print;
} Bench;

static void fail(const char *what, aijt_err err)
{
  fprintf(stderr, "bench_setup: %s: %s\n", what, aijt_err_string(err));
  exit(1);
}

/* The median time (ms) of each stage on matrix A, and the digests of its plans and layouts. */
static void time_stages(const Bench *B, const aijt_csr *A, double ms[NSTAGES], digest dig[3], aijt_plan **model_plan)
{
  double        t[NSTAGES][MAX_REPS];
  aijt_features f;
  aijt_plan    *P = NULL, *R = NULL;
  aijt_layouts *L = NULL;
  size_t        bytes = 0;
  aijt_err      err;

  for (int rep = -B->warmup; rep < B->reps; rep++) {
    aijt_int     *order = NULL, *count = NULL, offsets[AIJT_DIA_MAX_DIAGS];
    aijt_bucket  *b     = NULL;
    aijt_plan    *p     = NULL;
    int           nb = 0, cap = 0;
    double        t0, predicted;
    volatile int  sink;
    const int     slot = rep < 0 ? 0 : rep; /* warm-up runs are overwritten */

    t0 = wall_seconds();
    if ((err = aijt_csr_check(A))) fail("aijt_csr_check", err);
    t[T_CHECK][slot] = wall_seconds() - t0;

    t0 = wall_seconds();
    aijt_features_compute(A, &f);
    t[T_FEATURES][slot] = wall_seconds() - t0;

    t0 = wall_seconds();
    if ((err = aijt_length_counts(A, f.max_len, &count))) fail("aijt_length_counts", err);
    if ((err = aijt_order_from_counts(A, f.max_len, count, &order))) fail("aijt_order_from_counts", err);
    t[T_ORDER][slot] = wall_seconds() - t0;

    t0 = wall_seconds();
    if ((err = aijt_model_buckets(A, order, count, f.max_len, &b, &nb))) fail("aijt_model_buckets", err);
    t[T_LOCALITY][slot] = wall_seconds() - t0;
    aijt_counts_free(count);

    t0 = wall_seconds();
    sink = aijt_diagonals(A, AIJT_DIA_MAX_DIAGS, offsets);
    t[T_DIAGONALS][slot] = wall_seconds() - t0;
    (void)sink;

    if ((err = aijt_plan_start(A, &p))) fail("aijt_plan_start", err);
    p->order  = order;
    p->sorted = 1;
    t0        = wall_seconds();
    if ((err = aijt_model_split(&B->rules, &B->model, b, nb, INFINITY, p, &cap, &predicted))) fail("aijt_model_split", err);
    t[T_SPLIT][slot] = wall_seconds() - t0;
    t0               = wall_seconds();
    if ((err = aijt_plan_order_columns(A, &B->rules, sink, p))) fail("aijt_plan_order_columns", err);
    t[T_COLUMNS][slot] = wall_seconds() - t0;
    aijt_plan_destroy(&p);
    free(b);

    aijt_plan_destroy(&P);
    t0 = wall_seconds();
    if ((err = aijt_plan_model(A, &B->rules, &B->model, &P))) fail("aijt_plan_model", err);
    t[T_MODEL][slot] = wall_seconds() - t0;

    aijt_plan_destroy(&R);
    t0 = wall_seconds();
    if ((err = aijt_plan_rules(A, &B->rules, &R))) fail("aijt_plan_rules", err);
    t[T_RULES][slot] = wall_seconds() - t0;

    /* the floor with the last layouts freed, so that it and build find the same memory free (the
       first run, with no layouts yet, measures it after build) */
    aijt_layouts_destroy(&L);
    if (bytes) t[T_TOUCH][slot] = touch_ms(bytes);

    t0 = wall_seconds();
    if ((err = aijt_layouts_build(P, A, &L))) fail("aijt_layouts_build", err);
    t[T_BUILD][slot] = wall_seconds() - t0;
    if (!bytes) t[T_TOUCH][slot] = touch_ms(bytes = aijt_layouts_bytes(L));

    t0 = wall_seconds();
    aijt_layouts_refresh(L, A->values);
    t[T_REFRESH][slot] = wall_seconds() - t0;

    /* what the host does when the GPU builds the slots */
    {
      aijt_layouts *K = NULL;
      t0              = wall_seconds();
      if ((err = aijt_layouts_skeleton(P, A, &K))) fail("aijt_layouts_skeleton", err);
      t[T_SKELETON][slot] = wall_seconds() - t0;
      aijt_layouts_destroy(&K);
    }
  }
  for (int s = 0; s < NSTAGES; s++) ms[s] = 1e3 * median_of(t[s], B->reps);
  dig[0] = plan_digest(P);
  dig[1] = plan_digest(R);
  dig[2] = layouts_digest(L);
  aijt_plan_destroy(&R);
  aijt_layouts_destroy(&L);
  *model_plan = P;
}

static int run(const Bench *B, const char *arg)
{
  char        name[64];
  const char *colon = strchr(arg, ':');
  int64_t     size  = colon ? atoll(colon + 1) : 0;
  matgen_csr  M;
  matgen_err  gerr;
  aijt_csr    A;
  aijt_plan  *P;
  double      ms[NSTAGES];
  digest      dig[3];
  aijt_int    n[AIJT_NFORMATS], rows[AIJT_NFORMATS], nnz[AIJT_NFORMATS];

  snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
  if ((gerr = matgen_generate(name, size, &M))) {
    fprintf(stderr, "bench_setup: %s: %s\n", name, matgen_strerror(gerr));
    return 1;
  }
  if (matgen_to_aijt(&M, &A)) {
    fprintf(stderr, "bench_setup: %s: no memory, or too many entries for the index type\n", name);
    matgen_free(&M);
    return 1;
  }
  time_stages(B, &A, ms, dig, &P);
  aijt_plan_summary(P, n, rows, nnz);
  printf("%-8s %9lld %10lld", name, (long long)A.nrows, (long long)M.nnz);
  for (int s = 0; s < NSTAGES; s++) printf(" %8.2f", ms[s]);
  printf("  %2d strips:", P->nstrips);
  for (int f = 0; f < AIJT_NFORMATS; f++)
    if (n[f]) printf(" %s", aijt_format_names[f]);
  printf("  %016llx %016llx %016llx\n", (unsigned long long)dig[0], (unsigned long long)dig[1], (unsigned long long)dig[2]);
  if (B->print) aijt_plan_print(P, stdout);
  fflush(stdout);
  aijt_plan_destroy(&P);
  free((void *)A.rowptr);
  free((void *)A.colidx);
  matgen_free(&M);
  return 0;
}

int main(int argc, char **argv)
{
  static Bench B;
  const char  *model = AIJT_MODEL_DIR "/NVIDIA-H200.model";
  char         why[256];
  int          a = 1, fails = 0;
  aijt_err     err;

  B.reps   = 5;
  B.warmup = 1;
  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp(argv[a], "-model") && a + 1 < argc) model = argv[++a];
    else if (!strcmp(argv[a], "-reps") && a + 1 < argc) B.reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "-warmup") && a + 1 < argc) B.warmup = atoi(argv[++a]);
    else if (!strcmp(argv[a], "-print")) B.print = 1;
    else {
      fprintf(stderr, "usage: bench_setup [-model FILE] [-reps N (1..%d)] [-warmup N] [-print] [name[:size] ...]\n", MAX_REPS);
      return 2;
    }
  }
  if (B.reps < 1) B.reps = 1;
  if (B.reps > MAX_REPS) B.reps = MAX_REPS;
  if (B.warmup < 0) B.warmup = 0;
  if ((err = aijt_model_load(model, &B.model, why, sizeof(why)))) {
    fprintf(stderr, "bench_setup: %s: %s\n", model, why);
    return 1;
  }
  aijt_rules_default(&B.rules);
  printf("# bench_setup: host setup stages, ms (median of %d after %d untimed), model %s (%s)\n", B.reps, B.warmup, model, B.model.device);
  printf("%-8s %9s %10s", "matrix", "rows", "nnz");
  for (int s = 0; s < NSTAGES; s++) printf(" %8s", StageName[s]);
  printf("  model plan  digests: model plan, rules plan, layouts\n");
  if (a < argc)
    for (; a < argc; a++) fails += run(&B, argv[a]);
  else
    for (int i = 0; i < matgen_suite_count(); i++) fails += run(&B, matgen_suite(i)->name);
  return fails != 0;
}
