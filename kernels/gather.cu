/*
   Copy through an index, out[k] = x[idx[k]]: the values of x that other ranks need, packed for the
   ghost exchange of mpiaijtuned (mpi/cuda/ghostscuda.c), and the hot columns' copy of x that the strips
   of a plan with a column order read (aijtkernels.h).
*/
#include "internal.cuh"

namespace aijt {

__global__ void __launch_bounds__(256) gather_kernel(aijt_int n, const aijt_int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ out)
{
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) out[k] = __ldg(x + __ldg(idx + k));
}

} // namespace aijt

extern "C" cudaError_t aijt_cuda_gather(aijt_int n, const aijt_int *idx, const double *x, double *out, cudaStream_t stream)
{
  if (n < 0) return cudaErrorInvalidValue;
  if (!n) return cudaSuccess;
  const int64_t blocks = ((int64_t)n + 255) / 256;
  aijt::gather_kernel<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(n, idx, x, out);
  return cudaGetLastError();
}
