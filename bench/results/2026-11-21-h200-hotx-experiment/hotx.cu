// Experiment: natural-order CSR-stream SpMV, with and without the hottest columns' x held in shared memory.
// nvcc -O3 -arch=sm_90 -o hotx exp/hotx.cu bench/gen/matgen.c -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <algorithm>
#include <numeric>
extern "C" {
#include "../bench/gen/matgen.h"
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Work { long long k0, k1; int r0, r1; }; // r1 < 0: a chunk of long row r0, added atomically

__global__ void prep(int H, const int *hot, const double *x, double *xh, int nlong, const int *longrows, double *y, unsigned *ctr)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0) *ctr = 0;
  for (int i = t; i < H; i += gridDim.x * blockDim.x) xh[i] = x[hot[i]];
  for (int i = t; i < nlong; i += gridDim.x * blockDim.x) y[longrows[i]] = 0.0;
}

__device__ __forceinline__ double xval(int c, const double *sx, const double *__restrict__ x)
{
  return c < 0 ? sx[-c - 1] : __ldg(x + c);
}

template <int BD>
__global__ void __launch_bounds__(BD) stream(int nwork, const Work *__restrict__ work, const long long *__restrict__ ptr, const int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, int H, const double *__restrict__ xh, int W, double *y, unsigned *ctr)
{
  extern __shared__ double sm[];
  double          *sx = sm, *prod = sm + H;
  __shared__ int   item;
  __shared__ double red[32];
  for (int i = threadIdx.x; i < H; i += BD) sx[i] = xh[i];
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) item = atomicAdd(ctr, 1u);
    __syncthreads();
    const int w = item;
    if (w >= nwork) break;
    const Work it = work[w];
    if (it.r1 < 0) { // a chunk of a long row: the block's sum, added into y
      double s = 0;
      for (long long k = it.k0 + threadIdx.x; k < it.k1; k += BD) s += __ldcs(val + k) * xval(__ldcs(col + k), sx, x);
      for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
      if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
      __syncthreads();
      if (threadIdx.x < 32) {
        s = threadIdx.x < BD / 32 ? red[threadIdx.x] : 0.0;
        for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0) atomicAdd(y + it.r0, s);
      }
      continue;
    }
    const int n = (int)(it.k1 - it.k0);
    for (int k = threadIdx.x; k < n; k += BD) prod[k] = __ldcs(val + it.k0 + k) * xval(__ldcs(col + it.k0 + k), sx, x);
    __syncthreads();
    const int nr = it.r1 - it.r0;
    int       T  = 1; // threads per row: as many as the block's rows leave, a power of two up to 32
    while (T < 32 && T * 2 * nr <= BD) T *= 2;
    const int per = BD / T, passes = (nr + per - 1) / per, lane = threadIdx.x % T;
    for (int p = 0; p < passes; p++) {
      const int r = it.r0 + p * per + threadIdx.x / T;
      double    s = 0;
      if (r < it.r1) {
        const int b = (int)(ptr[r] - it.k0), e = (int)(ptr[r + 1] - it.k0);
        for (int k = b + lane; k < e; k += T) s += prod[k];
      }
      for (int o = T / 2; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o, T);
      if (lane == 0 && r < it.r1) y[r] = s;
    }
  }
}

static double median(std::vector<float> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Dev {
  long long *ptr;
  int       *col, *colh, *hot, *longrows;
  double    *val, *x, *xh, *y;
  Work      *work;
  unsigned  *ctr;
};

static void run_variant(const char *name, const matgen_csr *A, const double *yref, int H, int W, int BD, Dev &d, int reps)
{
  // host: hot columns by degree, encoded column copy, work items
  std::vector<int> hot;
  std::vector<int> slot(A->ncols, -1);
  if (H > 0) {
    std::vector<long long> deg(A->ncols, 0);
    for (long long k = 0; k < A->nnz; k++) deg[A->col[k]]++;
    std::vector<int> idx(A->ncols);
    std::iota(idx.begin(), idx.end(), 0);
    int h = (int)std::min<long long>(H, A->ncols);
    std::partial_sort(idx.begin(), idx.begin() + h, idx.end(), [&](int a, int b) { return deg[a] > deg[b]; });
    long long cover = 0;
    for (int i = 0; i < h; i++) hot.push_back(idx[i]), slot[idx[i]] = i, cover += deg[idx[i]];
    std::sort(hot.begin(), hot.end());
    for (int i = 0; i < h; i++) slot[hot[i]] = i;
    printf("  hot %d columns hold %.1f%% of the entries\n", h, 100.0 * cover / A->nnz);
  }
  H = (int)hot.size();
  std::vector<int> colh(A->nnz);
  for (long long k = 0; k < A->nnz; k++) colh[k] = slot[A->col[k]] >= 0 ? -(slot[A->col[k]] + 1) : A->col[k];
  std::vector<Work> wl, ws;
  std::vector<int>  longrows;
  int r = 0;
  while (r < A->nrows) {
    long long len = A->rowptr[r + 1] - A->rowptr[r];
    if (len > W) {
      longrows.push_back(r);
      for (long long k = A->rowptr[r]; k < A->rowptr[r + 1]; k += 4 * W) wl.push_back({k, std::min(k + 4 * W, (long long)A->rowptr[r + 1]), r, -1});
      r++;
      continue;
    }
    int r1 = r;
    while (r1 < A->nrows && A->rowptr[r1 + 1] - A->rowptr[r] <= W) r1++;
    ws.push_back({A->rowptr[r], A->rowptr[r1], r, r1});
    r = r1;
  }
  wl.insert(wl.end(), ws.begin(), ws.end()); // long chunks first
  CK(cudaMemcpy(d.colh, colh.data(), A->nnz * 4, cudaMemcpyHostToDevice));
  if (H) CK(cudaMemcpy(d.hot, hot.data(), H * 4, cudaMemcpyHostToDevice));
  if (longrows.size()) CK(cudaMemcpy(d.longrows, longrows.data(), longrows.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.work, wl.data(), wl.size() * sizeof(Work), cudaMemcpyHostToDevice));
  size_t smem = (size_t)(H + W) * 8;
  auto   kern = BD == 512 ? stream<512> : stream<1024>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, BD, smem));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (per < 1) { printf("  %s: does not fit\n", name); return; }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int i = 0; i < reps + 5; i++) {
    CK(cudaEventRecord(e0));
    prep<<<64, 256>>>(H, d.hot, d.x, d.xh, (int)longrows.size(), d.longrows, d.y, d.ctr);
    kern<<<sms * per, BD, smem>>>((int)wl.size(), d.work, d.ptr, d.colh, d.val, d.x, H, d.xh, W, d.y, d.ctr);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (i >= 5) t.push_back(ms * 1000);
  }
  CK(cudaGetLastError());
  std::vector<double> y(A->nrows);
  CK(cudaMemcpy(y.data(), d.y, A->nrows * 8, cudaMemcpyDeviceToHost));
  double md = 0, my = 0;
  for (long long i = 0; i < A->nrows; i++) md = std::max(md, fabs(y[i] - yref[i])), my = std::max(my, fabs(yref[i]));
  printf("  %-28s H %6d W %5d BD %4d blocks/SM %d items %8zu long rows %5zu: %8.1f us  diff %.1e\n", name, H, W, BD, per, wl.size(), longrows.size(), median(t), md / my);
}

int main(int argc, char **argv)
{
  int reps = 50;
  for (int a = 1; a < argc; a++) {
    char  nm[64];
    long long size = 0;
    const char *c = strchr(argv[a], ':');
    if (c) { memcpy(nm, argv[a], c - argv[a]); nm[c - argv[a]] = 0; size = atoll(c + 1); } else strcpy(nm, argv[a]);
    matgen_csr A;
    if (matgen_generate(nm, size, &A)) { printf("bad %s\n", argv[a]); continue; }
    printf("[%s] %lld x %lld, %lld nonzeros\n", argv[a], (long long)A.nrows, (long long)A.ncols, (long long)A.nnz);
    std::vector<double> x(A.ncols), yref(A.nrows);
    for (long long i = 0; i < A.ncols; i++) x[i] = matgen_unit(7, i);
    matgen_spmv(&A, x.data(), yref.data());
    Dev d;
    CK(cudaMalloc(&d.ptr, (A.nrows + 1) * 8));
    CK(cudaMalloc(&d.col, A.nnz * 4));
    CK(cudaMalloc(&d.colh, A.nnz * 4));
    CK(cudaMalloc(&d.val, A.nnz * 8));
    CK(cudaMalloc(&d.x, A.ncols * 8));
    CK(cudaMalloc(&d.y, A.nrows * 8));
    CK(cudaMalloc(&d.hot, 65536 * 4));
    CK(cudaMalloc(&d.xh, 65536 * 8));
    CK(cudaMalloc(&d.longrows, A.nrows * 4));
    CK(cudaMalloc(&d.work, (A.nrows + A.nnz / 256 + 16) * sizeof(Work)));
    CK(cudaMalloc(&d.ctr, 4));
    CK(cudaMemcpy(d.ptr, A.rowptr, (A.nrows + 1) * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d.col, A.col, A.nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d.val, A.val, A.nnz * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d.x, x.data(), A.ncols * 8, cudaMemcpyHostToDevice));
    // cuSPARSE CSR (64-bit offsets as the matrix has; cusparse needs same index type for offsets and cols, so use 32-bit copies)
    {
      std::vector<int> p32(A.nrows + 1);
      for (long long i = 0; i <= A.nrows; i++) p32[i] = (int)A.rowptr[i];
      int *dp32;
      CK(cudaMalloc(&dp32, (A.nrows + 1) * 4));
      CK(cudaMemcpy(dp32, p32.data(), (A.nrows + 1) * 4, cudaMemcpyHostToDevice));
      cusparseHandle_t h;
      cusparseCreate(&h);
      cusparseSpMatDescr_t M;
      cusparseDnVecDescr_t X, Y;
      cusparseCreateCsr(&M, A.nrows, A.ncols, A.nnz, dp32, d.col, d.val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
      cusparseCreateDnVec(&X, A.ncols, d.x, CUDA_R_64F);
      cusparseCreateDnVec(&Y, A.nrows, d.y, CUDA_R_64F);
      double one = 1, zero = 0;
      for (int alg = 0; alg < 2; alg++) {
        cusparseSpMVAlg_t a = alg ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
        size_t bs;
        void  *buf;
        cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, &bs);
        CK(cudaMalloc(&buf, bs + 8));
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0), cudaEventCreate(&e1);
        std::vector<float> t;
        for (int i = 0; i < reps + 5; i++) {
          cudaEventRecord(e0);
          cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, buf);
          cudaEventRecord(e1);
          cudaEventSynchronize(e1);
          float ms;
          cudaEventElapsedTime(&ms, e0, e1);
          if (i >= 5) t.push_back(ms * 1000);
        }
        printf("  cusparse csr alg%d %8.1f us\n", alg + 1, median(t));
        cudaFree(buf);
      }
      cusparseDestroySpMat(M);
      cusparseDestroy(h);
      cudaFree(dp32);
    }
    int Hs[] = {0, 4096, 12288, 24576};
    int Ws[] = {1024, 2048};
    for (int W : Ws)
      for (int H : Hs) {
        run_variant("stream", &A, yref.data(), H, W, 512, d, reps);
        run_variant("stream", &A, yref.data(), H, W, 1024, d, reps);
      }
    cudaFree(d.ptr), cudaFree(d.col), cudaFree(d.colh), cudaFree(d.val), cudaFree(d.x), cudaFree(d.y), cudaFree(d.hot), cudaFree(d.xh), cudaFree(d.longrows), cudaFree(d.work), cudaFree(d.ctr);
    matgen_free(&A);
  }
  return 0;
}
