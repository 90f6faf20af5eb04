// Experiment: does relabelling the columns by degree (x gathered once into degree order per product)
// make power-law SpMV faster?  cuSPARSE CSR ALG1/ALG2 on A, on A with columns in degree order (A P),
// and on P^T A P (rows also in degree order), plus the gather x' = P^T x.
// nvcc -O3 -arch=sm_90 -o colorder bench/results/2026-11-21-h100-colorder-experiment/colorder.cu bench/gen/matgen.c -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <algorithm>
#include <numeric>
extern "C" {
#include "../../gen/matgen.h"
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static double median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

__global__ void gatherx(int n, const int *__restrict__ old_of_new, const double *__restrict__ x, double *__restrict__ xp)
{
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) xp[j] = __ldg(x + __ldg(old_of_new + j));
}

struct Csr { std::vector<int> p, c; std::vector<double> v; };

// B = A with rows taken in order rorder (new row i = old row rorder[i]) and columns relabelled newc[old]
static Csr relabel(const matgen_csr &A, const std::vector<int> &rorder, const std::vector<int> &newc)
{
  Csr B;
  B.p.assign(A.nrows + 1, 0);
  B.c.resize(A.nnz), B.v.resize(A.nnz);
  std::vector<std::pair<int, double>> row;
  long long k = 0;
  for (long long i = 0; i < A.nrows; i++) {
    long long r = rorder[i];
    row.clear();
    for (long long q = A.rowptr[r]; q < A.rowptr[r + 1]; q++) row.push_back({newc[A.col[q]], A.val[q]});
    std::sort(row.begin(), row.end());
    for (auto &e : row) B.c[k] = e.first, B.v[k] = e.second, k++;
    B.p[i + 1] = (int)k;
  }
  return B;
}

// time cuSPARSE on B (optionally preceded by the gather of x), check y (in B's row order) against yref[rorder]
static void run(const char *name, const Csr &B, long long nrows, long long ncols, const double *dx, const int *d_oldnew, double *dxp, const std::vector<double> &yref_perm, int reps)
{
  int *dp, *dc; double *dv, *dy;
  long long nnz = B.c.size();
  CK(cudaMalloc(&dp, (nrows + 1) * 4)); CK(cudaMalloc(&dc, nnz * 4)); CK(cudaMalloc(&dv, nnz * 8)); CK(cudaMalloc(&dy, nrows * 8));
  CK(cudaMemcpy(dp, B.p.data(), (nrows + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, B.c.data(), nnz * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, B.v.data(), nnz * 8, cudaMemcpyHostToDevice));
  cusparseHandle_t h; cusparseCreate(&h);
  cusparseSpMatDescr_t M; cusparseDnVecDescr_t X, Y;
  const double *xin = d_oldnew ? dxp : dx;
  cusparseCreateCsr(&M, nrows, ncols, nnz, dp, dc, dv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&X, ncols, (void *)xin, CUDA_R_64F);
  cusparseCreateDnVec(&Y, nrows, dy, CUDA_R_64F);
  double one = 1, zero = 0;
  cudaEvent_t e0, e1; cudaEventCreate(&e0), cudaEventCreate(&e1);
  for (int alg = 0; alg < 2; alg++) {
    cusparseSpMVAlg_t a = alg ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
    size_t bs; void *buf;
    cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, &bs);
    CK(cudaMalloc(&buf, bs + 8));
    std::vector<float> ts, tg;
    for (int i = 0; i < reps + 5; i++) {
      float ms = 0, mg = 0;
      if (d_oldnew) { // the gather alone, then the product alone
        cudaEventRecord(e0);
        gatherx<<<132 * 8, 256>>>((int)ncols, d_oldnew, dx, dxp);
        cudaEventRecord(e1); cudaEventSynchronize(e1); cudaEventElapsedTime(&mg, e0, e1);
      }
      cudaEventRecord(e0);
      cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, M, X, &zero, Y, CUDA_R_64F, a, buf);
      cudaEventRecord(e1); cudaEventSynchronize(e1); cudaEventElapsedTime(&ms, e0, e1);
      if (i >= 5) ts.push_back(ms * 1000), tg.push_back(mg * 1000);
    }
    CK(cudaGetLastError());
    std::vector<double> y(nrows);
    CK(cudaMemcpy(y.data(), dy, nrows * 8, cudaMemcpyDeviceToHost));
    double md = 0, my = 0;
    for (long long i = 0; i < nrows; i++) md = std::max(md, fabs(y[i] - yref_perm[i])), my = std::max(my, fabs(yref_perm[i]));
    printf("  %-26s alg%d spmv %8.1f us  gather %6.1f us  sum %8.1f us  diff %.1e\n", name, alg + 1, median(ts), median(tg), median(ts) + median(tg), md / my);
    cudaFree(buf);
  }
  cusparseDestroySpMat(M); cusparseDestroyDnVec(X); cusparseDestroyDnVec(Y); cusparseDestroy(h);
  cudaFree(dp), cudaFree(dc), cudaFree(dv), cudaFree(dy);
}

int main(int argc, char **argv)
{
  int reps = 50;
  for (int a = 1; a < argc; a++) {
    char nm[64]; long long size = 0;
    const char *c = strchr(argv[a], ':');
    if (c) { memcpy(nm, argv[a], c - argv[a]); nm[c - argv[a]] = 0; size = atoll(c + 1); } else strcpy(nm, argv[a]);
    matgen_csr A;
    if (matgen_generate(nm, size, &A)) { printf("bad %s\n", argv[a]); continue; }
    printf("[%s] %lld x %lld, %lld nonzeros\n", argv[a], (long long)A.nrows, (long long)A.ncols, (long long)A.nnz);
    std::vector<double> x(A.ncols), yref(A.nrows);
    for (long long i = 0; i < A.ncols; i++) x[i] = matgen_unit(7, i);
    matgen_spmv(&A, x.data(), yref.data());
    // column degrees, order by degree descending (ties by index)
    std::vector<long long> deg(A.ncols, 0), rlen(A.nrows);
    for (long long k = 0; k < A.nnz; k++) deg[A.col[k]]++;
    for (long long i = 0; i < A.nrows; i++) rlen[i] = A.rowptr[i + 1] - A.rowptr[i];
    std::vector<int> old_of_new(A.ncols), newc(A.ncols), ident(A.nrows), rsorted(A.nrows);
    std::iota(old_of_new.begin(), old_of_new.end(), 0);
    std::stable_sort(old_of_new.begin(), old_of_new.end(), [&](int p, int q) { return deg[p] > deg[q]; });
    for (long long j = 0; j < A.ncols; j++) newc[old_of_new[j]] = (int)j;
    long long cum = 0; int marks[] = {4096, 65536, 262144, 1048576}; int mi = 0;
    for (long long j = 0; j < A.ncols && mi < 4; j++) { cum += deg[old_of_new[j]]; if (j + 1 == marks[mi]) { printf("  top %7d columns: %5.1f%% of entries\n", marks[mi], 100.0 * cum / A.nnz); mi++; } }
    std::iota(ident.begin(), ident.end(), 0);
    std::iota(rsorted.begin(), rsorted.end(), 0);
    std::stable_sort(rsorted.begin(), rsorted.end(), [&](int p, int q) { return rlen[p] > rlen[q]; });
    std::vector<int> idc(A.ncols); std::iota(idc.begin(), idc.end(), 0);
    double *dx, *dxp; int *doldnew;
    CK(cudaMalloc(&dx, A.ncols * 8)); CK(cudaMalloc(&dxp, A.ncols * 8)); CK(cudaMalloc(&doldnew, A.ncols * 4));
    CK(cudaMemcpy(dx, x.data(), A.ncols * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(doldnew, old_of_new.data(), A.ncols * 4, cudaMemcpyHostToDevice));
    std::vector<double> yr(A.nrows);
    for (long long i = 0; i < A.nrows; i++) yr[i] = yref[rsorted[i]];
    run("natural", relabel(A, ident, idc), A.nrows, A.ncols, dx, NULL, NULL, yref, reps);
    run("cols by degree", relabel(A, ident, newc), A.nrows, A.ncols, dx, doldnew, dxp, yref, reps);
    run("rows by length", relabel(A, rsorted, idc), A.nrows, A.ncols, dx, NULL, NULL, yr, reps);
    run("rows+cols by degree", relabel(A, rsorted, newc), A.nrows, A.ncols, dx, doldnew, dxp, yr, reps);
    cudaFree(dx), cudaFree(dxp), cudaFree(doldnew);
    matgen_free(&A);
  }
  return 0;
}
