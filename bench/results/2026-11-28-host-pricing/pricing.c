/* The model planner's host work alone, as the GPU planner leaves it to the host: its passes over rows and entries
   answered from a recording.  pricing REPS FILE...: for each Matrix Market file, one planning through the host's
   source records what each pass returns, then REPS plannings replay those answers (no pass over the matrix), with
   the H100 and the H200 models; prints the plan's digest (strips, predictions, column order, SELL slots: the order stays
   with the source, as the GPU's keeps it) and
   the least and median us of a planning.  Built against a tree's plan sources:
     cc -std=gnu99 -O3 -I$P pricing.c $P/[a-z]*.c -lm -o pricing   (P: src/mat/impls/tuned/plan) */
#include "aijtmodel.h"
#include "readmtx.h"
#include "planbuild.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static int    cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static void mix(uint64_t *h, const void *p, size_t n) { const unsigned char *c = p; for (size_t i = 0; i < n; i++) *h = (*h ^ c[i]) * 1099511628211ull; }

/* the recording: each op's answers in call order */
#define MAXCALLS 64
typedef struct {
  aijt_plan_source host;
  int              replay, calls;
  struct { aijt_features f; aijt_int *count; size_t ncount; int ret; aijt_int off[64]; aijt_int hot; aijt_int *pos; aijt_int *order; int n; int *distinct; } rec[MAXCALLS];
  aijt_int         nrows, ncols;
} recorder;

static aijt_err r_lengths(void *ctx, aijt_features *f, aijt_int **count)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) {
    aijt_err e = R->host.lengths(R->host.ctx, f, count);
    R->rec[k].f = *f; R->rec[k].ncount = (size_t)f->max_len + 1;
    R->rec[k].count = malloc(R->rec[k].ncount * sizeof(aijt_int)); memcpy(R->rec[k].count, *count, R->rec[k].ncount * sizeof(aijt_int));
    return e;
  }
  *f = R->rec[k].f;
  *count = aijt_counts_new(R->rec[k].ncount);
  memcpy(*count, R->rec[k].count, R->rec[k].ncount * sizeof(aijt_int));
  return AIJT_OK;
}
static int r_diagonals(void *ctx, int max, aijt_int *off)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) { R->rec[k].ret = R->host.diagonals(R->host.ctx, max, off); if (R->rec[k].ret > 0) memcpy(R->rec[k].off, off, R->rec[k].ret * sizeof(aijt_int)); return R->rec[k].ret; }
  if (R->rec[k].ret > 0) memcpy(off, R->rec[k].off, R->rec[k].ret * sizeof(aijt_int));
  return R->rec[k].ret;
}
static int r_blocks(void *ctx, int bs)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) return R->rec[k].ret = R->host.blocks(R->host.ctx, bs);
  return R->rec[k].ret;
}
static aijt_err r_columns(void *ctx, const aijt_rules *Ru, int nd, aijt_plan *p)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) {
    aijt_err e = R->host.columns(R->host.ctx, Ru, nd, p);
    R->rec[k].hot = p->col_hot; R->rec[k].pos = NULL;
    if (p->col_pos) { R->rec[k].pos = malloc(((size_t)R->ncols + 1) * sizeof(aijt_int)); memcpy(R->rec[k].pos, p->col_pos, (size_t)R->ncols * sizeof(aijt_int)); }
    return e;
  }
  aijt_plan_drop_col_order(p);
  p->col_hot = R->rec[k].hot;
  if (R->rec[k].pos) { p->col_pos = malloc(((size_t)R->ncols + 1) * sizeof(aijt_int)); memcpy(p->col_pos, R->rec[k].pos, (size_t)R->ncols * sizeof(aijt_int)); }
  return AIJT_OK;
}
static aijt_err r_rows(void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) { aijt_err e = R->host.rows(R->host.ctx, max_len, count, order); R->rec[k].order = malloc(((size_t)R->nrows + 1) * sizeof(aijt_int)); memcpy(R->rec[k].order, *order, (size_t)R->nrows * sizeof(aijt_int)); return e; }
  *order = NULL; /* as the GPU's source leaves it, on the device until fetch */
  return AIJT_OK;
}
static aijt_err r_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct)
{
  recorder *R = ctx; int k = R->calls++;
  if (!R->replay) { aijt_err e = R->host.sectors(R->host.ctx, p, w, n, distinct); R->rec[k].n = n; R->rec[k].distinct = malloc((size_t)n * sizeof(int)); memcpy(R->rec[k].distinct, distinct, (size_t)n * sizeof(int)); return e; }
  if (n != R->rec[k].n) { fprintf(stderr, "replay: sectors call %d asks %d windows, recorded %d\n", k, n, R->rec[k].n); exit(1); }
  memcpy(distinct, R->rec[k].distinct, (size_t)n * sizeof(int));
  return AIJT_OK;
}

int main(int argc, char **argv)
{
  const char *models[2] = {"/work/main/models/NVIDIA-H100-80GB-HBM3.model", "/work/main/models/NVIDIA-H200.model"};
  aijt_model  M[2];
  char        why[256];
  int         reps = atoi(argv[1]);
  for (int q = 0; q < 2; q++) if (aijt_model_load(models[q], &M[q], why, sizeof why)) { printf("model: %s\n", why); return 1; }
  for (int a = 2; a < argc; a++) {
    aijt_csr A;
    if (read_mtx(argv[a], &A)) { printf("%s: cannot read\n", argv[a]); return 1; }
    const int m = (int)A.nrows, n = (int)A.ncols;
    aijt_rules Ru; aijt_rules_default(&Ru);
    const char *b = strrchr(argv[a], '/'); b = b ? b + 1 : argv[a];
    printf("%-40s", b);
    for (int q = 0; q < 2; q++) {
      static recorder R; memset(&R, 0, sizeof R);
      aijt_plan_source_host(&A, &R.host); R.nrows = m; R.ncols = n;
      aijt_plan_source src = {&R, r_lengths, r_diagonals, r_blocks, r_columns, r_rows, r_sectors, NULL};
      aijt_plan *p; uint64_t h = 14695981039346656037ull; double *t = malloc(sizeof(double) * (reps + 1));
      if (aijt_plan_model_from(&A, &src, &Ru, &M[q], &p)) { printf(" plan failed\n"); return 1; }
      aijt_plan_destroy(&p);
      R.replay = 1;
      for (int r = 0; r < reps; r++) {
        R.calls = 0;
        double t0 = now();
        if (aijt_plan_model_from(&A, &src, &Ru, &M[q], &p)) { printf(" replay failed\n"); return 1; }
        t[r] = now() - t0;
        if (r == 0) {
          mix(&h, &p->sorted, sizeof p->sorted); mix(&h, &p->nstrips, sizeof p->nstrips); mix(&h, &p->tail_nnz, sizeof p->tail_nnz); mix(&h, &p->col_hot, sizeof p->col_hot);
          for (int s = 0; s < p->nstrips; s++) {
            aijt_strip *S = &p->strips[s];
            mix(&h, &S->format, sizeof S->format); mix(&h, &S->begin, sizeof S->begin); mix(&h, &S->end, sizeof S->end); mix(&h, &S->nnz, sizeof S->nnz); mix(&h, &S->tail_nnz, sizeof S->tail_nnz);
            mix(&h, &S->max_len, sizeof S->max_len); mix(&h, &S->tpr, sizeof S->tpr); mix(&h, &S->block, sizeof S->block); mix(&h, &S->blocks_per_row, sizeof S->blocks_per_row);
            mix(&h, &S->width, sizeof S->width); mix(&h, &S->chunk, sizeof S->chunk); mix(&h, &S->sigma, sizeof S->sigma); mix(&h, &S->predicted_us, sizeof S->predicted_us); mix(&h, &S->slots, sizeof S->slots);
          }
          if (p->order) mix(&h, p->order, sizeof(aijt_int) * m);
          if (p->col_pos) mix(&h, p->col_pos, sizeof(aijt_int) * n);
        }
        aijt_plan_destroy(&p);
      }
      qsort(t, reps, sizeof(double), cmpd);
      printf(" %016llx %7.1f %7.1f us", (unsigned long long)h, t[0], t[reps / 2]);
      free(t);
    }
    printf("\n");
    free_mtx(&A);
  }
  return 0;
}
