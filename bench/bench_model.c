static char help[] = "The performance model on the GPU: for each matrix, the model's plan against the rules, one format for\n\
the whole matrix (each layout) and seed 003/004's fixed threads per row (TpR_mean, TpR_SqMean: one CSR strip in\n\
natural order), all run through the kernels directly in one process; the model's error per strip (each strip\n\
alone) and per plan (the fused launches); and PLUB: how far the model's plan is from the best plan measured,\n\
over the plans above and the model plan with each CSR strip's threads per row halved or doubled (the\n\
neighbours run-time tuning tries; the best of them is reported as model+tuned).\n\
  -model <file>         : the model (written by aijt_calibrate); required\n\
  -suite <a,b:size,...> : generated matrices (default: the whole suite); 'none' for files only\n\
  -f <a.mtx.gz,...>     : Matrix Market files;  -dir <d>: every *.mtx[.gz] in d\n\
  -reps <n>             : timed calls per plan, median (default 50);  -warmup <n> (default 3)\n\
  -csv <file>           : one line per plan and per strip of the model's plan (plot_model.py reads it)\n\
  -held <bool>          : time the device alone, the calls queued behind a held stream (default true; false:\n\
                          calls paced by the host's launches, as bench_spmv times them)\n\n";

#include <petscmataijtuned.h>
#include <petscdevice_cuda.h>
#include "aijtmodel.h"
#include "planbuild.h"
#include "aijttune.h"
#include "devcopy.h"
#include "benchmat.h"
#include "timing.h"

#include <math.h>
#include <time.h>

enum { V_MODEL, V_RULES, V_CSR, V_SELL, V_ELL, V_LONG, V_COO, V_DIA, V_STREAM, V_STREAM4, V_BCSR, V_TPR_MEAN, V_TPR_SQMEAN, NVARIANTS };
static const char *const VariantName[NVARIANTS] = {"model", "rules", "csr", "sell", "ell", "long", "coo", "dia", "stream", "stream4", "bcsr", "tpr_mean", "tpr_sqmean"};

#define MAX_MATRICES 512

typedef struct { /* a growing list of values */
  PetscReal *v;
  PetscInt   n, cap;
} List;

typedef struct {
  BenchTimer timer;
  PetscInt   reps, warmup;
  aijt_model model;
  FILE      *csv;
  List       strip_err, plan_err; /* the model's relative errors: each strip alone, each plan */
  PetscInt   nmat;                /* per matrix: */
  PetscReal  plub[MAX_MATRICES], vs_rules[MAX_MATRICES], vs_best_single[MAX_MATRICES], tuned_gain[MAX_MATRICES];
} Bench;

typedef struct { /* one product on the device, for BenchTimeOp */
  const aijt_dev_layouts *D;
  const double           *x;
  double                 *y;
} SpMVCtx;

static PetscErrorCode SpMVOp(void *p)
{
  SpMVCtx     *c = (SpMVCtx *)p;
  cudaStream_t s;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&s));
  PetscCallCUDA(aijt_dev_spmv(c->D, c->x, NULL, c->y, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Push(List *l, PetscReal v)
{
  PetscFunctionBegin;
  if (l->n == l->cap) {
    PetscReal *more = (PetscReal *)realloc(l->v, (size_t)(l->cap = l->cap ? 2 * l->cap : 256) * sizeof(PetscReal));
    PetscCheck(more, PETSC_COMM_SELF, PETSC_ERR_MEM, "No memory for the error list");
    l->v = more;
  }
  l->v[l->n++] = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One CSR strip over all rows in natural order with tpr threads per row. */
static PetscErrorCode PlanOneCSR(const aijt_csr *A, int tpr, aijt_plan **p)
{
  aijt_strip s;
  int        cap = 0;

  PetscFunctionBegin;
  PetscCheck(!aijt_plan_start(A, p), PETSC_COMM_SELF, PETSC_ERR_MEM, "No memory for a plan");
  PetscCall(PetscMemzero(&s, sizeof(s)));
  s.format = AIJT_CSR, s.end = A->nrows, s.nnz = (*p)->nnz, s.max_len = (*p)->features.max_len, s.tpr = tpr, s.block = 256;
  if (A->nrows) PetscCheck(!aijt_plan_append(*p, &cap, &s), PETSC_COMM_SELF, PETSC_ERR_MEM, "No memory for a plan");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int Pow2AtLeast(double v)
{
  int t = 1;
  while (t < 32 && t < v) t *= 2;
  return t;
}

/* The plan of a variant, or NULL when the variant cannot hold the matrix (DIA on many diagonals, BCSR without whole
   blocks of the matrix's block size). */
static PetscErrorCode MakePlan(Bench *B, const aijt_csr *A, int v, aijt_plan **p, double *plan_ms)
{
  aijt_rules     R;
  aijt_err       err = AIJT_OK;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  *p = NULL;
  aijt_rules_default(&R);
  PetscCall(PetscTime(&t0));
  switch (v) {
  case V_MODEL:
    err = aijt_plan_model(A, &R, &B->model, p);
    break;
  case V_TPR_MEAN:
  case V_TPR_SQMEAN: {
    aijt_features f;
    aijt_features_compute(A, &f);
    PetscCall(PlanOneCSR(A, v == V_TPR_MEAN ? Pow2AtLeast(f.mean_len) : Pow2AtLeast(ceil(sqrt(f.mean_len))), p));
  } break;
  case V_STREAM:
  case V_STREAM4: /* one STREAM strip, its sums by 1 or 4 lanes a row */
    R.allowed = AIJT_FORMAT_BIT(AIJT_STREAM);
    err       = aijt_plan_rules(A, &R, p);
    if (!err && v == V_STREAM4)
      for (int s = 0; s < (*p)->nstrips; s++) (*p)->strips[s].tpr = 4;
    break;
  default:
    if (v != V_RULES) R.allowed = AIJT_FORMAT_BIT(v == V_CSR ? AIJT_CSR : v == V_SELL ? AIJT_SELL : v == V_ELL ? AIJT_ELL : v == V_LONG ? AIJT_LONG : v == V_COO ? AIJT_COO : v == V_BCSR ? AIJT_BCSR : AIJT_DIA);
    err = aijt_plan_rules(A, &R, p);
  }
  PetscCall(PetscTime(&t1));
  *plan_ms = 1e3 * (t1 - t0);
  if (err) *p = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Median time of the plan's product (us) and its error against the host product. */
static PetscErrorCode TimeLayouts(Bench *B, const aijt_dev_layouts *D, const double *x, double *y, const double *yref, aijt_int n, PetscReal *us, PetscReal *err)
{
  SpMVCtx c = {D, x, y};
  double *h, ymax = 0, dmax = 0;

  PetscFunctionBegin;
  PetscCall(BenchTimeOp(B->timer, SpMVOp, &c, B->warmup, B->reps, us));
  PetscCall(PetscMalloc1(n + 1, &h));
  PetscCallCUDA(cudaMemset(y, 0xff, (size_t)n * sizeof(double))); /* NaN: a row never written shows */
  PetscCall(SpMVOp(&c));
  PetscCallCUDA(cudaMemcpy(h, y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  for (aijt_int i = 0; i < n; i++) {
    ymax = PetscMax(ymax, fabs(yref[i]));
    dmax = PetscMax(dmax, isnan(h[i]) ? INFINITY : fabs(h[i] - yref[i]));
  }
  *err = ymax > 0 ? dmax / ymax : dmax;
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each strip of the model's plan alone against its prediction; then the neighbours of its CSR strips. */
static PetscErrorCode StripsAndNeighbours(Bench *B, const char *name, const aijt_plan *P, aijt_dev_layouts *D, const double *x, double *y, PetscReal t_plan, PetscReal *t_tuned, PetscInt *tries)
{
  PetscFunctionBegin;
  if (D->hot) { /* a strip alone reads the hot columns' copy of x, gathered once here: x does not change */
    PetscCallCUDA(aijt_cuda_gather(D->nhot, D->hot, x, D->xhot, 0));
    PetscCallCUDA(cudaDeviceSynchronize());
  }
  for (int k = 0; k < P->nstrips; k++) {
    const aijt_strip *S   = &P->strips[k];
    aijt_dev_layouts  one = {1, &D->strips[k], {0}};
    PetscReal         us = 0, err;
    int               param = S->format == AIJT_CSR || S->format == AIJT_STREAM ? S->tpr : S->format == AIJT_LONG ? S->blocks_per_row : S->format == AIJT_SELL ? S->chunk : (int)S->width;
    if (S->format != AIJT_COO && !S->tail_nnz) { /* the tail is shared: strips that feed it are not alone */
      SpMVCtx c = {&one, x, y};
      PetscCall(BenchTimeOp(B->timer, SpMVOp, &c, B->warmup, B->reps, &us));
      if (S->predicted_us > 0) {
        err = PetscAbsReal(S->predicted_us - us) / us;
        PetscCall(Push(&B->strip_err, err));
      }
    }
    if (B->csv) fprintf(B->csv, "strip,%s,%d,%lld,%lld,%s,%d,%lld,%lld,%.4g,%.4g\n", name, k, (long long)S->begin, (long long)S->end, aijt_format_names[S->format], param, (long long)S->max_len, (long long)(S->nnz + S->tail_nnz), S->predicted_us, (double)us);
  }
  /* coordinate descent over the CSR strips' threads per row (STREAM's lanes per row: 1 or 4), as run-time
     tuning would try them */
  *t_tuned = t_plan;
  *tries   = 0;
  for (int k = 0; k < P->nstrips; k++) {
    aijt_dev_strip *d = &D->strips[k];
    if (d->format != AIJT_CSR && d->format != AIJT_STREAM) continue;
    int best = d->tpr, cand[2], ncand = aijt_tune_candidates(&P->strips[k], cand); /* the tuner's own */
    for (int c = 0; c < ncand; c++) {
      PetscReal us;
      SpMVCtx   ctx = {D, x, y};
      d->tpr = cand[c];
      PetscCall(BenchTimeOp(B->timer, SpMVOp, &ctx, B->warmup, B->reps, &us));
      (*tries)++;
      if (us < 0.99 * *t_tuned) *t_tuned = us, best = cand[c];
    }
    d->tpr = best;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchMatrix(Bench *B, const char *name, const matgen_csr *M)
{
  aijt_int  *rp, *col;
  double    *yref, *hx, *dx, *dy;
  aijt_csr   A;
  PetscReal  us[NVARIANTS], pred[NVARIANTS], t_tuned = 0, best = INFINITY, best_single = INFINITY;
  double     plan_ms[NVARIANTS];
  int        nstrips[NVARIANTS];
  PetscInt   tries = 0;

  PetscFunctionBegin;
  PetscCheck(M->nnz < INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: %lld entries do not fit 32-bit indices", name, (long long)M->nnz);
  PetscCall(PetscMalloc4(M->nrows + 1, &rp, M->nnz + 1, &col, M->nrows + 1, &yref, M->ncols + 1, &hx));
  for (int64_t i = 0; i <= M->nrows; i++) rp[i] = (aijt_int)M->rowptr[i];
  for (int64_t k = 0; k < M->nnz; k++) col[k] = (aijt_int)M->col[k];
  for (int64_t j = 0; j < M->ncols; j++) hx[j] = matgen_unit(7, j);
  matgen_spmv(M, hx, yref);
  A.nrows = (aijt_int)M->nrows, A.ncols = (aijt_int)M->ncols, A.rowptr = rp, A.colidx = col, A.values = M->val, A.col_pos = NULL, A.col_hot = 0, A.bs = M->bs;
  PetscCallCUDA(cudaMalloc((void **)&dx, (size_t)(M->ncols + 1) * sizeof(double)));
  PetscCallCUDA(cudaMalloc((void **)&dy, (size_t)(M->nrows + 1) * sizeof(double)));
  PetscCallCUDA(cudaMemcpy(dx, hx, (size_t)M->ncols * sizeof(double), cudaMemcpyHostToDevice));

  for (int v = 0; v < NVARIANTS; v++) {
    aijt_plan       *P = NULL;
    aijt_layouts    *L = NULL;
    aijt_dev_layouts D;
    PetscReal        err = 0;

    us[v] = pred[v] = INFINITY;
    nstrips[v]      = 0;
    PetscCall(MakePlan(B, &A, v, &P, &plan_ms[v]));
    if (!P || aijt_layouts_build(P, &A, &L)) {
      aijt_plan_destroy(&P);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-10s cannot hold this matrix\n", name, VariantName[v]));
      continue;
    }
    pred[v]    = aijt_plan_predict(&B->model, &A, P);
    nstrips[v] = P->nstrips;
    PetscCheck(aijt_dev_upload(P, L, NULL, 256, &D), PETSC_COMM_SELF, PETSC_ERR_MEM, "%s: cannot upload the %s plan", name, VariantName[v]);
    PetscCall(TimeLayouts(B, &D, dx, dy, yref, A.nrows, &us[v], &err));
    PetscCheck(err < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the %s plan's product differs from the host product by %g", name, VariantName[v], (double)err);
    if (v == V_MODEL) PetscCall(StripsAndNeighbours(B, name, P, &D, dx, dy, us[v], &t_tuned, &tries));
    PetscCheck(aijt_dev_free(&D), PETSC_COMM_SELF, PETSC_ERR_LIB, "cudaFree failed");
    aijt_layouts_destroy(&L);
    aijt_plan_destroy(&P);
    if (B->csv) fprintf(B->csv, "plan,%s,%s,%d,%.4g,%.4g,%.3g\n", name, VariantName[v], nstrips[v], (double)pred[v], (double)us[v], (double)plan_ms[v]);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-10s %3d strips  %9.1f us  predicted %9.1f us  plan %8.2f ms  diff %.1e\n", name, VariantName[v], nstrips[v], (double)us[v], (double)pred[v], plan_ms[v], (double)err));
    if (isfinite(us[v])) {
      best = PetscMin(best, us[v]);
      if (v >= V_CSR && v <= V_BCSR) best_single = PetscMin(best_single, us[v]);
      PetscCall(Push(&B->plan_err, PetscAbsReal(pred[v] - us[v]) / us[v]));
    }
  }
  best = PetscMin(best, t_tuned);
  PetscCheck(B->nmat < MAX_MATRICES, PETSC_COMM_SELF, PETSC_ERR_SUP, "More than %d matrices", MAX_MATRICES);
  B->plub[B->nmat]           = (us[V_MODEL] - best) / best;
  B->vs_rules[B->nmat]       = us[V_RULES] / us[V_MODEL];
  B->vs_best_single[B->nmat] = best_single / us[V_MODEL];
  B->tuned_gain[B->nmat++]   = us[V_MODEL] / t_tuned;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] model %.1f us, tuned %.1f us (%" PetscInt_FMT " neighbours tried), best measured %.1f us: PLUB %.1f%%; rules / model %.2f, best one format / model %.2f; planning %.2f ms = %.0f products\n", name, (double)us[V_MODEL],
                        (double)t_tuned, tries, (double)best, 100.0 * (double)((us[V_MODEL] - best) / best), (double)(us[V_RULES] / us[V_MODEL]), (double)(best_single / us[V_MODEL]), plan_ms[V_MODEL], 1e3 * plan_ms[V_MODEL] / (double)us[V_MODEL]));
  if (B->csv) fprintf(B->csv, "matrix,%s,%lld,%lld,%.4g,%.4g,%.4g\n", name, (long long)M->nrows, (long long)M->nnz, (double)us[V_MODEL], (double)t_tuned, (double)best);
  PetscCallCUDA(cudaFree(dx));
  PetscCallCUDA(cudaFree(dy));
  PetscCall(PetscFree4(rp, col, yref, hx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return (x > y) - (x < y);
}

static PetscReal Quantile(PetscReal *v, PetscInt n, double q)
{
  if (!n) return NAN;
  qsort(v, (size_t)n, sizeof(PetscReal), CmpReal);
  return v[(PetscInt)PetscMin(n - 1, (PetscInt)floor(q * (double)(n - 1) + 0.5))];
}

static PetscReal GeoMean(const PetscReal *v, PetscInt n, PetscReal *lo)
{
  double s = 0;
  *lo      = INFINITY;
  for (PetscInt i = 0; i < n; i++) s += log(v[i]), *lo = PetscMin(*lo, v[i]);
  return n ? exp(s / n) : NAN;
}

int main(int argc, char **argv)
{
  Bench     B;
  char      model_file[PETSC_MAX_PATH_LEN] = "", suite[4096] = "", files[8192] = "", dir[PETSC_MAX_PATH_LEN] = "", csv[PETSC_MAX_PATH_LEN] = "", why[256];
  PetscBool has_suite, has_files, has_dir, has_csv, held = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscMemzero(&B, sizeof(B)));
  B.reps = 50, B.warmup = 3;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-model", model_file, sizeof(model_file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-suite", suite, sizeof(suite), &has_suite));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", files, sizeof(files), &has_files));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), &has_dir));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), &has_csv));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &B.reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &B.warmup, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-held", &held, NULL));
  PetscCheck(model_file[0], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Give the model: -model models/<device>.model");
  PetscCheck(aijt_model_load(model_file, &B.model, why, sizeof(why)) == AIJT_OK, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: %s", model_file, why);
  PetscCall(BenchTimerCreate(B.reps, &B.timer));
  PetscCall(BenchTimerSetHeld(B.timer, held));
  if (has_csv) B.csv = fopen(csv, "w");
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "model %s (%s); %" PetscInt_FMT " timed calls per plan, median, %s\n", model_file, B.model.device, B.reps, held ? "the device alone (queued behind a held stream)" : "paced by the host's launches"));

  /* generated matrices, then files */
  if (!has_suite || strcmp(suite, "none")) {
    char *list = has_suite ? suite : NULL, *tok, *save = NULL;
    if (!list) { /* the whole suite */
      size_t at = 0;
      for (int i = 0; i < matgen_suite_count(); i++) at += (size_t)snprintf(suite + at, sizeof(suite) - at, "%s%s", i ? "," : "", matgen_suite(i)->name);
      list = suite;
    }
    for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      matgen_csr M;
      char       name[128];
      BenchClass cls;
      PetscCall(BenchCSRGenerate(tok, &M, name, sizeof(name), &cls));
      PetscCall(BenchMatrix(&B, name, &M));
      matgen_free(&M);
    }
  }
  {
    PetscInt n = 0, cap = 0;
    char   **names = NULL, *tok, *save = NULL;
    if (has_dir) PetscCall(BenchListFiles(dir, &n, &names));
    cap = n;
    if (has_files)
      for (tok = strtok_r(files, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) PetscCall(BenchListAppend(tok, &n, &cap, &names));
    for (PetscInt i = 0; i < n; i++) {
      matgen_csr M;
      char       name[128];
      PetscCall(BenchCSRLoad(names[i], &M, name, sizeof(name)));
      PetscCall(BenchMatrix(&B, name, &M));
      matgen_free(&M);
    }
    PetscCall(BenchFreeList(n, &names));
  }
  {
    PetscReal lo, g;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nsummary over %" PetscInt_FMT " matrices (model %s)\n", B.nmat, B.model.device));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  model error per strip alone:  median %.1f%%, 90th percentile %.1f%% (%" PetscInt_FMT " strips)\n", 100 * (double)Quantile(B.strip_err.v, B.strip_err.n, 0.5), 100 * (double)Quantile(B.strip_err.v, B.strip_err.n, 0.9), B.strip_err.n));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  model error per plan:         median %.1f%%, 90th percentile %.1f%% (%" PetscInt_FMT " plans of every variant)\n", 100 * (double)Quantile(B.plan_err.v, B.plan_err.n, 0.5), 100 * (double)Quantile(B.plan_err.v, B.plan_err.n, 0.9), B.plan_err.n));
    double sum = 0, worst = 0;
    for (PetscInt i = 0; i < B.nmat; i++) sum += B.plub[i], worst = PetscMax(worst, B.plub[i]);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  PLUB (model plan vs best measured): mean %.1f%%, worst %.1f%%\n", B.nmat ? 100 * sum / B.nmat : NAN, 100 * worst));
    g = GeoMean(B.vs_rules, B.nmat, &lo);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rules time / model time:          geomean %.3f, lowest %.3f\n", (double)g, (double)lo));
    g = GeoMean(B.vs_best_single, B.nmat, &lo);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  best one-format time / model time: geomean %.3f, lowest %.3f\n", (double)g, (double)lo));
    g = GeoMean(B.tuned_gain, B.nmat, &lo);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  model time / model+tuned time:     geomean %.3f, lowest %.3f\n", (double)g, (double)lo));
  }
  if (B.csv) fclose(B.csv);
  PetscCall(BenchTimerDestroy(&B.timer));
  free(B.strip_err.v);
  free(B.plan_err.v);
  PetscCall(PetscFinalize());
  return 0;
}
