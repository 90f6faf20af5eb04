/*
   A CSR's diagonal entries on the device: MatShift (values[k] += a at each row's diagonal entry) and MatGetDiagonal.
   PETSc's own MatShift of an AIJ matrix adds a row at a time through MatSetValues on the host, after a copy of every
   value down from the device, and the next product copies them all up again; its MatGetDiagonal (Jacobi's setup at
   each Newton or time step) copies every value down too.  Here a thread per row finds its diagonal by bisection
   among its sorted columns (AIJ keeps them sorted): MatShift adds a in place, the same one rounding per value, and
   MatGetDiagonal copies the value, 0.0 where the row has none (AIJ's answer).
*/
#include "aijtkernels.h"
#include "setup.cuh"

namespace {

using aijt::setup_blocks;
using aijt::SETUP_BLOCK;

/* Where row i's entry in column i is among its sorted columns, -1 if it has none */
__device__ int diagonal_at(const int *rowptr, const int *colidx, int i)
{
  int lo = rowptr[i], hi = rowptr[i + 1] - 1;
  while (lo < hi) { /* the first column at least i */
    const int mid = lo + (hi - lo) / 2;
    if (colidx[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return lo == hi && colidx[lo] == i ? lo : -1;
}

__global__ void shift_kernel(const int *rowptr, const int *colidx, double *values, int64_t n, double a)
{
  GRID_STRIDE(i, n)
  {
    const int k = diagonal_at(rowptr, colidx, (int)i);
    if (k >= 0) values[k] += a;
  }
}

__global__ void diagonal_kernel(const int *rowptr, const int *colidx, const double *values, int64_t nrows, int64_t ncols, double *d)
{
  GRID_STRIDE(i, nrows)
  {
    const int k = i < ncols ? diagonal_at(rowptr, colidx, (int)i) : -1;
    d[i]        = k >= 0 ? values[k] : 0.0;
  }
}

} // namespace

extern "C" cudaError_t aijt_dev_csr_shift(const int *rowptr, const int *colidx, double *values, aijt_int n, double a, cudaStream_t stream)
{
  if (n > 0) shift_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, stream>>>(rowptr, colidx, values, n, a);
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_dev_csr_diagonal(const int *rowptr, const int *colidx, const double *values, aijt_int nrows, aijt_int ncols, double *d, cudaStream_t stream)
{
  if (nrows > 0) diagonal_kernel<<<setup_blocks(nrows), SETUP_BLOCK, 0, stream>>>(rowptr, colidx, values, nrows, ncols, d);
  return cudaGetLastError();
}
