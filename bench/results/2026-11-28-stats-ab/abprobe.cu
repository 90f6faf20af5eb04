/*
   The GPU planner's lengths pass, its sort and the whole planner (aijt_dev_plan_model) on one matrix, timed in one
   process: CUDA events for the GPU's time, the host's clock for the wall (median of 101 after 10, each waited for).
   Also with the host's caches overwritten before each call, and the GPU idle.  Built from two trees' kernels/plan_gpu.cu (this file includes it) to compare them.

     abprobe MODEL (FILE.mtx.gz | -gen NAME[:SIZE])
*/
#include "plan_gpu.cu"
extern "C" {
#include "matgen_aijt.h"
int probe_read_mtx(const char *path, aijt_csr *A); /* ../2026-11-28-stats-probe/readmtx.c */
}

#include <algorithm>
#include <vector>

static void check(cudaError_t e, const char *what)
{
  if (e == cudaSuccess) return;
  fprintf(stderr, "abprobe: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

static cudaStream_t stream;
static cudaEvent_t  e0, e1;

/* Before each timed call (0: none): 1 the host's caches overwritten (64 MiB written and read), 2 that and the GPU
   left idle 2 ms, as a planning after an application's assembly finds them. */
static int   cold;
static char *scratch;

static void chill(void)
{
  const size_t bytes = 64u << 20;
  if (!cold) return;
  if (!scratch) scratch = (char *)malloc(bytes);
  memset(scratch, cold + 1, bytes);
  volatile long sum = 0;
  for (size_t b = 0; b < bytes; b += 4096) sum += scratch[b];
  if (cold == 2) {
    const double t0 = wall_ms();
    while (wall_ms() - t0 < 2.0) {}
  }
}

template <class F>
static void timed(const char *name, F launch)
{
  std::vector<double> t, w;
  for (int i = -10; i < 101; i++) {
    float ms;
    chill();
    const double h0 = wall_ms();
    check(cudaEventRecord(e0, stream), "record");
    launch();
    check(cudaGetLastError(), name);
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), name);
    const double h1 = wall_ms();
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    if (i >= 0) t.push_back(1e3 * ms), w.push_back(1e3 * (h1 - h0));
  }
  std::sort(t.begin(), t.end());
  std::sort(w.begin(), w.end());
  printf("  %-34s gpu %8.2f us (%7.2f-%7.2f)  wall %8.2f us (%7.2f-%7.2f)\n", name, t[50], t[10], t[90], w[50], w[10], w[90]);
}

int main(int argc, char **argv)
{
  aijt_csr   A;
  matgen_csr M;
  aijt_model m;
  char       why[256];

  if (argc == 4 && !strcmp(argv[2], "-gen")) {
    char        name[64];
    const char *colon = strchr(argv[3], ':');
    snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - argv[3]) : (int)strlen(argv[3]), argv[3]);
    if (matgen_generate(name, colon ? atoll(colon + 1) : 0, &M) || matgen_to_aijt(&M, &A)) return 1;
  } else if (argc != 3 || probe_read_mtx(argv[2], &A)) {
    fprintf(stderr, "usage: abprobe MODEL (FILE.mtx.gz | -gen NAME[:SIZE])\n");
    return 2;
  }
  if (aijt_model_load(argv[1], &m, why, sizeof(why))) {
    fprintf(stderr, "abprobe: %s: %s\n", argv[1], why);
    return 1;
  }
  const aijt_int n = A.nrows, nnz = A.rowptr[n];
  aijt_int      *rowptr, *colidx;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  {
    cudaMemPool_t pool;
    uint64_t      threshold = UINT64_MAX;
    check(cudaDeviceGetDefaultMemPool(&pool, 0), "pool");
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "pool");
  }
  check(cudaEventCreate(&e0), "event"), check(cudaEventCreate(&e1), "event");
  check(cudaMalloc((void **)&rowptr, ((size_t)n + 1) * sizeof(aijt_int)), "malloc");
  check(cudaMalloc((void **)&colidx, ((size_t)nnz + 1) * sizeof(aijt_int)), "malloc");
  check(cudaMemcpy(rowptr, A.rowptr, ((size_t)n + 1) * sizeof(aijt_int), cudaMemcpyHostToDevice), "up");
  check(cudaMemcpy(colidx, A.colidx, (size_t)nnz * sizeof(aijt_int), cudaMemcpyHostToDevice), "up");
  aijt_dev_csr D = {A.nrows, A.ncols, nnz, rowptr, colidx, NULL};
  aijt_rules   R;
  aijt_rules_default(&R);
  gpu_source g;
  memset(&g, 0, sizeof(g));
  g.A = &A, g.D = &D, g.stream = stream, g.R = &R;
  {
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "props");
    printf("# %s: %s, model %s, %lld rows, %lld entries\n", argv[argc - 1], prop.name, argv[1], (long long)n, (long long)nnz);
  }
  aijt_features f;
  aijt_int     *count = NULL;
  timed("lengths pass (gpu_lengths)", [&] { aijt_counts_free(count); count = NULL; g.diag_max = 0; g.natural_n = 0; if (gpu_lengths(&g, &f, &count)) exit(1); });
  aijt::count_classes k;
  if (aijt::count_sort_fits(count, f.max_len, n, &k)) {
    aijt_int *sorted;
    check(cudaMalloc((void **)&sorted, ((size_t)n + aijt::count_sort_scratch(k) + 64) * sizeof(aijt_int)), "malloc");
    timed("sort by length (count_sort)", [&] { aijt::count_sort(row_len{rowptr}, (int64_t)n, k, sorted + n + 32, sorted, stream); });
    cudaFree(sorted);
  }
  aijt_counts_free(count);
  {
    aijt_plan p;
    aijt_int  stride;
    memset(&p, 0, sizeof(p));
    p.nnz = nnz;
    if (aijt_col_order_start(&A, &R, -1, &p, &stride) && stride) {
      aijt_int *deg = NULL, *dc = NULL, maxd;
      timed("column test's sample (degrees)", [&] { aijt_counts_free(dc); dc = NULL; if (degrees(&g, stride, 0, &deg, &dc, &maxd)) exit(1); release(&g, deg); });
      aijt_counts_free(dc);
    }
  }
  aijt_plan  *P = NULL;
  cudaError_t cerr;
  timed("whole planner (aijt_dev_plan_model)", [&] { aijt_plan_destroy(&P); if (aijt_dev_plan_model(&A, &D, &R, &m, stream, &P, &cerr)) exit(1); });
  cold = 1;
  timed("whole planner, host caches cold", [&] { aijt_plan_destroy(&P); if (aijt_dev_plan_model(&A, &D, &R, &m, stream, &P, &cerr)) exit(1); });
  cold = 2;
  timed("whole planner, cold, GPU idle 2 ms", [&] { aijt_plan_destroy(&P); if (aijt_dev_plan_model(&A, &D, &R, &m, stream, &P, &cerr)) exit(1); });
  cold = 0;
  {
    unsigned long long h = 1469598103934665603ull; /* the plan's strips and order, FNV-1a */
    for (int s = 0; s < P->nstrips; s++)
      for (size_t b = 0; b < sizeof(aijt_strip); b++) h = (h ^ ((const unsigned char *)&P->strips[s])[b]) * 1099511628211ull;
    for (aijt_int i = 0; P->order && i < P->nrows; i++) h = (h ^ (unsigned long long)P->order[i]) * 1099511628211ull;
    printf("  plan: %d strips, sorted %d, col_hot %lld, digest %016llx\n", P->nstrips, P->sorted, (long long)P->col_hot, h);
  }
  aijt_plan_destroy(&P);
  return 0;
}
