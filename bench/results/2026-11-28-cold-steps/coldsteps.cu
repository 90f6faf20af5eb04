/*
   Where the model planner's time goes when the host's caches are cold (../2026-11-28-stats-ab/h200-cold: 1.6-2x its
   warm time).  On one matrix, each in four states of the host's caches before every call:
     warm    nothing done between calls;
     cold    64 MiB written and read (as an assembly leaves the caches: data, code and TLB);
     code    every executable mapping of the process flushed line by line (clflush): code alone cold;
     driver  only libcuda's executable mapping flushed: the driver's code alone cold.
   It times the whole planner (aijt_dev_plan_model) with each of its steps (the planner built from a copy edited
   by ../2026-11-28-plan-steps/instr_steps.py, build.sh), and three CUDA calls the planner makes, each waited for:
   an empty kernel, cudaMallocAsync + cudaFreeAsync, a 4 KB copy to pinned memory; and parts of a launch and its
   wait: the launch call alone, the wait's call once the kernel is done (cudaStreamSynchronize, cudaStreamQuery),
   and a launch whose kernel writes a flag to mapped host memory that the host polls instead of waiting.
   Medians of 41 after 10.

     coldsteps MODEL (FILE.mtx.gz | -gen NAME[:SIZE])      COLDSTEPS_STATES=N: the first N states only
*/
#include "plan_gpu.cu"
extern "C" {
#include "matgen_aijt.h"
int  probe_read_mtx(const char *path, aijt_csr *A); /* ../2026-11-28-stats-probe/readmtx.c */
extern char aijt_steps_line[512];                  /* partition.c as build.sh edits it */
}

#include <algorithm>
#include <map>
#include <string>
#include <vector>
#include <sstream>
#include <immintrin.h>

static void check(cudaError_t e, const char *what)
{
  if (e == cudaSuccess) return;
  fprintf(stderr, "coldsteps: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

static cudaStream_t stream;

struct range {
  char *lo, *hi;
};
static std::vector<range> all_code, driver_code;

static void find_code(void)
{
  FILE *f = fopen("/proc/self/maps", "r");
  char  line[1024];
  while (f && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char          perm[8];
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 || perm[2] != 'x' || strstr(line, "[v")) continue;
    all_code.push_back({(char *)lo, (char *)hi});
    if (strstr(line, "libcuda.so")) driver_code.push_back({(char *)lo, (char *)hi});
  }
  if (f) fclose(f);
  size_t a = 0, d = 0;
  for (auto &r : all_code) a += r.hi - r.lo;
  for (auto &r : driver_code) d += r.hi - r.lo;
  printf("  code mapped: %.1f MiB in %zu ranges, libcuda's %.1f MiB\n", a / 1048576.0, all_code.size(), d / 1048576.0);
}

static int   state; /* 0 warm, 1 cold, 2 code, 3 driver */
static char *scratch;

static void flush(const std::vector<range> &rs)
{
  for (auto &r : rs)
    for (char *p = r.lo; p < r.hi; p += 64) _mm_clflush(p);
  _mm_mfence();
}

static void chill(void)
{
  const size_t bytes = 64u << 20;
  if (state == 1) {
    if (!scratch) scratch = (char *)malloc(bytes);
    memset(scratch, 3, bytes);
    volatile long sum = 0;
    for (size_t b = 0; b < bytes; b += 4096) sum += scratch[b];
  } else if (state == 2) flush(all_code);
  else if (state == 3) flush(driver_code);
}

static const char *state_name[] = {"warm", "cold", "code", "driver"};

static double median(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
static void timed(const char *name, F call, bool steps)
{
  std::vector<double>                        w;
  std::map<std::string, std::vector<double>> st;
  std::vector<std::string>                   order;
  for (int i = -10; i < 41; i++) {
    chill();
    const double h0 = wall_ms();
    call();
    check(cudaStreamSynchronize(stream), name);
    const double h1 = wall_ms();
    if (i < 0) continue;
    w.push_back(1e3 * (h1 - h0));
    if (!steps) continue;
    std::istringstream in(aijt_steps_line);
    std::string        k;
    double             v;
    while (in >> k >> v) {
      if (!st.count(k)) order.push_back(k);
      st[k].push_back(v);
    }
  }
  printf("  %-6s %-28s wall %8.1f us", state_name[state], name, median(w));
  for (auto &k : order) printf("  %s %.1f", k.c_str(), median(st[k]));
  printf("\n");
}

__global__ void empty_kernel(void) {}

/* Writes seq to *flag (the host's pinned memory, mapped) when done, as a planner's pass could instead of the
   host's wait for the stream. */
__global__ void flag_kernel(volatile unsigned *flag, unsigned seq)
{
  __threadfence_system();
  *flag = seq;
}

static void spin_us(double us)
{
  const double t0 = wall_ms();
  while (wall_ms() - t0 < 1e-3 * us) {}
}

/* The host's wall of the part of a call marked between part_begin and part_end (not the whole call). */
static double part_t0, part_us;
static void   part_begin(void) { part_t0 = wall_ms(); }
static void   part_end(void) { part_us = 1e3 * (wall_ms() - part_t0); }

template <class F>
static void timed_part(const char *name, F call)
{
  std::vector<double> w;
  for (int i = -10; i < 41; i++) {
    chill();
    call();
    check(cudaStreamSynchronize(stream), name);
    if (i >= 0) w.push_back(part_us);
  }
  printf("  %-6s %-28s part %8.1f us\n", state_name[state], name, median(w));
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
    fprintf(stderr, "usage: coldsteps MODEL (FILE.mtx.gz | -gen NAME[:SIZE])\n");
    return 2;
  }
  if (aijt_model_load(argv[1], &m, why, sizeof(why))) {
    fprintf(stderr, "coldsteps: %s: %s\n", argv[1], why);
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
  check(cudaMalloc((void **)&rowptr, ((size_t)n + 1) * sizeof(aijt_int)), "malloc");
  check(cudaMalloc((void **)&colidx, ((size_t)nnz + 1) * sizeof(aijt_int)), "malloc");
  check(cudaMemcpy(rowptr, A.rowptr, ((size_t)n + 1) * sizeof(aijt_int), cudaMemcpyHostToDevice), "up");
  check(cudaMemcpy(colidx, A.colidx, (size_t)nnz * sizeof(aijt_int), cudaMemcpyHostToDevice), "up");
  aijt_dev_csr D = {A.nrows, A.ncols, nnz, rowptr, colidx, NULL};
  aijt_rules   R;
  aijt_rules_default(&R);
  {
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "props");
    printf("# %s: %s, model %s, %lld rows, %lld entries\n", argv[argc - 1], prop.name, argv[1], (long long)n, (long long)nnz);
  }
  find_code();
  void *pinned, *dev;
  unsigned *flag, *flag_dev, seq = 0;
  check(cudaHostAlloc((void **)&flag, 64, cudaHostAllocMapped), "flag");
  check(cudaHostGetDevicePointer((void **)&flag_dev, flag, 0), "flag");
  *flag = 0;
  check(cudaMallocHost(&pinned, 4096), "pinned");
  check(cudaMalloc(&dev, 4096), "malloc");
  aijt_plan  *P = NULL;
  cudaError_t cerr;
  const int states = getenv("COLDSTEPS_STATES") ? atoi(getenv("COLDSTEPS_STATES")) : 4; /* the first this many */
  for (state = 0; state < states && state < 4; state++) {
    timed("empty kernel", [&] { empty_kernel<<<1, 32, 0, stream>>>(); }, false);
    timed("cudaMallocAsync + free", [&] { void *p; check(cudaMallocAsync(&p, 65536, stream), "mallocasync"); check(cudaFreeAsync(p, stream), "free"); }, false);
    timed("4 KB to pinned", [&] { check(cudaMemcpyAsync(pinned, dev, 4096, cudaMemcpyDeviceToHost, stream), "copy"); }, false);
    timed_part("launch call alone", [&] { part_begin(); empty_kernel<<<1, 32, 0, stream>>>(); part_end(); });
    timed_part("sync call, kernel done", [&] { empty_kernel<<<1, 32, 0, stream>>>(); spin_us(100); part_begin(); check(cudaStreamSynchronize(stream), "sync"); part_end(); });
    timed_part("query call, kernel done", [&] { empty_kernel<<<1, 32, 0, stream>>>(); spin_us(100); part_begin(); (void)cudaStreamQuery(stream); part_end(); });
    timed_part("launch + poll of a mapped flag", [&] { part_begin(); seq++; flag_kernel<<<1, 1, 0, stream>>>(flag_dev, seq); while (*(volatile unsigned *)flag != seq) {} part_end(); });
    timed_part("launch + sync (as above)", [&] { part_begin(); empty_kernel<<<1, 32, 0, stream>>>(); check(cudaStreamSynchronize(stream), "sync"); part_end(); });
    timed("whole planner", [&] { aijt_plan_destroy(&P); if (aijt_dev_plan_model(&A, &D, &R, &m, stream, &P, &cerr)) exit(1); }, true);
  }
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
