/*
   ELLPACK, column-major: one thread per row; slot (i, j) is at j * nrows + i, so at every step j the
   threads of a warp read consecutive col and val entries (coalesced).

   Padding (col < 0) is skipped, never multiplied: x[-1] is never read, and an Inf or NaN in x cannot
   reach a row through a padded zero.  val is loaded unconditionally (a padded slot holds 0.0 at a valid
   address) so that the col and val loads of a step are independent and in flight together; only the
   x gather waits for col.
*/
#include "internal.cuh"

namespace aijt {

__global__ void __launch_bounds__(AIJT_MAX_BLOCK)
  ell_kernel(aijt_int nrows, aijt_int width, const aijt_int *__restrict__ rows, const aijt_int *__restrict__ col, const double *__restrict__ val, const double *__restrict__ x, const double *z, double *y)
{
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;

  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nrows; i += stride) {
    double sum = 0.0;
#pragma unroll 4
    for (aijt_int j = 0; j < width; j++) {
      const int64_t  k = (int64_t)j * nrows + i;
      const aijt_int c = __ldg(col + k);
      const double   v = __ldg(val + k);
      if (c >= 0) sum += v * __ldg(x + c);
    }
    const aijt_int r = __ldg(rows + i);
    y[r]             = row_start(z, r) + sum;
  }
}

void launch_ell(const launch_cfg &cfg, const aijt_dev_strip &s, const double *x, const double *z, double *y)
{
  ell_kernel<<<cfg.grid, cfg.block, 0, cfg.stream>>>(s.nrows, s.width, s.rows, s.col, s.val, x, z, y);
}

} // namespace aijt
