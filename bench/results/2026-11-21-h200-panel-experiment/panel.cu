// Experiment: column panels for wide matrices (LP-like).  Each block holds one panel of x in shared memory
// and runs a group of rows over that panel's entries; each row's partial sums over the panels are added
// in a second launch, in panel order.
// nvcc -O3 -arch=sm_90 -o panel exp/panel.cu bench/gen/matgen.c -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <algorithm>
extern "C" {
#include "../bench/gen/matgen.h"
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int TPR, typename C>
__global__ void __launch_bounds__(512) panel_kernel(int nrows, int ncols, int PW, int rows_per_group, const int *__restrict__ off, const C *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, double *__restrict__ partial)
{
  extern __shared__ double sx[];
  const int p = blockIdx.x, g = blockIdx.y;
  const int c0 = p * PW, w = min(PW, ncols - c0);
  for (int i = threadIdx.x; i < w; i += blockDim.x) sx[i] = __ldg(x + c0 + i);
  __syncthreads();
  const int r0 = g * rows_per_group, r1 = min(nrows, r0 + rows_per_group);
  const int lane = threadIdx.x % TPR;
  for (int r = r0 + threadIdx.x / TPR; r < r1; r += blockDim.x / TPR) {
    const int b = __ldg(off + (size_t)p * nrows + r), e = __ldg(off + (size_t)p * nrows + r + 1);
    double    s = 0;
    for (int k = b + lane; k < e; k += TPR) s += __ldcs(val + k) * sx[__ldcs(col + k)];
    for (int o = TPR / 2; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o, TPR);
    if (lane == 0) partial[(size_t)p * nrows + r] = s;
  }
}

__global__ void sum_panels(int nrows, int np, const double *__restrict__ partial, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nrows) return;
  double s = 0;
  for (int p = 0; p < np; p++) s += partial[(size_t)p * nrows + r];
  y[r] = s;
}

static double median(std::vector<float> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
static double timeit(F f, int reps)
{
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int i = 0; i < reps + 5; i++) {
    CK(cudaEventRecord(e0));
    f();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (i >= 5) t.push_back(ms * 1000);
  }
  CK(cudaGetLastError());
  return median(t);
}

template <int TPR, typename C>
static void variant(const matgen_csr *A, const double *yref, const double *dx, double *dy, int PW, int RG, int reps)
{
  const int np = (int)((A->ncols + PW - 1) / PW), n = (int)A->nrows;
  std::vector<int> off((size_t)np * n + 1, 0);
  for (int r = 0; r < n; r++)
    for (long long k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) off[(size_t)(A->col[k] / PW) * n + r + 1]++;
  for (size_t i = 1; i < off.size(); i++) off[i] += off[i - 1];
  std::vector<C>      col(A->nnz);
  std::vector<double> val(A->nnz);
  std::vector<int>    at(off.begin(), off.end() - 1);
  for (int r = 0; r < n; r++)
    for (long long k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) {
      int p = A->col[k] / PW, q = at[(size_t)p * n + r]++;
      col[q] = (C)(A->col[k] - p * PW), val[q] = A->val[k];
    }
  int *doff;
  C *dcol;
  double *dval, *dpart;
  CK(cudaMalloc(&doff, off.size() * 4));
  CK(cudaMalloc(&dcol, A->nnz * sizeof(C)));
  CK(cudaMalloc(&dval, A->nnz * 8));
  CK(cudaMalloc(&dpart, (size_t)np * n * 8));
  CK(cudaMemcpy(doff, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, col.data(), A->nnz * sizeof(C), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dval, val.data(), A->nnz * 8, cudaMemcpyHostToDevice));
  size_t smem = (size_t)PW * 8;
  CK(cudaFuncSetAttribute(panel_kernel<TPR, C>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  const int rpg = (n + RG - 1) / RG;
  dim3      grid(np, RG);
  double    t1 = timeit([&] { panel_kernel<TPR, C><<<grid, 512, smem>>>(n, (int)A->ncols, PW, rpg, doff, dcol, dval, dx, dpart); }, reps);
  double    t  = timeit([&] {
    panel_kernel<TPR, C><<<grid, 512, smem>>>(n, (int)A->ncols, PW, rpg, doff, dcol, dval, dx, dpart);
    sum_panels<<<(n + 255) / 256, 256>>>(n, np, dpart, dy);
  }, reps);
  std::vector<double> y(n);
  CK(cudaMemcpy(y.data(), dy, n * 8, cudaMemcpyDeviceToHost));
  double md = 0, my = 0;
  for (int i = 0; i < n; i++) md = std::max(md, fabs(y[i] - yref[i])), my = std::max(my, fabs(yref[i]));
  printf("  panel PW %6d (%4d panels) row groups %3d TPR %2d col %zuB: panels %7.1f us, with the sum %7.1f us  diff %.1e\n", PW, np, RG, TPR, sizeof(C), t1, t, md / my);
  cudaFree(doff), cudaFree(dcol), cudaFree(dval), cudaFree(dpart);
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
    int *dp32, *dcol;
    double *dval, *dx, *dy;
    std::vector<int> p32(A.nrows + 1);
    for (long long i = 0; i <= A.nrows; i++) p32[i] = (int)A.rowptr[i];
    CK(cudaMalloc(&dp32, (A.nrows + 1) * 4));
    CK(cudaMalloc(&dcol, A.nnz * 4));
    CK(cudaMalloc(&dval, A.nnz * 8));
    CK(cudaMalloc(&dx, A.ncols * 8));
    CK(cudaMalloc(&dy, A.nrows * 8));
    CK(cudaMemcpy(dp32, p32.data(), (A.nrows + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dcol, A.col, A.nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dval, A.val, A.nnz * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, x.data(), A.ncols * 8, cudaMemcpyHostToDevice));
    {
      cusparseHandle_t h;
      cusparseCreate(&h);
      cusparseSpMatDescr_t M;
      cusparseDnVecDescr_t X, Y;
      cusparseCreateCsr(&M, A.nrows, A.ncols, A.nnz, dp32, dcol, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
      cusparseCreateDnVec(&X, A.ncols, dx, CUDA_R_64F);
      cusparseCreateDnVec(&Y, A.nrows, dy, CUDA_R_64F);
      double one = 1, zero = 0;
      for (int alg = 0; alg < 2; alg++) {
        cusparseSpMVAlg_t a = alg ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
        size_t bs;
        void  *buf;
        cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, &bs);
        CK(cudaMalloc(&buf, bs + 8));
        double t = timeit([&] { cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, buf); }, reps);
        printf("  cusparse csr alg%d %8.1f us\n", alg + 1, t);
        cudaFree(buf);
      }
      cusparseDestroySpMat(M);
      cusparseDestroy(h);
    }
    int PWs[] = {3072, 6144, 12288, 24576};
    int RGs[] = {2, 4, 8, 16};
    for (int PW : PWs)
      for (int RG : RGs) {
        variant<16, int>(&A, yref.data(), dx, dy, PW, RG, reps);
        variant<16, unsigned short>(&A, yref.data(), dx, dy, PW, RG, reps);
      }
    variant<8, unsigned short>(&A, yref.data(), dx, dy, 6144, 8, reps);
    variant<32, unsigned short>(&A, yref.data(), dx, dy, 6144, 8, reps);
    variant<8, unsigned short>(&A, yref.data(), dx, dy, 12288, 8, reps);
    variant<32, unsigned short>(&A, yref.data(), dx, dy, 12288, 8, reps);
    cudaFree(dp32), cudaFree(dcol), cudaFree(dval), cudaFree(dx), cudaFree(dy);
    matgen_free(&A);
  }
  return 0;
}
