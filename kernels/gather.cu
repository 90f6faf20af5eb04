/*
   Copies through an index.  Gather, out[k] = x[idx[k]]: the values of x that other ranks need, packed
   for the ghost exchange of mpiaijtuned (mpi/cuda/ghostscuda.c).  Scatter, out[idx[k]] = x[k]: x' = P^T x
   for plans with a column order; x is read in order and the stores, which no thread waits for, go
   wherever they go (a gather waits on each random load).
*/
#include "internal.cuh"

namespace aijt {

/* SCATTER false: out[k] = x[idx[k]]; true: out[idx[k]] = x[k]. */
template <bool SCATTER>
__global__ void __launch_bounds__(256) index_copy_kernel(aijt_int n, const aijt_int *__restrict__ idx, const double *__restrict__ x, double *__restrict__ out)
{
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x) {
    if (SCATTER) out[__ldg(idx + k)] = __ldg(x + k);
    else out[k] = __ldg(x + __ldg(idx + k));
  }
}

template <bool SCATTER>
cudaError_t index_copy(aijt_int n, const aijt_int *idx, const double *x, double *out, cudaStream_t stream)
{
  if (n < 0) return cudaErrorInvalidValue;
  if (!n) return cudaSuccess;
  const int64_t blocks = ((int64_t)n + 255) / 256;
  index_copy_kernel<SCATTER><<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(n, idx, x, out);
  return cudaGetLastError();
}

} // namespace aijt

extern "C" cudaError_t aijt_cuda_gather(aijt_int n, const aijt_int *idx, const double *x, double *out, cudaStream_t stream)
{
  return aijt::index_copy<false>(n, idx, x, out, stream);
}

extern "C" cudaError_t aijt_cuda_scatter(aijt_int n, const aijt_int *idx, const double *x, double *out, cudaStream_t stream)
{
  return aijt::index_copy<true>(n, idx, x, out, stream);
}
