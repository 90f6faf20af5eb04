/*
   Internal to the kernels: a stable sort by decreasing value where the host knows the values that occur
   (the planner's order of rows by length and of columns by degree: it holds their counts).

   A radix sort of 128k keys took 41 us of GPU time with 4 key bits and 54 us with 10 on an H100, 62-78 us for
   1M keys (bench/results/2026-11-27-sort-cost): its launches, not its data.  Here each distinct value is
   a class, and a class's rows keep their order:
   - count: a block per tile of CLASS_SORT_TILE positions counts each class in it;
   - scan: the counts, class by class and within a class tile by tile, scanned give each tile's first
     position in each class (one device-wide scan);
   - scatter: each warp of a tile counts its share again, the block adds the warps' counts to the tile's
     firsts, and each warp places its positions in order, a rank among the lanes of one class from the
     warp's match.
   Three kernels and a scan, whatever the number of distinct values up to CLASS_SORT_MAX (beyond it the
   caller sorts otherwise).
*/
#pragma once

#include "setup.cuh"

#include <cub/device/device_scan.cuh>

namespace aijt {

constexpr int      CLASS_SORT_MAX   = 1024; /* distinct values */
constexpr unsigned CLASS_SORT_TILE  = 2048; /* positions a block sorts */
constexpr unsigned CLASS_SORT_WARPS = 8;    /* a block's warps, each a contiguous share of its tile */
constexpr unsigned CLASS_SORT_SHARE = CLASS_SORT_TILE / CLASS_SORT_WARPS;
static_assert(CLASS_SORT_TILE <= 65535, "a warp's places past a class's first are unsigned short");

/* The class of v: its place in dv[0, nd), the distinct values in decreasing order (v is one of them). */
__device__ inline int class_of(aijt_int v, const aijt_int *dv, int nd)
{
  int lo = 0, hi = nd - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (dv[mid] > v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* This lane's class's count added by the class's first lane (c < 0: none): a warp's lanes of one class
   then make one shared atomic, where a stencil's 32 would queue on one word.  A warp's own counts
   (T unsigned short, at most CLASS_SORT_TILE) need no atomic. */
template <typename T>
__device__ inline void class_count_add(int c, T *count)
{
  const unsigned peers = __match_any_sync(0xffffffffu, c);
  if (c < 0 || (threadIdx.x & 31) != (unsigned)(__ffs(peers) - 1)) return;
  if (sizeof(T) == sizeof(unsigned)) atomicAdd((unsigned *)&count[c], (unsigned)__popc(peers));
  else count[c] += (T)__popc(peers);
}

__device__ inline void load_classes(const aijt_int *classes, int nd, aijt_int *dv)
{
  for (int c = threadIdx.x; c < nd; c += blockDim.x) dv[c] = classes[c];
}

/* counts[c * ntiles + tile]: the tile's positions of class c. */
template <class V>
__global__ void __launch_bounds__(32 * CLASS_SORT_WARPS) class_count_kernel(V value, int64_t n, const aijt_int *classes, int nd, aijt_int *counts, int64_t ntiles)
{
  __shared__ aijt_int dv[CLASS_SORT_MAX];
  __shared__ unsigned count[CLASS_SORT_MAX];
  const int64_t       lo = (int64_t)blockIdx.x * CLASS_SORT_TILE, hi = lo + CLASS_SORT_TILE < n ? lo + CLASS_SORT_TILE : n;

  load_classes(classes, nd, dv);
  for (int c = threadIdx.x; c < nd; c += blockDim.x) count[c] = 0;
  __syncthreads();
  for (int64_t i = lo + threadIdx.x; i - threadIdx.x < hi; i += blockDim.x) class_count_add(i < hi ? class_of(value(i), dv, nd) : -1, count);
  __syncthreads();
  for (int c = threadIdx.x; c < nd; c += blockDim.x) counts[c * ntiles + blockIdx.x] = (aijt_int)count[c];
}

/* sorted[first[c * ntiles + tile] + k] = the k-th position of class c in the tile. */
template <class V>
__global__ void __launch_bounds__(32 * CLASS_SORT_WARPS) class_scatter_kernel(V value, int64_t n, const aijt_int *classes, int nd, const aijt_int *first, int64_t ntiles, aijt_int *sorted)
{
  __shared__ aijt_int dv[CLASS_SORT_MAX], base[CLASS_SORT_MAX];
  __shared__ unsigned short count[CLASS_SORT_WARPS][CLASS_SORT_MAX]; /* a warp's count, then its next place past base */
  const unsigned      w = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int64_t       tile = (int64_t)blockIdx.x * CLASS_SORT_TILE, lo = tile + w * CLASS_SORT_SHARE, end = lo + CLASS_SORT_SHARE < n ? lo + CLASS_SORT_SHARE : n;

  load_classes(classes, nd, dv);
  for (int c = threadIdx.x; c < nd; c += blockDim.x) {
    base[c] = first[c * ntiles + blockIdx.x];
    for (unsigned k = 0; k < CLASS_SORT_WARPS; k++) count[k][c] = 0;
  }
  __syncthreads();
  for (int64_t i = lo + lane; i - lane < end; i += 32) class_count_add(i < end ? class_of(value(i), dv, nd) : -1, count[w]);
  __syncthreads();
  for (int c = threadIdx.x; c < nd; c += blockDim.x) /* each warp's first place in class c, past base */
    for (unsigned k = 0, at = 0; k < CLASS_SORT_WARPS; k++) {
      const unsigned m = count[k][c];
      count[k][c]      = (unsigned short)at;
      at += m;
    }
  __syncthreads();
  for (int64_t i = lo + lane; i - lane < end; i += 32) {
    const int      c     = i < end ? class_of(value(i), dv, nd) : -1;
    const unsigned peers = __match_any_sync(0xffffffffu, c);
    const unsigned at    = c >= 0 ? count[w][c] : 0;
    __syncwarp();
    if (c >= 0) {
      sorted[base[c] + at + __popc(peers & ((1u << lane) - 1))] = (aijt_int)i;
      if (lane == (unsigned)(__ffs(peers) - 1)) count[w][c] = (unsigned short)(at + __popc(peers));
    }
    __syncwarp();
  }
}

inline int64_t class_sort_tiles(int64_t n)
{
  return (n + CLASS_SORT_TILE - 1) / CLASS_SORT_TILE;
}

/* Positions [0, n) ordered by decreasing value(i), stably, into sorted (device, n).  classes: the nd
   distinct values, decreasing (host, 1 <= nd <= CLASS_SORT_MAX; every value(i) is one of them).  As CUB's
   calls: work NULL sets *bytes to the scratch it needs. */
template <class V>
cudaError_t class_sort(V value, int64_t n, const aijt_int *classes, int nd, void *work, size_t *bytes, aijt_int *sorted, cudaStream_t stream)
{
  const int64_t ntiles = class_sort_tiles(n), ncount = (int64_t)nd * ntiles;
  const size_t  part   = ((size_t)ncount * sizeof(aijt_int) + 255) / 256 * 256, head = ((size_t)nd * sizeof(aijt_int) + 255) / 256 * 256;
  size_t        scan   = 0;

  if (nd < 1 || nd > CLASS_SORT_MAX) return cudaErrorInvalidValue;
  TRY(cub::DeviceScan::ExclusiveSum(NULL, scan, (aijt_int *)NULL, (aijt_int *)NULL, ncount, stream));
  if (!work) {
    *bytes = head + 2 * part + scan;
    return cudaSuccess;
  }
  if (!n) return cudaSuccess;
  aijt_int *dv = (aijt_int *)work, *counts = (aijt_int *)((char *)work + head), *first = (aijt_int *)((char *)work + head + part);
  TRY(cudaMemcpyAsync(dv, classes, (size_t)nd * sizeof(aijt_int), cudaMemcpyHostToDevice, stream));
  class_count_kernel<<<(unsigned)ntiles, 32 * CLASS_SORT_WARPS, 0, stream>>>(value, n, dv, nd, counts, ntiles);
  TRY(cudaGetLastError());
  TRY(cub::DeviceScan::ExclusiveSum((char *)work + head + 2 * part, scan, counts, first, ncount, stream));
  class_scatter_kernel<<<(unsigned)ntiles, 32 * CLASS_SORT_WARPS, 0, stream>>>(value, n, dv, nd, first, ntiles, sorted);
  return cudaGetLastError();
}

} // namespace aijt
