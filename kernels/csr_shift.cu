/*
   MatShift on a CSR's values on the device: values[k] += a at each row's diagonal entry.  PETSc's own MatShift of
   an AIJ matrix adds a row at a time through MatSetValues on the host, after a copy of every value down from the
   device, and the next product copies them all up again; here a thread per row finds its diagonal by bisection
   among its sorted columns (AIJ keeps them sorted) and adds a in place: the same one rounding per value.
*/
#include "aijtkernels.h"
#include "setup.cuh"

namespace {

using aijt::setup_blocks;
using aijt::SETUP_BLOCK;

__global__ void shift_kernel(const int *rowptr, const int *colidx, double *values, int64_t n, double a)
{
  GRID_STRIDE(i, n)
  {
    int lo = rowptr[i], hi = rowptr[i + 1] - 1;
    while (lo < hi) { /* the first column at least i */
      const int mid = lo + (hi - lo) / 2;
      if (colidx[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    if (lo == hi && colidx[lo] == i) values[lo] += a;
  }
}

} // namespace

extern "C" cudaError_t aijt_dev_csr_shift(const int *rowptr, const int *colidx, double *values, aijt_int n, double a, cudaStream_t stream)
{
  if (n > 0) shift_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, stream>>>(rowptr, colidx, values, n, a);
  return cudaGetLastError();
}
