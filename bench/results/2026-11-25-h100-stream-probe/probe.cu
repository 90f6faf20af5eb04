/*
   Probe (not part of the build): a row-block CSR product ("stream": each thread block takes the whole
   rows that start in its share of the entries, loads all their entries coalesced with their gathers of x
   in flight at once, keeps the products in shared memory, then sums each row from there) against the
   model's plan of today's kernels and cuSPARSE's CSR product, on the device alone (queued behind a held
   stream), in one process.  No PETSc.

     probe [-model FILE] [-reps N] file.mtx.gz|gen:name[:size] ...
*/
#include "devcopy.h"
#include "hold.h"
extern "C" {
#include "aijtmodel.h"
#include "matgen_aijt.h"
#include "wallclock.h"
}
#include <cusparse.h>

#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

static void check(cudaError_t e, const char *what)
{
  if (e == cudaSuccess) return;
  fprintf(stderr, "probe: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}
#define CHECK_SP(x) \
  do { \
    cusparseStatus_t s_ = (x); \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { \
      fprintf(stderr, "probe: %s: cusparse %d\n", #x, (int)s_); \
      exit(1); \
    } \
  } while (0)

/* ---- the row-block kernel */

/* rb[b] = the first row whose entries start at or after b * T (rows starting in [bT, (b+1)T) are
   block b's); rb[nb] = nrows */
__global__ void row_blocks(const int *ptr, int nrows, int T, int nb, int *rb)
{
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b > nb) return;
  if (b == nb) {
    rb[b] = nrows;
    return;
  }
  long long key = (long long)b * T;
  int       lo = 0, hi = nrows; /* first r in [0, nrows] with ptr[r] >= key */
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (ptr[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  rb[b] = lo;
}

template <int BLOCK, int PER, int LPR>
__global__ void __launch_bounds__(BLOCK) stream_kernel(const int *__restrict__ rb, const int *__restrict__ ptr, const int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, double *__restrict__ y)
{
  extern __shared__ double prod[];
  const int r0 = __ldg(rb + blockIdx.x), r1 = __ldg(rb + blockIdx.x + 1);
  if (r0 >= r1) return;
  const int k0 = __ldg(ptr + r0), n = __ldg(ptr + r1) - k0;
  for (int base = 0; base < n; base += BLOCK * PER) {
    int    c[PER];
    double v[PER], xv[PER];
#pragma unroll
    for (int u = 0; u < PER; u++) {
      const int  i  = base + u * BLOCK + (int)threadIdx.x;
      const bool in = i < n;
      c[u]          = in ? __ldcs(col + k0 + i) : -1;
      v[u]          = in ? __ldcs(val + k0 + i) : 0.0;
    }
#pragma unroll
    for (int u = 0; u < PER; u++) xv[u] = c[u] >= 0 ? __ldg(x + c[u]) : 0.0;
#pragma unroll
    for (int u = 0; u < PER; u++)
      if (c[u] >= 0) prod[base + u * BLOCK + threadIdx.x] = v[u] * xv[u];
  }
  __syncthreads();
  const unsigned lane = threadIdx.x % LPR;
  const unsigned mask = LPR == 32 ? 0xffffffffu : ((1u << (LPR % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(LPR - 1));
  for (int r = r0 + (int)(threadIdx.x / LPR); r < r1; r += BLOCK / LPR) {
    const int a = __ldg(ptr + r) - k0, b = __ldg(ptr + r + 1) - k0;
    double    s = 0.0;
    for (int k = a + (int)lane; k < b; k += LPR) s += prod[k];
#pragma unroll
    for (int off = LPR / 2; off > 0; off >>= 1) s += __shfl_down_sync(mask, s, off, LPR);
    if (lane == 0) y[r] = s;
  }
}

/* The loop over rows must keep whole groups together: r1 - r0 rows, groups of LPR lanes; the loop bound
   is the same for all lanes of a group (their r is equal), so the shuffles see every lane. */

struct StreamVariant {
  const char *name;
  int         block, per, lpr;
  void (*launch)(int nb, size_t smem, cudaStream_t s, const int *rb, const int *ptr, const int *col, const double *val, const double *x, double *y);
};

template <int BLOCK, int PER, int LPR>
static void launch_stream(int nb, size_t smem, cudaStream_t s, const int *rb, const int *ptr, const int *col, const double *val, const double *x, double *y)
{
  stream_kernel<BLOCK, PER, LPR><<<nb, BLOCK, smem, s>>>(rb, ptr, col, val, x, y);
}

static const StreamVariant kVariants[] = {
  {"stream b256 p4 l1", 256, 4, 1, launch_stream<256, 4, 1>},
  {"stream b256 p4 l4", 256, 4, 4, launch_stream<256, 4, 4>},
  {"stream b256 p8 l1", 256, 8, 1, launch_stream<256, 8, 1>},
  {"stream b256 p8 l4", 256, 8, 4, launch_stream<256, 8, 4>},
  {"stream b128 p8 l2", 128, 8, 2, launch_stream<128, 8, 2>},
  {"stream b512 p4 l2", 512, 4, 2, launch_stream<512, 4, 2>},
  {"stream b256 p16 l4", 256, 16, 4, launch_stream<256, 16, 4>},
};

/* ---- Matrix Market (gzip) to CSR, columns sorted in each row */

static double pattern_value(long long i, long long j) /* as src/mat/utils/aijtunedmm.c */
{
  unsigned long long a = (unsigned long long)std::min(i, j), b = (unsigned long long)std::max(i, j);
  unsigned long long h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return 0.5 + (double)(h % 1000003) / 1000003.0;
}

struct Csr {
  int                 nrows, ncols;
  std::vector<int>    ptr, col;
  std::vector<double> val;
};

static int load_mtx(const char *path, Csr &A)
{
  char  cmd[1024], line[1024];
  long long m, n, nz;
  snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", path);
  FILE *fp = popen(cmd, "r");
  if (!fp || !fgets(line, sizeof(line), fp)) return 1;
  const bool pattern = strstr(line, "pattern") != NULL, symmetric = strstr(line, "symmetric") != NULL;
  do {
    if (!fgets(line, sizeof(line), fp)) return 1;
  } while (line[0] == '%');
  if (sscanf(line, "%lld %lld %lld", &m, &n, &nz) != 3) return 1;
  std::vector<long long> I, J;
  std::vector<double>    V;
  for (long long k = 0; k < nz; k++) {
    long long i, j;
    double    v = 1;
    if (!fgets(line, sizeof(line), fp)) return 1;
    if (pattern ? sscanf(line, "%lld %lld", &i, &j) != 2 : sscanf(line, "%lld %lld %lf", &i, &j, &v) != 3) return 1;
    i--, j--;
    if (pattern) v = pattern_value(i, j);
    I.push_back(i), J.push_back(j), V.push_back(v);
    if (symmetric && i != j) I.push_back(j), J.push_back(i), V.push_back(v);
  }
  pclose(fp);
  A.nrows = (int)m, A.ncols = (int)n;
  A.ptr.assign(m + 1, 0);
  for (long long i : I) A.ptr[i + 1]++;
  for (long long r = 0; r < m; r++) A.ptr[r + 1] += A.ptr[r];
  std::vector<int> at(A.ptr.begin(), A.ptr.end() - 1);
  std::vector<std::pair<int, double>> e(I.size());
  for (size_t k = 0; k < I.size(); k++) e[at[I[k]]++] = {(int)J[k], V[k]};
  A.col.resize(I.size()), A.val.resize(I.size());
  for (long long r = 0; r < m; r++) {
    std::sort(e.begin() + A.ptr[r], e.begin() + A.ptr[r + 1]);
    for (int k = A.ptr[r]; k < A.ptr[r + 1]; k++) A.col[k] = e[k].first, A.val[k] = e[k].second;
  }
  return 0;
}

static int load_gen(const char *spec, Csr &A)
{
  char        name[64];
  const char *colon = strchr(spec, ':');
  matgen_csr  M;
  aijt_csr    B;
  snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - spec) : (int)strlen(spec), spec);
  if (matgen_generate(name, colon ? atoll(colon + 1) : 0, &M) || matgen_to_aijt(&M, &B)) return 1;
  A.nrows = B.nrows, A.ncols = B.ncols;
  A.ptr.assign(B.rowptr, B.rowptr + B.nrows + 1);
  A.col.assign(B.colidx, B.colidx + B.rowptr[B.nrows]);
  A.val.assign(B.values, B.values + B.rowptr[B.nrows]);
  free((void *)B.rowptr), free((void *)B.colidx);
  matgen_free(&M);
  return 0;
}

/* ---- timing: the device alone, launches queued behind a held stream */

template <typename F>
static double device_us(F op, cudaStream_t s, int reps)
{
  std::vector<double> t;
  cudaEvent_t         e0, e1;
  check(cudaEventCreate(&e0), "event"), check(cudaEventCreate(&e1), "event");
  for (int i = 0; i < 3; i++) op();
  check(cudaStreamSynchronize(s), "warm-up");
  for (int r = 0; r < reps; r++) {
    const int n = 40;
    float     ms;
    check(aijt_dev_hold(s), "hold");
    check(cudaEventRecord(e0, s), "record");
    for (int i = 0; i < n; i++) op();
    check(cudaEventRecord(e1, s), "record");
    aijt_dev_release();
    check(cudaStreamSynchronize(s), "sync");
    if (aijt_dev_hold_timed_out()) fprintf(stderr, "probe: hold timed out\n");
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    t.push_back(1e3 * ms / n);
  }
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b)
{
  double d = 0, m = 0;
  for (size_t i = 0; i < a.size(); i++) d = std::max(d, fabs(a[i] - b[i])), m = std::max(m, fabs(b[i]));
  return m > 0 ? d / m : d;
}

static void run(const char *spec, const aijt_model *model, const aijt_rules *R, cudaStream_t s, int reps)
{
  Csr         A;
  const char *base = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
  double      t0   = wall_seconds();
  if (!strncmp(spec, "gen:", 4) ? load_gen(spec + 4, A) : load_mtx(spec, A)) {
    fprintf(stderr, "probe: %s: cannot load it\n", spec);
    return;
  }
  const int nnz = A.ptr[A.nrows];
  int       maxlen = 0;
  for (int r = 0; r < A.nrows; r++) maxlen = std::max(maxlen, A.ptr[r + 1] - A.ptr[r]);
  printf("\n[%s] %d x %d, %d nonzeros, longest row %d (loaded in %.1f s)\n", base, A.nrows, A.ncols, nnz, maxlen, wall_seconds() - t0);

  int    *ptr, *col, *rb;
  double *val, *x, *y;
  check(cudaMalloc(&ptr, sizeof(int) * (A.nrows + 1)), "malloc"), check(cudaMalloc(&col, sizeof(int) * (nnz + 1)), "malloc");
  check(cudaMalloc(&val, sizeof(double) * (nnz + 1)), "malloc");
  check(cudaMalloc(&x, sizeof(double) * (A.ncols + 1)), "malloc"), check(cudaMalloc(&y, sizeof(double) * (A.nrows + 1)), "malloc");
  check(cudaMemcpy(ptr, A.ptr.data(), sizeof(int) * (A.nrows + 1), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(col, A.col.data(), sizeof(int) * nnz, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(val, A.val.data(), sizeof(double) * nnz, cudaMemcpyHostToDevice), "copy");
  {
    std::vector<double> hx(A.ncols);
    for (int j = 0; j < A.ncols; j++) hx[j] = 1.0 + (j % 7) * 0.125;
    check(cudaMemcpy(x, hx.data(), sizeof(double) * A.ncols, cudaMemcpyHostToDevice), "copy");
  }
  std::vector<double> yref(A.nrows), yv(A.nrows);

  /* cuSPARSE, as raw as PETSc's aijcusparse calls it (CSR_ALG1) */
  cusparseHandle_t     h;
  cusparseSpMatDescr_t M;
  cusparseDnVecDescr_t vx, vy;
  const double         one = 1, zero = 0;
  size_t               wsz[2];
  void                *ws[2];
  CHECK_SP(cusparseCreate(&h));
  CHECK_SP(cusparseSetStream(h, s));
  CHECK_SP(cusparseCreateCsr(&M, A.nrows, A.ncols, nnz, ptr, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  CHECK_SP(cusparseCreateDnVec(&vx, A.ncols, x, CUDA_R_64F));
  CHECK_SP(cusparseCreateDnVec(&vy, A.nrows, y, CUDA_R_64F));
  const cusparseSpMVAlg_t algs[2] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2};
  double                  tcs[2];
  for (int a = 0; a < 2; a++) {
    CHECK_SP(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, vx, &zero, vy, CUDA_R_64F, algs[a], &wsz[a]));
    check(cudaMalloc(&ws[a], wsz[a] + 1), "malloc");
    CHECK_SP(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, vx, &zero, vy, CUDA_R_64F, algs[a], ws[a]));
    tcs[a] = device_us([&] { CHECK_SP(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, vx, &zero, vy, CUDA_R_64F, algs[a], ws[a])); }, s, reps);
    if (a == 0) check(cudaMemcpy(yref.data(), y, sizeof(double) * A.nrows, cudaMemcpyDeviceToHost), "copy");
  }
  printf("  %-22s %8.2f us\n  %-22s %8.2f us\n", "cusparse csr_alg1", tcs[0], "cusparse csr_alg2", tcs[1]);

  /* the model's plan of today's kernels, built on the device as aijtuned builds it */
  {
    aijt_csr         C = {A.nrows, A.ncols, A.ptr.data(), A.col.data(), A.val.data(), NULL, 0};
    aijt_plan       *P = NULL;
    aijt_layouts    *K = NULL;
    aijt_dev_layouts D;
    aijt_dev_params  o = {0, 0, 0, 1};
    memset(&D, 0, sizeof(D));
    if (!aijt_plan_model(&C, R, model, &P) && aijt_dev_buildable(P) && !aijt_layouts_skeleton(P, &C, &K) && aijt_dev_build_on_device(P, K, &C, &o, R->block, &D)) {
      aijt_int n[AIJT_NFORMATS], rows[AIJT_NFORMATS], nz[AIJT_NFORMATS];
      char     formats[64] = "";
      aijt_plan_summary(P, n, rows, nz);
      for (int f = 0; f < AIJT_NFORMATS; f++)
        if (n[f]) snprintf(formats + strlen(formats), sizeof(formats) - strlen(formats), "%s%s", formats[0] ? "," : "", aijt_format_names[f]);
      const double t = device_us([&] { check(aijt_dev_spmv(&D, x, NULL, y, s), "aijt_dev_spmv"); }, s, reps);
      check(cudaMemcpy(yv.data(), y, sizeof(double) * A.nrows, cudaMemcpyDeviceToHost), "copy");
      printf("  %-22s %8.2f us  diff %.1e  (%d strips: %s%s)\n", "model plan", t, max_rel_diff(yv, yref), P->nstrips, formats, P->col_pos ? " +cols" : "");
      aijt_dev_free(&D);
    } else printf("  model plan: not buildable here\n");
    aijt_layouts_destroy(&K);
    aijt_plan_destroy(&P);
  }

  /* the row blocks: each block's nominal share T = BLOCK * PER entries, shared memory for T + longest row */
  for (const StreamVariant &v : kVariants) {
    const int    T    = v.block * v.per;
    const size_t smem = (size_t)(T + maxlen) * sizeof(double);
    if (smem > 200 * 1024) {
      printf("  %-22s    -      (longest row too long: %zu bytes of shared memory)\n", v.name, smem);
      continue;
    }
    const int nb = std::max(1, (nnz + T - 1) / T);
    check(cudaMalloc(&rb, sizeof(int) * (nb + 1)), "malloc");
    row_blocks<<<(nb + 256) / 256, 256, 0, s>>>(ptr, A.nrows, T, nb, rb);
    check(cudaGetLastError(), "row_blocks");
    cudaError_t e  = cudaSuccess;
    auto        op = [&] { v.launch(nb, smem, s, rb, ptr, col, val, x, y); };
    check(cudaMemsetAsync(y, 0, sizeof(double) * A.nrows, s), "memset");
    op();
    e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
      printf("  %-22s failed: %s\n", v.name, cudaGetErrorString(e));
      exit(1);
    }
    check(cudaMemcpy(yv.data(), y, sizeof(double) * A.nrows, cudaMemcpyDeviceToHost), "copy");
    const double t = device_us(op, s, reps);
    printf("  %-22s %8.2f us  diff %.1e  (%d blocks, %zu B shared)\n", v.name, t, max_rel_diff(yv, yref), nb, smem);
    cudaFree(rb);
  }
  fflush(stdout);
  cusparseDestroySpMat(M), cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy), cusparseDestroy(h);
  cudaFree(ws[0]), cudaFree(ws[1]), cudaFree(ptr), cudaFree(col), cudaFree(val), cudaFree(x), cudaFree(y);
}

int main(int argc, char **argv)
{
  const char  *path = NULL;
  int          a = 1, reps = 9;
  aijt_model   m;
  aijt_rules   R;
  char         why[256], def[512];
  cudaStream_t s;
  cudaDeviceProp prop;

  check(cudaGetDeviceProperties(&prop, 0), "properties");
  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp(argv[a], "-model") && a + 1 < argc) path = argv[++a];
    else if (!strcmp(argv[a], "-reps") && a + 1 < argc) reps = atoi(argv[++a]);
  }
  if (!path) {
    snprintf(def, sizeof(def), "models/%s.model", prop.name);
    for (char *c = def + 7; *c; c++)
      if (*c == ' ') *c = '-';
    path = def;
  }
  if (aijt_model_load(path, &m, why, sizeof(why))) {
    fprintf(stderr, "probe: %s: %s\n", path, why);
    return 1;
  }
  aijt_rules_default(&R);
  /* dynamic shared memory over 48 KB needs the opt-in, per instantiation */
  check(cudaFuncSetAttribute(stream_kernel<256, 4, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<256, 4, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<256, 8, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<256, 8, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<128, 8, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<512, 4, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaFuncSetAttribute(stream_kernel<256, 16, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "attr");
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  printf("# probe: %s (%d SMs), model %s, device time per product, median of %d holds of 40\n", prop.name, prop.multiProcessorCount, path, reps);
  for (; a < argc; a++) run(argv[a], &m, &R, s, reps);
  aijt_dev_stage_free();
  return 0;
}
