/*
   The one place that maps a strip's format and parameters to a kernel and a launch configuration.

   Block sizes are normalised, not refused: every kernel is correct for any block that is a multiple of
   32 (CSR-vector groups must not straddle warps; the block reductions count whole warps) up to 1024,
   so a planner value such as 40 becomes 32.  Grids are sized for one unit of work (row, row group or
   tail entry) per thread or block and capped at the hardware limit; the kernels loop grid-stride, so
   the cap never loses work.
*/
#include "internal.cuh"

#include <string.h>

namespace {

using aijt::launch_cfg;

constexpr int64_t kGridXMax = 0x7fffffff; /* gridDim.x limit */
constexpr int     kGridYMax = 65535;      /* gridDim.y limit: bounds the parts of a split LONG row */

typedef void (*strip_launcher)(const launch_cfg &, const aijt_dev_strip &, const double *, const double *, double *);

unsigned block_of(int block)
{
  if (block <= 0) return 256;
  if (block > AIJT_MAX_BLOCK) block = AIJT_MAX_BLOCK;
  if (block < 32) block = 32;
  return (unsigned)block & ~31u;
}

/* Blocks for n units at per_block units per block: at least 1, at most the gridDim.x limit. */
unsigned grid_for(int64_t n, int64_t per_block)
{
  const int64_t g = (n + per_block - 1) / per_block;
  return (unsigned)(g < 1 ? 1 : g > kGridXMax ? kGridXMax : g);
}

/* log2 of a power of two in [1, 32], or -1. */
int log2_tpr(int tpr)
{
  if (tpr < 1 || tpr > 32 || (tpr & (tpr - 1))) return -1;
  int lg = 0;
  while ((1 << lg) < tpr) lg++;
  return lg;
}

} // namespace

extern "C" void aijt_dev_strip_init(aijt_dev_strip *d, const aijt_strip *P, const aijt_layout *S)
{
  memset(d, 0, sizeof(*d));
  d->format         = S->format;
  d->nrows          = S->nrows;
  d->nslots         = S->nslots;
  d->width          = S->width;
  d->chunk          = S->chunk;
  d->tpr            = P->tpr;
  d->blocks_per_row = P->blocks_per_row;
  d->block          = P->block;
}

extern "C" cudaError_t aijt_cuda_strip(const aijt_dev_strip *s, const double *x, const double *z, double *y, cudaStream_t stream)
{
  using namespace aijt;
  if (!s || s->nrows < 0) return cudaErrorInvalidValue;
  if (s->nrows == 0) return cudaSuccess;
  const unsigned block = block_of(s->block);
  launch_cfg     cfg   = {dim3(grid_for(s->nrows, block)), block, stream}; /* one thread per row */

  switch (s->format) {
  case AIJT_CSR: {
#define AIJT_CSR_ENTRY(T) launch_csr_vector<T>,
    static const strip_launcher by_log2_tpr[] = {AIJT_TPR_LIST(AIJT_CSR_ENTRY)};
#undef AIJT_CSR_ENTRY
    static_assert(sizeof(by_log2_tpr) / sizeof(by_log2_tpr[0]) == 6, "one CSR-vector kernel per tpr in 1..32");
    const int lg = log2_tpr(s->tpr);
    if (lg < 0) return cudaErrorInvalidValue;
    cfg.grid = dim3(grid_for(s->nrows, block / (unsigned)s->tpr)); /* one group of tpr lanes per row */
    by_log2_tpr[lg](cfg, *s, x, z, y);
    break;
  }
  case AIJT_LONG: {
    if (s->blocks_per_row < 1) return cudaErrorInvalidValue;
    const unsigned parts = (unsigned)(s->blocks_per_row < kGridYMax ? s->blocks_per_row : kGridYMax);
    if (parts == 1) {
      cfg.grid = dim3(grid_for(s->nrows, 1)); /* one block per row */
      launch_csr_long<false>(cfg, *s, x, z, y);
    } else {
      /* y[rows] = z first; stream order puts it before every atomic of the split kernel */
      launch_rows_init(cfg, s->nrows, s->rows, z, y);
      const cudaError_t err = cudaGetLastError();
      if (err != cudaSuccess) return err;
      cfg.grid = dim3(grid_for(s->nrows, 1), parts); /* x: rows, y: parts of a row */
      launch_csr_long<true>(cfg, *s, x, z, y);
    }
    break;
  }
  case AIJT_ELL:
    if (s->width < 0) return cudaErrorInvalidValue;
    launch_ell(cfg, *s, x, z, y);
    break;
  case AIJT_SELL: {
    if (s->chunk < 1) return cudaErrorInvalidValue;
    /* the planner's default C = 32 gets constant indexing; any other C reads it at run time */
    const strip_launcher sell = s->chunk == 32 ? launch_sell<32> : launch_sell<0>;
    sell(cfg, *s, x, z, y);
    break;
  }
  case AIJT_COO: /* the entries are in the tail; the strip only initialises its rows */
    launch_rows_init(cfg, s->nrows, s->rows, z, y);
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_cuda_tail(const aijt_dev_coo *t, const double *x, double *y, cudaStream_t stream)
{
  if (!t || t->nnz < 0) return cudaErrorInvalidValue;
  if (t->nnz == 0) return cudaSuccess;
  const unsigned block = block_of(t->block);
  aijt::launch_coo_tail(launch_cfg{dim3(grid_for(t->nnz, block)), block, stream}, *t, x, y); /* one entry per thread */
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_cuda_spmv(const aijt_dev_strip *strips, int nstrips, const aijt_dev_coo *t, const double *x, const double *z, double *y, cudaStream_t stream)
{
  for (int s = 0; s < nstrips; s++) {
    const cudaError_t err = aijt_cuda_strip(&strips[s], x, z, y, stream);
    if (err != cudaSuccess) return err;
  }
  return t ? aijt_cuda_tail(t, x, y, stream) : cudaSuccess;
}
