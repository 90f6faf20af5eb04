/*
   Where the GPU planner's fixed costs go: each pass's kernels launched alone on one matrix, timed on the
   device with CUDA events (median of 101 launches after 10, each waited for, as the planner waits), with
   variants of the statistics' kernel.  The planner's own kernels: this file includes kernels/plan_gpu.cu.

     probe FILE.mtx.gz | probe -gen NAME[:SIZE]
*/
#include "plan_gpu.cu"
extern "C" {
#include "matgen_aijt.h"
int probe_read_mtx(const char *path, aijt_csr *A); /* readmtx.c */
}

#include <algorithm>
#include <vector>

static void check(cudaError_t e, const char *what)
{
  if (e == cudaSuccess) return;
  fprintf(stderr, "probe: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

__global__ void empty_kernel(int *sink)
{
  if (threadIdx.x == 1023 && blockIdx.x == 1u << 30) *sink = 1;
}

/* A block that keeps one multiprocessor busy until *stop (host memory, mapped) or max_ns pass: whether the device
   runs short kernels faster while something else keeps it active.  sleep_ns > 0: it naps between its polls. */
__global__ void spin_kernel(const volatile int *stop, unsigned long long max_ns, unsigned sleep_ns)
{
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    if (sleep_ns) __nanosleep(sleep_ns);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (!*stop && t - t0 < max_ns);
}

/* stats_body with parts left out (mask): 1 the value loads (i itself), 2 the warp's match and shared count,
   4 the block's tree of sums, 8 the five global atomics, 16 the histogram's flush; 32: sums by warp shuffles
   instead of the tree. */
template <int MASK, class V>
__global__ void stats_variant(V value, aijt_int n, value_stats *out, unsigned *done, value_stats *result)
{
  __shared__ unsigned long long s1[SETUP_BLOCK], s2[SETUP_BLOCK], z[SETUP_BLOCK], lo[SETUP_BLOCK], hi[SETUP_BLOCK];
  __shared__ aijt_int           sh[HIST_SHARED];
  unsigned long long            a = 0, b = 0, e = 0, l = 0, h = 0;
  const unsigned                t = threadIdx.x;

  for (unsigned q = t; q < HIST_SHARED; q += blockDim.x) sh[q] = 0;
  __syncthreads();
  WARP_STRIDE(i, n, blockIdx.x, gridDim.x)
  {
    const long long v = i < n ? (MASK & 1 ? (long long)(i & 63) : (long long)value(i)) : -1;
    if (v >= 0) {
      const unsigned long long u = (unsigned long long)v;
      a += u, b += u * u, e += u == 0;
      l = ~u > l ? ~u : l;
      h = u > h ? u : h;
    }
    if (!(MASK & 2)) warp_count(v < HIST_SHARED ? (aijt_int)v : -1, sh, HIST_SHARED, NULL);
    else if (v >= 0 && v < HIST_SHARED && (t & 31) == 0) atomicAdd((int *)&sh[v], 1);
    if (v >= HIST_SHARED) {
      const unsigned long long at = atomicAdd(&out->nlong, 1ull);
      if (at < LONG_LISTED) out->longs[at] = (aijt_int)v;
    }
  }
  if (MASK & 32) {
    for (int o = 16; o > 0; o /= 2) {
      a += __shfl_down_sync(0xffffffffu, a, o), b += __shfl_down_sync(0xffffffffu, b, o), e += __shfl_down_sync(0xffffffffu, e, o);
      unsigned long long lo2 = __shfl_down_sync(0xffffffffu, l, o), hi2 = __shfl_down_sync(0xffffffffu, h, o);
      l = lo2 > l ? lo2 : l, h = hi2 > h ? hi2 : h;
    }
    if ((t & 31) == 0) s1[t / 32] = a, s2[t / 32] = b, z[t / 32] = e, lo[t / 32] = l, hi[t / 32] = h;
    __syncthreads();
    if (t == 0) {
      for (unsigned w = 1; w < SETUP_BLOCK / 32; w++) s1[0] += s1[w], s2[0] += s2[w], z[0] += z[w], lo[0] = lo[w] > lo[0] ? lo[w] : lo[0], hi[0] = hi[w] > hi[0] ? hi[w] : hi[0];
    }
  } else if (!(MASK & 4)) {
    s1[t] = a, s2[t] = b, z[t] = e, lo[t] = l, hi[t] = h;
    __syncthreads();
    for (unsigned q = SETUP_BLOCK / 2; q > 0; q /= 2) {
      if (t < q) {
        s1[t] += s1[t + q], s2[t] += s2[t + q], z[t] += z[t + q];
        lo[t] = lo[t + q] > lo[t] ? lo[t + q] : lo[t];
        hi[t] = hi[t + q] > hi[t] ? hi[t + q] : hi[t];
      }
      __syncthreads();
    }
  } else if (t == 0) s1[0] = a, s2[0] = b, z[0] = e, lo[0] = l, hi[0] = h;
  if (t == 0 && !(MASK & 8)) {
    atomicAdd(&out->s1, s1[0]);
    atomicAdd(&out->s2, s2[0]);
    atomicAdd(&out->zeros, z[0]);
    atomicMax(&out->lo_c, lo[0]);
    atomicMax(&out->hi, hi[0]);
  }
  __syncthreads();
  if (!(MASK & 16))
    for (unsigned q = t; q < HIST_SHARED; q += blockDim.x)
      if (sh[q]) add_count(&out->hist[q], sh[q]);
  finish_stats(out, done, result);
}

/* diagonals_body without the global flag's poll at each row (the block's own flag only). */
__global__ void diag_nopoll_kernel(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, diag_set *d)
{
  __shared__ aijt_int set[SET_SLOTS];
  __shared__ int      n, block_over;
  int *const          over = &d->over;
  for (unsigned s = threadIdx.x; s < SET_SLOTS; s += blockDim.x) set[s] = SET_EMPTY;
  if (threadIdx.x == 0) n = block_over = 0;
  __syncthreads();
  for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < (int64_t)nrows; r += (int64_t)gridDim.x * blockDim.x) {
    if (*(volatile int *)&block_over) break;
    const aijt_int e  = rowptr[r + 1];
    bool           go = true;
    for (aijt_int k = rowptr[r]; k < e && go; k += DIAG_LOADS) {
      aijt_int c[DIAG_LOADS];
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++) c[u] = k + u < e ? colidx[k + u] : 0;
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++)
        if (go && k + u < e) go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, c[u] - (aijt_int)r);
    }
    if (!go) break;
  }
}

/* An empty kernel with BYTES of static shared memory (touched only by a thread that never runs). */
template <int BYTES>
__global__ void empty_shared_kernel(int *sink)
{
  __shared__ char pad[BYTES];
  if (threadIdx.x == 1023 && blockIdx.x == 1u << 30) {
    pad[sink[0]] = 1;
    __syncthreads();
    *sink = pad[sink[1]];
  }
}

static cudaStream_t stream;
static cudaEvent_t  e0, e1;

/* GPU time (us) of what launch() queues, median of 101 after 10, each waited for; wall: the host's median. */
template <class F>
static double timed(const char *name, F launch, double *wall_us = NULL)
{
  std::vector<double> t, w;
  for (int i = -10; i < 101; i++) {
    float        ms;
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
  printf("  %-46s gpu %8.2f us (%7.2f-%7.2f)  wall %8.2f us\n", name, t[50], t[10], t[90], w[50]);
  if (wall_us) *wall_us = w[50];
  return t[50];
}

int main(int argc, char **argv)
{
  aijt_csr   A;
  matgen_csr M;
  char       label[256];

  if (argc == 3 && !strcmp(argv[1], "-gen")) {
    char name[64];
    const char *colon = strchr(argv[2], ':');
    snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - argv[2]) : (int)strlen(argv[2]), argv[2]);
    if (matgen_generate(name, colon ? atoll(colon + 1) : 0, &M) || matgen_to_aijt(&M, &A)) return 1;
    snprintf(label, sizeof(label), "%s", argv[2]);
  } else if (argc == 2) {
    if (probe_read_mtx(argv[1], &A)) return 1;
    snprintf(label, sizeof(label), "%s", argv[1]);
  } else {
    fprintf(stderr, "usage: probe FILE.mtx.gz | probe -gen NAME[:SIZE]\n");
    return 2;
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
    printf("# %s: %s, %lld rows, %lld cols, %lld entries, %d SMs\n", label, prop.name, (long long)n, (long long)A.ncols, (long long)nnz, prop.multiProcessorCount);
  }

  value_stats *acc, *host, *hostd;
  unsigned    *done;
  int         *sink;
  check(cudaMalloc((void **)&acc, sizeof(value_stats)), "malloc");
  check(cudaMalloc((void **)&done, sizeof(unsigned)), "malloc");
  check(cudaMalloc((void **)&sink, sizeof(int)), "malloc");
  check(cudaMemset(acc, 0, sizeof(value_stats)), "memset"), check(cudaMemset(done, 0, sizeof(unsigned)), "memset");
  check(cudaHostAlloc((void **)&host, sizeof(value_stats), cudaHostAllocMapped), "hostalloc");
  check(cudaHostGetDevicePointer((void **)&hostd, host, 0), "hostptr");
  const unsigned nstat = setup_blocks(n) < STAT_BLOCKS ? setup_blocks(n) : STAT_BLOCKS, ndiag = diag_blocks(&g);
  printf("# stats blocks %u, diagonal blocks %u\n", nstat, ndiag);
  const row_len len{rowptr};

  puts("## the planner's own passes (host wall includes launches and waits)");
  {
    aijt_features f;
    aijt_int     *count = NULL;
    double        wall;
    timed("gpu_lengths (stats+diag+natural windows)", [&] { aijt_counts_free(count); count = NULL; g.diag_max = 0; if (gpu_lengths(&g, &f, &count)) exit(1); }, &wall);
    aijt_counts_free(count);
  }

  puts("## the statistics' kernel alone (acc zeroed by the kernel's last block, result to mapped host memory)");
  timed("empty kernel, 1 block", [&] { empty_kernel<<<1, 256, 0, stream>>>(sink); });
  timed("empty kernel, nstat blocks", [&] { empty_kernel<<<nstat, 256, 0, stream>>>(sink); });
  timed("stats_kernel nstat, finish to host", [&] { stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
  {
    const unsigned tries[] = {33, 66, 132, 264, 528, 1024, 2048};
    for (unsigned b : tries) {
      char name[96];
      if (b > setup_blocks(n)) continue;
      snprintf(name, sizeof(name), "stats_kernel %u blocks, finish to host", b);
      timed(name, [&] { stats_kernel<<<b, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
    }
  }
  timed("stats_kernel nstat, finish to device acc copy", [&] { stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, acc + 0); });
  timed("stats_kernel nstat, no finish (+memset acc)", [&] { cudaMemsetAsync(acc, 0, offsetof(value_stats, longs), stream); stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, NULL, NULL); });
  timed("memset acc header+hist only", [&] { cudaMemsetAsync(acc, 0, offsetof(value_stats, longs), stream); });
  check(cudaMemset(acc, 0, sizeof(value_stats)), "memset");
  timed("stats_diag_kernel (as the lengths pass)", [&] { stats_diag_kernel<<<nstat + ndiag, SETUP_BLOCK, 0, stream>>>(len, n, acc, rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, nstat, ndiag, done, hostd); });
  {
    diag_set *d;
    check(cudaMalloc((void **)&d, sizeof(diag_set)), "malloc");
    timed("diagonals_kernel alone (+memset set)", [&] { cudaMemsetAsync(d, 0, sizeof(diag_set), stream); diagonals_kernel<<<ndiag, SETUP_BLOCK, 0, stream>>>(rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, d); });
    cudaFree(d);
  }
  {
    int  nnat = aijt_natural_windows(&A, &R, g.natural_w.w), *dist;
    check(cudaMalloc((void **)&dist, 64 * sizeof(int)), "malloc");
    if (nnat > 0) timed("natural_sectors_kernel", [&] { natural_launch(&g, nnat, dist); });
    cudaFree(dist);
  }

  {
    const int   nb = 100;
    float       ms;
    check(cudaEventRecord(e0, stream), "record");
    for (int i = 0; i < nb; i++) stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd);
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), "batch");
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    printf("  %-46s gpu %8.2f us per launch\n", "stats_kernel nstat, 100 back to back", 1e3 * ms / nb);
    check(cudaEventRecord(e0, stream), "record");
    for (int i = 0; i < nb; i++) empty_kernel<<<nstat, 256, 0, stream>>>(sink);
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), "batch");
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    printf("  %-46s gpu %8.2f us per launch\n", "empty kernel nstat, 100 back to back", 1e3 * ms / nb);
  }
  {
    int         *stop, *stopd;
    cudaStream_t side;
    check(cudaHostAlloc((void **)&stop, sizeof(int), cudaHostAllocMapped), "hostalloc");
    check(cudaHostGetDevicePointer((void **)&stopd, stop, 0), "hostptr");
    check(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), "stream");
    const unsigned naps[] = {0, 1000};
    for (unsigned nap : naps) {
      *(volatile int *)stop = 0;
      spin_kernel<<<1, 32, 0, side>>>(stopd, 5000000000ull, nap);
      printf("## with one block spinning beside (nap %u ns)\n", nap);
      timed("empty kernel, 1 block", [&] { empty_kernel<<<1, 256, 0, stream>>>(sink); });
      timed("stats_kernel nstat, finish to host", [&] { stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
      timed("stats_diag_kernel (as the lengths pass)", [&] { stats_diag_kernel<<<nstat + ndiag, SETUP_BLOCK, 0, stream>>>(len, n, acc, rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, nstat, ndiag, done, hostd); });
      {
        aijt_features f;
        aijt_int     *count = NULL;
        timed("gpu_lengths (stats+diag+natural windows)", [&] { aijt_counts_free(count); count = NULL; g.diag_max = 0; if (gpu_lengths(&g, &f, &count)) exit(1); });
        aijt::count_classes k;
        aijt_int           *sorted;
        if (aijt::count_sort_fits(count, f.max_len, n, &k)) {
          check(cudaMalloc((void **)&sorted, ((size_t)n + aijt::count_sort_scratch(k) + 64) * sizeof(aijt_int)), "malloc");
          timed("count_sort (both)", [&] { aijt::count_sort(len, (int64_t)n, k, sorted + n + 32, sorted, stream); });
          cudaFree(sorted);
        }
        aijt_counts_free(count);
      }
      *(volatile int *)stop = 1;
      check(cudaStreamSynchronize(side), "spin");
    }
    puts("## after the spinner stopped");
    timed("empty kernel, 1 block", [&] { empty_kernel<<<1, 256, 0, stream>>>(sink); });
    timed("stats_kernel nstat, finish to host", [&] { stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
  }

  puts("## shared memory and the carveout");
  timed("empty kernel nstat, 1 KB shared", [&] { empty_shared_kernel<1024><<<nstat, 256, 0, stream>>>(sink); });
  timed("empty kernel nstat, 14 KB shared", [&] { empty_shared_kernel<14336><<<nstat, 256, 0, stream>>>(sink); });
  timed("empty kernel nstat, 40 KB shared", [&] { empty_shared_kernel<40960><<<nstat, 256, 0, stream>>>(sink); });
  timed("empty kernel 1 block, 14 KB shared", [&] { empty_shared_kernel<14336><<<1, 256, 0, stream>>>(sink); });
  timed("stats variant 31 (nothing but finish), 1 block", [&] { stats_variant<31><<<1, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
  {
    const int carve[] = {100, 50, 0};
    for (int c : carve) {
      char name[96];
      check(cudaFuncSetAttribute(stats_kernel<row_len>, cudaFuncAttributePreferredSharedMemoryCarveout, c), "carveout");
      check(cudaFuncSetAttribute(empty_shared_kernel<14336>, cudaFuncAttributePreferredSharedMemoryCarveout, c), "carveout");
      snprintf(name, sizeof(name), "stats_kernel nstat, carveout %d", c);
      timed(name, [&] { stats_kernel<<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); });
      snprintf(name, sizeof(name), "empty kernel nstat 14 KB, carveout %d", c);
      timed(name, [&] { empty_shared_kernel<14336><<<nstat, 256, 0, stream>>>(sink); });
    }
    check(cudaFuncSetAttribute(stats_kernel<row_len>, cudaFuncAttributePreferredSharedMemoryCarveout, -1), "carveout");
  }
  {
    const int   nb = 100;
    float       ms;
    check(cudaEventRecord(e0, stream), "record");
    for (int i = 0; i < nb; i++) empty_shared_kernel<14336><<<nstat, 256, 0, stream>>>(sink);
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), "batch");
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    printf("  %-46s gpu %8.2f us per launch\n", "empty 14 KB nstat, 100 back to back", 1e3 * ms / nb);
    check(cudaEventRecord(e0, stream), "record");
    for (int i = 0; i < nb; i++) stats_variant<31><<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd);
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), "batch");
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    printf("  %-46s gpu %8.2f us per launch\n", "stats variant 31 nstat, 100 back to back", 1e3 * ms / nb);
  }
  puts("## the statistics' kernel with parts left out (nstat blocks, finish to host)");
#define VARIANT(M, what) timed("stats variant " #M ": " what, [&] { stats_variant<M><<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, done, hostd); })
  VARIANT(0, "all (as stats_kernel)");
  VARIANT(1, "no value loads");
  VARIANT(2, "no match (lane 0 counts)");
  VARIANT(4, "no tree of sums");
  VARIANT(32, "sums by shuffles");
  VARIANT(8, "no scalar atomics");
  VARIANT(16, "no histogram flush");
  VARIANT(24, "no scalar atomics, no flush");
  VARIANT(30, "only loads and finish");
  VARIANT(31, "nothing but finish");
  timed("stats variant 31, no finish (+memset acc)", [&] { cudaMemsetAsync(acc, 0, offsetof(value_stats, longs), stream); stats_variant<31><<<nstat, SETUP_BLOCK, 0, stream>>>(len, n, acc, NULL, NULL); });
  {
    diag_set *d;
    check(cudaMalloc((void **)&d, sizeof(diag_set)), "malloc");
    timed("diagonals_kernel alone (+memset set)", [&] { cudaMemsetAsync(d, 0, sizeof(diag_set), stream); diagonals_kernel<<<ndiag, SETUP_BLOCK, 0, stream>>>(rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, d); });
    timed("diag, no global poll, no merge (+memset set)", [&] { cudaMemsetAsync(d, 0, sizeof(diag_set), stream); diag_nopoll_kernel<<<ndiag, SETUP_BLOCK, 0, stream>>>(rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, d); });
    timed("diag, 132 blocks (+memset set)", [&] { cudaMemsetAsync(d, 0, sizeof(diag_set), stream); diagonals_kernel<<<132, SETUP_BLOCK, 0, stream>>>(rowptr, colidx, n, AIJT_DIA_MAX_DIAGS, d); });
    cudaFree(d);
  }

  puts("## the sort by length (count_sort, two launches)");
  {
    aijt_int *count = NULL, *sorted;
    aijt_features f;
    g.diag_max = 0;
    if (gpu_lengths(&g, &f, &count)) return 1;
    aijt::count_classes k;
    if (aijt::count_sort_fits(count, f.max_len, n, &k)) {
      printf("# %d classes, %d tiles of %lld\n", aijt::count_sort_nclasses(k), k.ntiles, (long long)k.tile);
      check(cudaMalloc((void **)&sorted, ((size_t)n + aijt::count_sort_scratch(k) + 64) * sizeof(aijt_int)), "malloc");
      aijt_int *scratch = sorted + n + 32;
      timed("count_sort_count_kernel", [&] { aijt::count_sort_count_kernel<<<(unsigned)k.ntiles, aijt::COUNT_SORT_THREADS, 0, stream>>>(len, (int64_t)n, k, scratch); });
      timed("count_sort_place_kernel", [&] { aijt::count_sort_place_kernel<<<(unsigned)k.ntiles, aijt::COUNT_SORT_THREADS, 0, stream>>>(len, (int64_t)n, k, scratch, sorted); });
      timed("count_sort (both)", [&] { aijt::count_sort(len, (int64_t)n, k, scratch, sorted, stream); });
      cudaFree(sorted);
    }
    aijt_counts_free(count);
  }

  puts("## the column test's sample (where the auto test runs)");
  {
    aijt_plan p;
    aijt_int  stride;
    memset(&p, 0, sizeof(p));
    p.nnz = nnz;
    if (aijt_col_order_start(&A, &R, -1, &p, &stride) && stride) {
      aijt_int *deg, *count = NULL, maxd;
      int64_t   run, take;
      aijt_col_sample_runs(n, stride, &run, &take);
      const unsigned nruns = (unsigned)((n + run - 1) / run);
      printf("# stride %lld, %u runs of %lld rows, %lld taken\n", (long long)stride, nruns, (long long)run, (long long)take);
      check(cudaMalloc((void **)&deg, (size_t)A.ncols * sizeof(aijt_int)), "malloc");
      timed("memset degrees", [&] { cudaMemsetAsync(deg, 0, (size_t)A.ncols * sizeof(aijt_int), stream); });
      timed("degree_kernel (sample) + memset", [&] { cudaMemsetAsync(deg, 0, (size_t)A.ncols * sizeof(aijt_int), stream); degree_kernel<<<dim3(8, nruns), SETUP_BLOCK, 0, stream>>>(rowptr, colidx, n, run, 0, take, deg); });
      const unsigned nsd = setup_blocks(A.ncols) < STAT_BLOCKS ? setup_blocks(A.ncols) : STAT_BLOCKS;
      timed("stats_kernel over the degrees, finish to host", [&] { stats_kernel<<<nsd, SETUP_BLOCK, 0, stream>>>(array_of{deg}, A.ncols, acc, done, hostd); });
      timed("stats_kernel over the degrees, 264 blocks", [&] { stats_kernel<<<264, SETUP_BLOCK, 0, stream>>>(array_of{deg}, A.ncols, acc, done, hostd); });
      timed("gpu degrees(sample) whole (host wall)", [&] { deg = NULL; aijt_counts_free(count); count = NULL; if (degrees(&g, stride, 0, &deg, &count, &maxd)) exit(1); release(&g, deg); });
      aijt_counts_free(count);
    } else puts("# no auto test here");
  }
  return 0;
}
