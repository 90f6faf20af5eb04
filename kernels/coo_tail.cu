/*
   The COO tail, y[row[k]] += val[k] * x[col[k]], launched after the strips on the same stream (which
   is what makes every row it touches initialised).

   The tail reduces within the warp before it touches memory.  Each warp takes 32 consecutive entries,
   one per lane.  A lane is the head of its run when it is lane 0 or its row differs from the previous
   lane's; a ballot of the heads tells each lane where its run ends (the next head, or 32).  A
   Hillis-Steele suffix sum confined to the run (add the value off lanes down only while that lane is
   still before the run's end) leaves in each head the sum of its run, and only heads do an
   atomicAdd(double) (native since sm_60).  Proof sketch: after the step with offset off, lane l holds
   the sum over [l, min(l + 2 off, end(l))); both halves it adds lie inside the run.  Since runs are
   maximal sequences of equal consecutive rows, the result is correct for any order of the entries:
   the planner's order (plan position, then column) only makes runs long, so that a row of the tail
   costs one atomic per warp instead of one per entry.  Lanes past nnz carry row -1 and value 0 and
   never add.  The loop is warp-uniform (it depends on the warp index only), as the shuffles require.
*/
#include "internal.cuh"

namespace aijt {

template <bool SPLIT>
__global__ void __launch_bounds__(AIJT_MAX_BLOCK)
  coo_tail_kernel(aijt_int nnz, const aijt_int *__restrict__ row, const aijt_int *__restrict__ col, const double *__restrict__ val, const x_source<SPLIT> x, double scale, double *y)
{
  const unsigned lane   = threadIdx.x & 31u;
  const int64_t  warp   = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t  nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;

  for (int64_t base = warp * 32; base < nnz; base += nwarps * 32) {
    const int64_t k = base + lane;
    aijt_int      r = -1;
    double        v = 0.0;
    if (k < nnz) {
      r = __ldg(row + k);
      v = __ldg(val + k) * x(__ldg(col + k));
    }
    const aijt_int prev  = __shfl_up_sync(AIJT_FULL_MASK, r, 1);
    const unsigned heads = __ballot_sync(AIJT_FULL_MASK, lane == 0 || prev != r);
    /* first lane of the next run: the lowest head above this lane, or 32 */
    const unsigned above = lane == 31 ? 0u : heads & (AIJT_FULL_MASK << (lane + 1));
    const unsigned end   = above ? (unsigned)__ffs((int)above) - 1u : 32u;
#pragma unroll
    for (unsigned off = 1; off < 32; off <<= 1) {
      const double w = __shfl_down_sync(AIJT_FULL_MASK, v, off);
      if (lane + off < end) v += w;
    }
    if (r >= 0 && ((heads >> lane) & 1u)) atomicAdd(y + r, scale * v);
  }
}

cudaError_t launch_coo_tail(dim3 grid, unsigned block, cudaStream_t stream, const aijt_dev_coo &t, const double *x, double scale, double *y)
{
  if (t.nhot) coo_tail_kernel<true><<<grid, block, 0, stream>>>(t.nnz, t.row, t.col, t.val, x_source<true>{x, t.xhot, t.nhot}, scale, y);
  else coo_tail_kernel<false><<<grid, block, 0, stream>>>(t.nnz, t.row, t.col, t.val, x_source<false>{x, NULL, 0}, scale, y);
  return cudaGetLastError();
}

} // namespace aijt
