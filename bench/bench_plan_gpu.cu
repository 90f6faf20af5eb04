/*
   Planning in products: the model planner on the host (aijt_plan_model) and on the GPU
   (aijt_dev_plan_model), against the time of one product of the plan it makes, on the generated suite.
   No PETSc: the planner, the GPU build and the kernels directly.

     bench_plan_gpu [-model FILE] [-reps N] [-idle_ms T] [name[:size] ...]     default: the suite at its default sizes

   -idle_ms T leaves the GPU idle T ms before each timed GPU plan, as an application's assembly on the
   host leaves it before aijtuned plans (each plan here otherwise follows the last within milliseconds).

   Per matrix: the host planner's time and the GPU planner's (median of N after one untimed run; the
   CSR's structure is on the device before, as aijtuned uploads it before planning; the memory pool keeps
   what it frees, as in PETSc), whether the two
   plans are the same (strips, predictions, order, column order, features), the upload of the structure
   (rowptr and colidx, pageable host memory, once), then the product of that plan built on the device
   (median of 100 CUDA-event-timed calls after 10), and planning in products.  Issue 4 asks for planning
   under about 5 products on matrices over 1M entries.  Then what aijtuned's planning (its AIJTunedPlan
   event) costs with the skeleton it needs: fetch_ms, the GPU planner copying the order and column order
   back and the host skeleton after it (as before the device skeleton), and kept_ms, the GPU planner
   leaving them on the device and the skeleton's sizes (aijt_dev_plan_model_keep, aijt_dev_skeleton:
   seqaijtuned now), each also in products.
*/
#include "devcopy.h"
extern "C" { /* the planner and the generators are C */
#include "aijtmodel.h"
#include "matgen_aijt.h"
#include "wallclock.h"
}

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 51

static void check(cudaError_t e, const char *what)
{
  if (e == cudaSuccess) return;
  fprintf(stderr, "bench_plan_gpu: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

static int same_plan(const aijt_plan *a, const aijt_plan *b)
{
  const aijt_features *f = &a->features, *g = &b->features;
  return aijt_plan_equal(a, b) && a->sorted == b->sorted && f->min_len == g->min_len && f->max_len == g->max_len && f->empty_rows == g->empty_rows && f->mean_len == g->mean_len && f->std_len == g->std_len;
}

/* One product between two CUDA events, waited for (us). */
static double timed_product_us(const aijt_dev_layouts *D, const double *x, double *y, cudaEvent_t e0, cudaEvent_t e1, cudaStream_t stream)
{
  float ms;
  check(cudaEventRecord(e0, stream), "cudaEventRecord");
  check(aijt_dev_spmv(D, x, NULL, y, stream), "aijt_dev_spmv");
  check(cudaEventRecord(e1, stream), "cudaEventRecord");
  check(cudaEventSynchronize(e1), "cudaEventSynchronize");
  check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
  return 1e3 * ms;
}

/* The median time (us) of the plan's product, built on the device; with idle_ms > 0, *after_idle the
   median of reps products each after the GPU was idle that long (their own CUDA events: the GPU's time). */
static double product_us(const aijt_plan *P, const aijt_csr *A, const aijt_rules *R, int reps, int idle_ms, double *after_idle, cudaStream_t stream)
{
  aijt_layouts    *K = NULL;
  aijt_dev_layouts D;
  aijt_dev_params  o = {0, 0, 0, 1};
  double          *x, *y, t[100];
  cudaEvent_t      e0, e1;

  memset(&D, 0, sizeof(D));
  *after_idle = NAN;
  if (aijt_layouts_skeleton(P, A, &K) || !aijt_dev_build_on_device(P, K, A, &o, R->block, &D)) return -1;
  check(cudaMalloc((void **)&x, ((size_t)A->ncols + 1) * sizeof(double)), "cudaMalloc x");
  check(cudaMalloc((void **)&y, ((size_t)A->nrows + 1) * sizeof(double)), "cudaMalloc y");
  check(cudaMemset(x, 0, ((size_t)A->ncols + 1) * sizeof(double)), "cudaMemset x");
  check(cudaEventCreate(&e0), "cudaEventCreate"), check(cudaEventCreate(&e1), "cudaEventCreate");
  for (int i = -10; i < 100; i++) {
    const double us = timed_product_us(&D, x, y, e0, e1, stream);
    if (i >= 0) t[i] = us;
  }
  const double steady = median_of(t, 100);
  for (int i = 0; idle_ms > 0 && i < reps; i++) {
    wall_sleep_ms(idle_ms);
    t[i] = timed_product_us(&D, x, y, e0, e1, stream);
  }
  if (idle_ms > 0) *after_idle = median_of(t, reps);
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  cudaFree(x), cudaFree(y);
  aijt_dev_free(&D);
  aijt_layouts_destroy(&K);
  return steady;
}

/* The host skeleton of a plan with its order on the host (seconds): what aijtuned's planning did after
   the GPU planner until the order stayed on the device. */
static double skeleton_host(const aijt_plan *P, const aijt_csr *A)
{
  aijt_layouts *K  = NULL;
  double        t0 = wall_seconds();
  (void)aijt_layouts_skeleton(P, A, &K);
  t0 = wall_seconds() - t0;
  aijt_layouts_destroy(&K);
  return t0;
}

/* aijtuned's planning now (seconds): the GPU planner leaving the order and column order on the device,
   then the skeleton's sizes (SELL's slots counted there), as seqaijtuned plans; the same plan as host's. */
static double planning_kept(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, const aijt_plan *host)
{
  aijt_plan    *P = NULL;
  aijt_layouts *K = NULL;
  aijt_int     *order = NULL, *col_pos = NULL;
  cudaError_t   cerr = cudaSuccess;
  double        t0   = wall_seconds(), t;

  if (aijt_dev_plan_model_keep(A, D, R, m, stream, &P, &order, &col_pos, &cerr)) check(cerr, "aijt_dev_plan_model_keep"), exit(1);
  if (aijt_dev_skeleton_takes(P)) { /* as MatSeqAIJTunedCUDASkeleton */
    if (aijt_dev_skeleton(P, A, D->rowptr, order, stream, &K, &cerr)) check(cerr ? cerr : cudaErrorUnknown, "aijt_dev_skeleton"), exit(1);
  } else {
    check(aijt_dev_plan_fetch(P, order, col_pos, stream, &cerr) ? cudaErrorUnknown : cerr, "aijt_dev_plan_fetch");
    (void)aijt_layouts_skeleton(P, A, &K);
  }
  t = wall_seconds() - t0;
  check(aijt_dev_plan_fetch(P, order, col_pos, stream, &cerr) ? cudaErrorUnknown : cerr, "aijt_dev_plan_fetch");
  if (!same_plan(host, P)) fprintf(stderr, "bench_plan_gpu: the plan kept on the device differs\n"), exit(1);
  cudaFree(order), cudaFree(col_pos);
  aijt_layouts_destroy(&K);
  aijt_plan_destroy(&P);
  return t;
}

static int run(const char *arg, const aijt_model *m, const aijt_rules *R, int reps, int idle_ms, cudaStream_t stream)
{
  char          name[64];
  const char   *colon = strchr(arg, ':');
  int64_t       size  = colon ? atoll(colon + 1) : 0;
  matgen_csr    M;
  aijt_csr      A;
  aijt_int     *rowptr = NULL, *colidx = NULL;
  aijt_plan    *host = NULL, *dev = NULL;
  double        th[MAX_REPS], tg[MAX_REPS], to[MAX_REPS], tk[MAX_REPS], up, us, us_idle;
  cudaError_t   cerr = cudaSuccess;

  snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
  if (matgen_generate(name, size, &M) || matgen_to_aijt(&M, &A)) {
    fprintf(stderr, "bench_plan_gpu: %s: cannot generate it\n", name);
    return 1;
  }
  const size_t nnz = (size_t)A.rowptr[A.nrows];
  check(cudaMalloc((void **)&rowptr, ((size_t)A.nrows + 1) * sizeof(aijt_int)), "cudaMalloc rowptr");
  check(cudaMalloc((void **)&colidx, (nnz + 1) * sizeof(aijt_int)), "cudaMalloc colidx");
  up = wall_seconds();
  check(cudaMemcpyAsync(rowptr, A.rowptr, ((size_t)A.nrows + 1) * sizeof(aijt_int), cudaMemcpyHostToDevice, stream), "upload");
  check(cudaMemcpyAsync(colidx, A.colidx, nnz * sizeof(aijt_int), cudaMemcpyHostToDevice, stream), "upload");
  check(cudaStreamSynchronize(stream), "upload");
  up = wall_seconds() - up;
  aijt_dev_csr D = {A.nrows, A.ncols, (aijt_int)nnz, rowptr, colidx, NULL};
  for (int r = -1; r < reps; r++) {
    double t0 = wall_seconds();
    aijt_plan_destroy(&host);
    t0 = wall_seconds();
    if (aijt_plan_model(&A, R, m, &host)) {
      fprintf(stderr, "bench_plan_gpu: %s: host planner failed\n", name);
      exit(1);
    }
    if (r >= 0) th[r] = wall_seconds() - t0;
    aijt_plan_destroy(&dev);
    if (idle_ms > 0) wall_sleep_ms(idle_ms);
    t0 = wall_seconds();
    if (aijt_dev_plan_model(&A, &D, R, m, stream, &dev, &cerr)) check(cerr, "aijt_dev_plan_model"), exit(1);
    if (r >= 0) tg[r] = wall_seconds() - t0;
    if (r >= 0) to[r] = tg[r] + skeleton_host(dev, &A);
    if (idle_ms > 0) wall_sleep_ms(idle_ms);
    if (r >= 0) tk[r] = planning_kept(&A, &D, R, m, stream, host);
  }
  const int same = same_plan(host, dev);
  us = product_us(dev, &A, R, reps, idle_ms, &us_idle, stream);
  {
    aijt_int n[AIJT_NFORMATS], rows[AIJT_NFORMATS], nz[AIJT_NFORMATS];
    double   h = median_of(th, reps) * 1e3, g = median_of(tg, reps) * 1e3, o = median_of(to, reps) * 1e3, k = median_of(tk, reps) * 1e3;
    char     formats[64] = "";
    aijt_plan_summary(dev, n, rows, nz);
    for (int f = 0; f < AIJT_NFORMATS; f++)
      if (n[f]) snprintf(formats + strlen(formats), sizeof(formats) - strlen(formats), "%s%s", formats[0] ? "," : "", aijt_format_names[f]);
    printf("%-9s %9lld %10lld %9.3f %9.3f %-4s %9.3f %9.1f %9.1f %9.1f %9.3f %9.3f %7.1f %7.1f", name, (long long)A.nrows, (long long)nnz, h, g, same ? "yes" : "NO", up * 1e3, us, us > 0 ? 1e3 * h / us : NAN, us > 0 ? 1e3 * g / us : NAN, o, k,
           us > 0 ? 1e3 * o / us : NAN, us > 0 ? 1e3 * k / us : NAN);
    if (idle_ms > 0) printf(" %9.1f %7.1f", us_idle, us_idle > 0 ? 1e3 * k / us_idle : NAN);
    printf("  %s%s\n", formats, dev->col_pos ? " +cols" : "");
  }
  fflush(stdout);
  aijt_plan_destroy(&host);
  aijt_plan_destroy(&dev);
  cudaFree(rowptr), cudaFree(colidx);
  free((void *)A.rowptr), free((void *)A.colidx);
  matgen_free(&M);
  return !same;
}

int main(int argc, char **argv)
{
  const char  *path = AIJT_MODEL_DIR "/NVIDIA-H200.model";
  char         why[256];
  int          a = 1, reps = 5, idle_ms = 0, fails = 0;
  aijt_model   m;
  aijt_rules   R;
  cudaStream_t stream;

  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp(argv[a], "-model") && a + 1 < argc) path = argv[++a];
    else if (!strcmp(argv[a], "-reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "-idle_ms") && a + 1 < argc) idle_ms = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: bench_plan_gpu [-model FILE] [-reps N (1..%d)] [-idle_ms T] [name[:size] ...]\n", MAX_REPS);
      return 2;
    }
  }
  reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
  if (aijt_model_load(path, &m, why, sizeof(why))) {
    fprintf(stderr, "bench_plan_gpu: %s: %s\n", path, why);
    return 1;
  }
  aijt_rules_default(&R);
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  { /* as PETSc's device context does: the stream-ordered allocator keeps what it freed, so that an
       allocation after a wait needs no new memory from the driver */
    cudaMemPool_t pool;
    uint64_t      threshold = UINT64_MAX;
    check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "cudaMemPoolSetAttribute");
  }
  {
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    printf("# bench_plan_gpu: device %s, model %s (%s), median of %d after 1 untimed, GPU idle %d ms before each\n", prop.name, path, m.device, reps, idle_ms);
  }
  printf("%-9s %9s %10s %9s %9s %-4s %9s %9s %9s %9s %9s %9s %7s %7s", "matrix", "rows", "nnz", "host_ms", "gpu_ms", "same", "upload_ms", "spmv_us", "host_x", "gpu_x", "fetch_ms", "kept_ms", "fetch_x", "kept_x");
  if (idle_ms > 0) printf(" %9s %7s", "idle_us", "idle_x");
  printf("  %s\n", "plan");
  if (a < argc)
    for (; a < argc; a++) fails += run(argv[a], &m, &R, reps, idle_ms, stream);
  else
    for (int i = 0; i < matgen_suite_count(); i++) fails += run(matgen_suite(i)->name, &m, &R, reps, idle_ms, stream);
  cudaStreamDestroy(stream);
  aijt_dev_stage_free();
  if (fails) printf("# %d matrices planned differently on the GPU\n", fails);
  return fails ? 1 : 0;
}
