/*
   Internal to the kernels (plan_gpu.cu): positions ordered by decreasing value, stably, where the host
   holds every value's count (the planner's rows by length, its columns by degree), in two launches.

   CUB's radix sort did it in 14 runtime calls: two allocations, a keys kernel, four memsets, four
   launches, an occupancy query and a free.  On an H100 inside PETSc they took about 90 of
   actor_movie_incidence's 240 us of planning, where the sort's kernels ran a few microseconds
   (bench/results/2026-11-27-plan-timeline); the host paced the GPU.  Here each value is a class of its
   own and a class keeps its positions' order:
   - count: a block per tile of positions counts each class in it (counts[tile * nclasses + c]);
   - place: every block reads all tiles' counts (a few hundred KB in L2), so that it has each class's
     total and its own tile's start in the class without a device-wide scan and its launch; each warp of
     the tile counts its share of positions, the block gives each warp its start, and each warp places
     its positions in order, a rank among the lanes of one class from the warp's match.
   A tile's counts are consecutive, so that a warp reads 32 classes of one tile in one load.  Kept class by class
   (counts[c * ntiles + tile], each thread summing its own classes' run), a warp's load touched 32 lines: on
   actor_movie_incidence's 127k rows the place kernel took 17.4 us against the count kernel's 8.8 between CUDA
   events on an H200 (bench/results/2026-11-28-stats-probe).
   Values below COUNT_SORT_SHORT are their own class index; up to COUNT_SORT_LONG distinct values past
   them come in a table in the launch's arguments.  Beyond that, or past COUNT_SORT_MAX_TILES tiles of
   65535 positions (a warp's places are unsigned short), count_sort_fits says no and the caller sorts
   otherwise.
*/
#pragma once

#include "setup.cuh"
extern "C" {
#include "planbuild.h" /* aijt_count_prev */
}

#include <cub/block/block_scan.cuh>

namespace aijt {

constexpr int      COUNT_SORT_SHORT     = 1024; /* values below: their own class */
constexpr int      COUNT_SORT_LONG      = 64;   /* distinct values at or past SHORT, at most */
constexpr int      COUNT_SORT_CLASSES   = COUNT_SORT_SHORT + COUNT_SORT_LONG;
constexpr unsigned COUNT_SORT_WARPS     = 16;
constexpr unsigned COUNT_SORT_THREADS   = 32 * COUNT_SORT_WARPS;
constexpr unsigned COUNT_SORT_ITEMS     = (COUNT_SORT_CLASSES + COUNT_SORT_THREADS - 1) / COUNT_SORT_THREADS; /* classes a thread scans */
constexpr int64_t  COUNT_SORT_TILE_MIN  = 2048;
constexpr int64_t  COUNT_SORT_TILE_MAX  = 65535;
constexpr int64_t  COUNT_SORT_MAX_TILES = 128; /* each block reads ntiles x classes counts */
/* the place kernel's starts and warps' counts (whose memory holds the classes' totals before them), with its
   scan's few hundred bytes, within 48 KB of static shared memory (47,904 bytes with 64-bit indices) */
static_assert(COUNT_SORT_CLASSES * (sizeof(aijt_int) + COUNT_SORT_WARPS * sizeof(unsigned short)) <= 47 * 1024, "count_sort's shared memory");

/* The classes, decreasing: the long values' table, then short values top, top - 1, ..., 0. */
struct count_classes {
  aijt_int longv[COUNT_SORT_LONG]; /* the distinct values >= COUNT_SORT_SHORT, decreasing */
  int      nlong;
  int      top;    /* the largest value below COUNT_SORT_SHORT that occurs; -1 if none */
  int64_t  tile;   /* positions a block sorts */
  int      ntiles; /* blocks */
};

/* The classes from count[v] (v in [0, max]) for n positions; false where they do not fit. */
inline bool count_sort_fits(const aijt_int *count, aijt_int max, int64_t n, count_classes *k)
{
  k->nlong = 0;
  k->top   = -1;
  for (aijt_int v = aijt_count_prev(count, max); v >= COUNT_SORT_SHORT; v = aijt_count_prev(count, v - 1)) {
    if (k->nlong == COUNT_SORT_LONG) return false;
    k->longv[k->nlong++] = v;
  }
  k->top = (int)aijt_count_prev(count, max < COUNT_SORT_SHORT - 1 ? max : COUNT_SORT_SHORT - 1);
  if (n < 1) return false;
  int64_t ntiles = (n + COUNT_SORT_TILE_MIN - 1) / COUNT_SORT_TILE_MIN;
  if (ntiles > COUNT_SORT_MAX_TILES) ntiles = COUNT_SORT_MAX_TILES;
  k->tile   = (n + ntiles - 1) / ntiles;
  k->ntiles = (int)((n + k->tile - 1) / k->tile);
  return k->tile <= COUNT_SORT_TILE_MAX;
}

__host__ __device__ inline int count_sort_nclasses(const count_classes &k)
{
  return k.nlong + k.top + 1;
}

/* The counts' scratch, in aijt_int. */
inline size_t count_sort_scratch(const count_classes &k)
{
  return (size_t)count_sort_nclasses(k) * (size_t)k.ntiles;
}

__device__ inline int count_class(aijt_int v, const count_classes &k)
{
  if (v < COUNT_SORT_SHORT) return k.nlong + (k.top - (int)v);
  int lo = 0, hi = k.nlong - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (k.longv[mid] > v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The lanes of one class (c < 0: none) add their number to count[c] once, by their first lane. */
template <typename T>
__device__ inline void count_sort_add(int c, T *count)
{
  const unsigned peers = __match_any_sync(0xffffffffu, c);
  if (c < 0 || (threadIdx.x & 31) != (unsigned)(__ffs(peers) - 1)) return;
  if (sizeof(T) == sizeof(unsigned)) atomicAdd((unsigned *)&count[c], (unsigned)__popc(peers));
  else count[c] += (T)__popc(peers); /* a warp's own counts */
}

/* Over i in [lo, hi) a warp's (or a block's, step its size) lanes at once, lanes past hi with i >= hi. */
#define COUNT_SORT_STEP(i, lo, hi, lane, step) for (int64_t i = (lo) + (lane); i - (lane) < (hi); i += (step))

template <class V>
__global__ void __launch_bounds__(COUNT_SORT_THREADS) count_sort_count_kernel(V value, int64_t n, const count_classes k, aijt_int *counts)
{
  __shared__ unsigned count[COUNT_SORT_CLASSES];
  const int           nd = count_sort_nclasses(k);
  const int64_t       lo = (int64_t)blockIdx.x * k.tile, hi = lo + k.tile < n ? lo + k.tile : n;

  for (int c = threadIdx.x; c < nd; c += blockDim.x) count[c] = 0;
  __syncthreads();
  COUNT_SORT_STEP(i, lo, hi, (int64_t)threadIdx.x, (int64_t)blockDim.x) count_sort_add(i < hi ? count_class(value(i), k) : -1, count);
  __syncthreads();
  for (int c = threadIdx.x; c < nd; c += blockDim.x) counts[(int64_t)blockIdx.x * nd + c] = (aijt_int)count[c];
}

template <class V>
__global__ void __launch_bounds__(COUNT_SORT_THREADS) count_sort_place_kernel(V value, int64_t n, const count_classes k, const aijt_int *counts, aijt_int *sorted)
{
  typedef cub::BlockScan<aijt_int, COUNT_SORT_THREADS> scan;
  __shared__ typename scan::TempStorage tmp;
  __shared__ aijt_int                   base[COUNT_SORT_CLASSES]; /* the tile's first place in each class */
  __shared__ union {
    unsigned short w[COUNT_SORT_WARPS][COUNT_SORT_CLASSES]; /* a warp's count, then its next place past base */
    aijt_int       total[COUNT_SORT_CLASSES];               /* before them: each class's total */
  } sh;
  unsigned short(*const wcount)[COUNT_SORT_CLASSES] = sh.w;
  const int      nd = count_sort_nclasses(k);
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int64_t  t0 = (int64_t)blockIdx.x * k.tile, t1 = t0 + k.tile < n ? t0 + k.tile : n;
  const int64_t  share = (k.tile + COUNT_SORT_WARPS - 1) / COUNT_SORT_WARPS;
  const int64_t  lo = t0 + w * share < t1 ? t0 + w * share : t1, hi = lo + share < t1 ? lo + share : t1;
  aijt_int       total[COUNT_SORT_ITEMS], first[COUNT_SORT_ITEMS];

  /* each class's total, and its positions in the tiles before this one in base: a warp's lanes read neighbouring
     classes of one tile */
  for (int c = threadIdx.x; c < nd; c += blockDim.x) {
    aijt_int all = 0, before = 0;
    for (int u = 0; u < k.ntiles; u++) {
      const aijt_int m = counts[(int64_t)u * nd + c];
      all += m;
      if (u < (int)blockIdx.x) before += m;
    }
    sh.total[c] = all;
    base[c]     = before;
  }
  __syncthreads();
  for (unsigned j = 0; j < COUNT_SORT_ITEMS; j++) { /* the scan takes the classes blocked by thread */
    const int c = (int)(threadIdx.x * COUNT_SORT_ITEMS + j);
    total[j]    = c < nd ? sh.total[c] : 0;
  }
  scan(tmp).ExclusiveSum(total, first); /* the classes in order: the first place of each */
  for (unsigned j = 0; j < COUNT_SORT_ITEMS; j++) {
    const int c = (int)(threadIdx.x * COUNT_SORT_ITEMS + j);
    if (c < nd) base[c] += first[j];
  }
  __syncthreads(); /* the totals read: their memory becomes the warps' counts */
  for (int c = threadIdx.x; c < nd; c += blockDim.x)
    for (unsigned q = 0; q < COUNT_SORT_WARPS; q++) wcount[q][c] = 0;
  __syncthreads();
  COUNT_SORT_STEP(i, lo, hi, (int64_t)lane, (int64_t)32) count_sort_add(i < hi ? count_class(value(i), k) : -1, wcount[w]);
  __syncthreads();
  for (int c = threadIdx.x; c < nd; c += blockDim.x) /* each warp's first place in class c, past base */
    for (unsigned q = 0, at = 0; q < COUNT_SORT_WARPS; q++) {
      const unsigned m = wcount[q][c];
      wcount[q][c]     = (unsigned short)at;
      at += m;
    }
  __syncthreads();
  COUNT_SORT_STEP(i, lo, hi, (int64_t)lane, (int64_t)32)
  {
    const int      c     = i < hi ? count_class(value(i), k) : -1;
    const unsigned peers = __match_any_sync(0xffffffffu, c);
    const unsigned at    = c >= 0 ? wcount[w][c] : 0;
    __syncwarp();
    if (c >= 0) {
      sorted[base[c] + (aijt_int)(at + __popc(peers & ((1u << lane) - 1)))] = (aijt_int)i;
      if (lane == (unsigned)(__ffs(peers) - 1)) wcount[w][c] = (unsigned short)(at + __popc(peers));
    }
    __syncwarp();
  }
}

/* Positions [0, n) by decreasing value(i), stably, into sorted (device, n), with counts (device,
   count_sort_scratch(k)) as scratch; k from count_sort_fits. */
template <class V>
cudaError_t count_sort(V value, int64_t n, const count_classes &k, aijt_int *counts, aijt_int *sorted, cudaStream_t stream)
{
  count_sort_count_kernel<<<(unsigned)k.ntiles, COUNT_SORT_THREADS, 0, stream>>>(value, n, k, counts);
  count_sort_place_kernel<<<(unsigned)k.ntiles, COUNT_SORT_THREADS, 0, stream>>>(value, n, k, counts, sorted);
  return cudaGetLastError();
}

} // namespace aijt
