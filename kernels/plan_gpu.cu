/*
   The model planner's passes over rows and entries on the GPU (aijt_plan_source, aijtmodel.h).

   On the host every plan cost at least a pass over the row offsets, and the diagonal test and the column
   order a pass over every entry: 12 ms for lap3d and 120 ms for R-MAT on the development machine, where
   a product takes 0.05 and 0.5 ms on an H100 (bench/results/2026-11-21-host-setup-colhot).  Here the
   device makes those passes over its copy of the CSR, and the host keeps the decisions: the length
   classes, the dynamic program, the DIA and PANEL choices (partition.c), on a few hundred numbers.

   Every pass gives the host's values bit for bit (the kernel test compares whole plans):
   - lengths: the row statistics in integers and count[len] by histogram, in one pass for lengths under
     1024, the first 1024 longer rows listed in the same pass (a second pass where there are more);
   - diagonals, in the same launch as the lengths when the plan may be DIA (blocks of both interleaved):
     each block collects its distinct offsets in a small set in shared memory, then merges them into one
     in global memory, which the zeroing of the statistics empties; more than the limit anywhere stops
     every block of the test;
   - columns: the degrees by atomic counts (of the auto test's sample, then of every entry), their counts
     back to the host for the test and the hot count, and the order by degree by a stable sort;
   - rows: the order by length by a stable sort, the host's counting sort: from the counts the host holds
     in two launches (count_sort.cuh), else by a radix sort of (longest - length, row);
   - sectors: a thread block per locality window, the windows and their counts in the stage's mapped
     buffer (no copies, no allocations); the natural order's few windows, which STREAM's price reads, are
     counted with the lengths, blocks of their launch.
   The order and the column order stay on the device until the plan is made; fetch copies back only
   what the plan keeps (a DIA plan keeps neither).

   Set-up code, not a product: it allocates on the stream and waits for it after each pass (the waits,
   a few tens of microseconds each, are most of its time on stencils).  AIJT_PLAN_GPU_TRACE=1 in the
   environment prints each pass's time.
*/
#include "aijtkernels.h"
#include "count_sort.cuh"
#include "setup.cuh"
extern "C" { /* the planner is C */
#include "aijtblockrow.h"
#include "planbuild.h"
}

#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <type_traits>

namespace {

using aijt::setup_blocks;
using aijt::SETUP_BLOCK;

#define SET_SLOTS 128 /* as diagonals.c: at least twice AIJT_DIA_MAX_DIAGS */

/* The distinct diagonals found: an open-addressing set of the offsets' keys (global_key: a zero slot is
   empty, so that zeroing the statistics empties it too). */
struct diag_set {
  int      n, over; /* distinct offsets met, more than the limit */
  aijt_int set[SET_SLOTS];
};

/* The natural order's windows (aijt_natural_windows), which a kernel takes by value: no copy to the device. */
struct natural_windows {
  aijt_window w[AIJT_NATURAL_WINDOWS];
};

struct gpu_source {
  const aijt_csr     *A; /* host: sizes, and the few row offsets the column test reads */
  const aijt_dev_csr *D; /* device: rowptr, colidx */
  cudaStream_t        stream;
  cudaError_t         err;     /* the first failure */
  aijt_int           *order;   /* device, after rows */
  aijt_int           *col_pos; /* device, after columns */
  const aijt_plan_source *inner; /* with AIJT_PLAN_GPU_TRACE set: the ops the traced ones time */
  const aijt_rules       *R;
  int                     diag_max; /* > 0: diag holds the diagonals up to that many (made with the lengths) */
  int                     keep;     /* fetch leaves the order and the column order on the device */
  diag_set                diag;
  int                     natural_n; /* > 0: the natural order's windows, counted with the lengths */
  natural_windows         natural_w;
  int                     natural_d[AIJT_NATURAL_WINDOWS];
};

/* Record the first failure; true while all is well. */
bool ok(gpu_source *g, cudaError_t e)
{
  if (e != cudaSuccess && g->err == cudaSuccess) g->err = e;
  return g->err == cudaSuccess;
}

template <typename T>
bool alloc(gpu_source *g, T **p, size_t n)
{
  *p = NULL;
  return ok(g, cudaMallocAsync((void **)p, (n ? n : 1) * sizeof(T), g->stream));
}

template <typename T>
void release(gpu_source *g, T *&p)
{
  if (p) (void)cudaFreeAsync(p, g->stream);
  p = NULL;
}

/* Device to host, then wait: the host reads it next. */
bool fetch_to_host(gpu_source *g, void *to, const void *from, size_t bytes)
{
  return ok(g, aijt_dev_fetch(to, from, bytes, g->stream));
}

__device__ void add_count(aijt_int *c, aijt_int v)
{
  if (sizeof(aijt_int) == 4) atomicAdd((int *)c, (int)v);
  else atomicAdd((unsigned long long *)c, (unsigned long long)v);
}

/* ---- diagonals (the kernel; gpu_diagonals below) */

#define SET_EMPTY ((aijt_int)(sizeof(aijt_int) == 4 ? INT32_MIN : INT64_MIN)) /* no offset col - row is this */

__device__ aijt_int cas(aijt_int *p, aijt_int expect, aijt_int v)
{
  if (sizeof(aijt_int) == 4) return (aijt_int)atomicCAS((int *)p, (int)expect, (int)v);
  return (aijt_int)atomicCAS((unsigned long long *)p, (unsigned long long)expect, (unsigned long long)v);
}

/* Past the limit: the block's flag, and the flag every block polls, raised once per block (each of a
   hundred thousand threads writing one global word would queue there: circuit's test took 0.2 ms, its
   every row past the limit at once). */
__device__ void raise_flags(int *block_over, int *over)
{
  if (!atomicExch(block_over, 1) && !*(volatile int *)over) atomicExch(over, 1);
}

/* In global memory a set holds off ^ SET_EMPTY, never 0 (no offset is SET_EMPTY): zeroed memory is an
   empty set.  In shared memory it holds the offsets, its empty slots SET_EMPTY. */
__host__ __device__ inline aijt_int global_key(aijt_int off)
{
  return off ^ SET_EMPTY;
}

/* Put off into set (SET_SLOTS slots, empty ones hold empty); a new one raises *n, past max it raises the
   flags.  False when it could not (full, or over). */
__device__ bool set_insert(aijt_int *set, aijt_int empty, int *n, int max, int *block_over, int *over, aijt_int off)
{
  unsigned h = ((unsigned)off * 2654435761u) & (SET_SLOTS - 1);
  for (int probe = 0; probe < SET_SLOTS; probe++, h = (h + 1) & (SET_SLOTS - 1)) {
    aijt_int v = *(volatile aijt_int *)&set[h];
    if (v == off) return true; /* a stencil's every insert but its first few */
    /* the set is past the limit: done (circuit's first rows, 129 offsets near the diagonal inserted at
       once, fill every slot before the count says so, and each insert after probed all of them) */
    if (*(volatile int *)n > max) break;
    if (v != empty) continue;
    v = cas(&set[h], empty, off);
    if (v == off) return true;
    if (v != empty) continue;
    if (atomicAdd(n, 1) >= max) {
      raise_flags(block_over, over);
      return false;
    }
    return true;
  }
  raise_flags(block_over, over);
  return false;
}

#define DIAG_LOADS 4 /* entries a thread loads before it inserts them */

/* A thread per row, its entries read DIAG_LOADS at a time before they are inserted (loads in flight: one
   at a time, lap3d's test took 89 us, more than its product; 69 us so, H100,
   bench/results/2026-11-22-h100-diag-unroll); a stencil's threads insert the same offset at once, which
   shared memory broadcasts.  A thread stops at the first offset past the limit, its block at its next
   row, and every block at its next row once any is past it.  This block is block of nblocks doing the
   test (a launch may give other blocks other work: lengths_kernel); d starts zeroed. */
__device__ void diagonals_body(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, diag_set *d, unsigned block, unsigned nblocks)
{
  __shared__ aijt_int set[SET_SLOTS];
  __shared__ int      n, block_over;
  int *const          over = &d->over;
  for (unsigned s = threadIdx.x; s < SET_SLOTS; s += blockDim.x) set[s] = SET_EMPTY;
  if (threadIdx.x == 0) n = block_over = 0;
  __syncthreads();
  for (int64_t r = (int64_t)block * blockDim.x + threadIdx.x; r < (int64_t)nrows; r += (int64_t)nblocks * blockDim.x) {
    if (*(volatile int *)&block_over || *(volatile int *)over) break;
    const aijt_int e  = rowptr[r + 1];
    bool           go = true;
    for (aijt_int k = rowptr[r]; k < e && go; k += DIAG_LOADS) {
      aijt_int c[DIAG_LOADS];
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++) c[u] = k + u < e ? colidx[k + u] : 0;
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++)
        if (go && k + u < e) go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, c[u] - (aijt_int)r);
    }
    if (!go) break;
  }
  __syncthreads();
  for (unsigned s = threadIdx.x; s < SET_SLOTS; s += blockDim.x)
    if (set[s] != SET_EMPTY && !*(volatile int *)over) set_insert(d->set, 0, &d->n, max, &block_over, over, global_key(set[s]));
}

__global__ void diagonals_kernel(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, diag_set *d)
{
  diagonals_body(rowptr, colidx, nrows, max, d, blockIdx.x, gridDim.x);
}

#ifndef STAT_BLOCKS /* NVFLAGS_EXTRA=-DSTAT_BLOCKS=N to compare */
  #define STAT_BLOCKS 1024 /* few blocks, so that their atomics on the same few words do not queue */
#endif

#ifndef DIAG_BLOCKS /* NVFLAGS_EXTRA=-DDIAG_BLOCKS=N to compare */
  #define DIAG_BLOCKS (2 * STAT_BLOCKS) /* 512 to 4096 on an H200: 2048 the best on the stencils, whose test reads every
                                           index (bench/results/2026-11-28-cold-steps, sweep.sh) */
#endif

/* Blocks for the diagonal test of this matrix. */
unsigned diag_blocks(const gpu_source *g)
{
  return setup_blocks(g->A->nrows) < DIAG_BLOCKS ? setup_blocks(g->A->nrows) : DIAG_BLOCKS;
}

/* ---- counts of values: row lengths, column degrees */

#define HIST_SHARED 1024 /* values below this are counted with the statistics, in shared memory first */
/* Add 1 to count[key] for each lane with a key (>= 0; keys below nsh into sh): the lanes of the warp with
   one key add once (a stencil's rows mostly agree on their length, a graph's columns on their degree). */
__device__ void warp_count(aijt_int key, aijt_int *sh, aijt_int nsh, aijt_int *count)
{
  const unsigned peers = __match_any_sync(0xffffffffu, (unsigned long long)key);
  if (key < 0 || (threadIdx.x & 31) != (unsigned)(__ffs(peers) - 1)) return;
  add_count(key < nsh ? &sh[key] : &count[key], (aijt_int)__popc(peers));
}

struct row_len { /* the values: row lengths ... */
  const aijt_int *rowptr;
  __device__ aijt_int operator()(int64_t i) const { return rowptr[i + 1] - rowptr[i]; }
};
struct array_of { /* ... or an array's entries */
  const aijt_int *v;
  __device__ aijt_int operator()(int64_t i) const { return v[i]; }
};

/* Values of HIST_SHARED or more listed with the statistics, up to this many: R-MAT's 4.2k long rows and
   as many hub columns, and LP's 4096 rows of 3500, then need no second pass and no copy of a dense count
   of 62k values; the statistics' copy grows from 9 to 37 KB (about 1 us more). */
#define LONG_LISTED 8192

/* Sums, extremes and the counts of the values below HIST_SHARED, and the first LONG_LISTED values above
   (nlong counts them all): one pass, zeroed before, one copy back.  Its host copy lives on the stack: a
   fresh malloc of its 37 KB, zeroed, took 16-24 us inside PETSc on an H100's host (its pages faulted in),
   3-4 us outside (bench/results/2026-11-25-plan-fuse). */
struct value_stats {
  unsigned long long s1, s2, zeros;
  unsigned long long lo_c, hi; /* lo_c: ~min, so that a zeroed word starts below every value's */
  unsigned long long nlong;
  aijt_int           hist[HIST_SHARED];
  aijt_int           longs[LONG_LISTED];
  diag_set           diag; /* with the row lengths: the diagonals in the same wait */
};

/* This block's share (block of nblocks) of the statistics, added to *out (zeroed before). */
template <class V>
__device__ void stats_body(V value, aijt_int n, value_stats *out, unsigned block, unsigned nblocks)
{
  constexpr unsigned            WARPS = SETUP_BLOCK / 32;
  __shared__ unsigned long long s1[WARPS], s2[WARPS], z[WARPS], lo[WARPS], hi[WARPS];
  __shared__ aijt_int           sh[HIST_SHARED];
  unsigned long long            a = 0, b = 0, e = 0, l = 0, h = 0;
  const unsigned                t = threadIdx.x;

  for (unsigned q = t; q < HIST_SHARED; q += blockDim.x) sh[q] = 0;
  __syncthreads();
  WARP_STRIDE(i, n, block, nblocks)
  {
    const long long v = i < n ? (long long)value(i) : -1;
    if (v >= 0) {
      const unsigned long long u = (unsigned long long)v;
      a += u, b += u * u, e += u == 0;
      l = ~u > l ? ~u : l;
      h = u > h ? u : h;
    }
    warp_count(v < HIST_SHARED ? (aijt_int)v : -1, sh, HIST_SHARED, NULL);
    if (v >= HIST_SHARED) { /* a long row, a hub column: few */
      const unsigned long long at = atomicAdd(&out->nlong, 1ull);
      if (at < LONG_LISTED) out->longs[at] = (aijt_int)v;
    }
  }
  /* the block's sums: each warp's by shuffles, then the warps' by thread 0 (a tree over the block's threads in
     shared memory, eight waits for the whole block, held each block's chain of steps longer) */
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long l2 = __shfl_down_sync(0xffffffffu, l, o), h2 = __shfl_down_sync(0xffffffffu, h, o);
    a += __shfl_down_sync(0xffffffffu, a, o), b += __shfl_down_sync(0xffffffffu, b, o), e += __shfl_down_sync(0xffffffffu, e, o);
    l = l2 > l ? l2 : l, h = h2 > h ? h2 : h;
  }
  if ((t & 31) == 0) s1[t / 32] = a, s2[t / 32] = b, z[t / 32] = e, lo[t / 32] = l, hi[t / 32] = h;
  __syncthreads();
  if (t == 0) {
    for (unsigned q = 1; q < WARPS; q++) {
      a += s1[q], b += s2[q], e += z[q];
      l = lo[q] > l ? lo[q] : l, h = hi[q] > h ? hi[q] : h;
    }
    atomicAdd(&out->s1, a);
    atomicAdd(&out->s2, b);
    atomicAdd(&out->zeros, e);
    atomicMax(&out->lo_c, l);
    atomicMax(&out->hi, h);
  }
  for (unsigned q = t; q < HIST_SHARED; q += blockDim.x)
    if (sh[q]) add_count(&out->hist[q], sh[q]);
}

/* With done (a count of finished blocks, 0 before): the launch's last block copies what the statistics
   hold in *acc to *result (the host's pinned memory, mapped) and zeroes it in *acc, done too, so that
   the next launch finds them zeroed with no memset of its own (aijt_dev_stage_begin).  Every block calls it. */
__device__ void finish_stats(value_stats *acc, unsigned *done, value_stats *result)
{
  __shared__ bool last;
  if (!done) return;
  __threadfence(); /* this block's atomics before its count */
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  /* read past L1 (other blocks wrote it), all of a thread's share at once, then written: one load after another,
     each after the last one's stores, the copy was a chain of round trips at the end of the launch */
  constexpr unsigned       PER = HIST_SHARED / SETUP_BLOCK;
  static_assert(HIST_SHARED % SETUP_BLOCK == 0 && SET_SLOTS <= SETUP_BLOCK, "finish_stats takes HIST_SHARED / SETUP_BLOCK counts and one slot a thread");
  const unsigned           t = threadIdx.x;
  const unsigned long long nlong = __ldcg(&acc->nlong), listed = nlong < LONG_LISTED ? nlong : LONG_LISTED;
  aijt_int                 hist[PER], slot = t < SET_SLOTS ? __ldcg(&acc->diag.set[t]) : 0;
  for (unsigned j = 0; j < PER; j++) hist[j] = __ldcg(&acc->hist[t + j * SETUP_BLOCK]);
  unsigned long long s1 = 0, s2 = 0, zeros = 0, lo_c = 0, hi = 0;
  int                dn = 0, dover = 0;
  if (t == 0) s1 = __ldcg(&acc->s1), s2 = __ldcg(&acc->s2), zeros = __ldcg(&acc->zeros), lo_c = __ldcg(&acc->lo_c), hi = __ldcg(&acc->hi), dn = __ldcg(&acc->diag.n), dover = __ldcg(&acc->diag.over);
  for (unsigned j = 0; j < PER; j++) result->hist[t + j * SETUP_BLOCK] = hist[j], acc->hist[t + j * SETUP_BLOCK] = 0;
  if (t < SET_SLOTS) result->diag.set[t] = slot, acc->diag.set[t] = 0;
  for (unsigned long long q = t; q < listed; q += blockDim.x) result->longs[q] = __ldcg(&acc->longs[q]), acc->longs[q] = 0;
  if (t == 0) {
    result->s1 = s1, result->s2 = s2, result->zeros = zeros, result->lo_c = lo_c, result->hi = hi, result->nlong = nlong;
    result->diag.n = dn, result->diag.over = dover;
    acc->s1 = acc->s2 = acc->zeros = acc->lo_c = acc->hi = acc->nlong = 0;
    acc->diag.n = acc->diag.over = 0;
    *(volatile unsigned *)done = 0;
  }
  __threadfence_system();
}

template <class V>
__global__ void stats_kernel(V value, aijt_int n, value_stats *out, unsigned *done, value_stats *result)
{
  stats_body(value, n, out, blockIdx.x, gridDim.x);
  finish_stats(out, done, result);
}

__device__ void sectors_body(const aijt_int *rowptr, const aijt_int *colidx, const aijt_int *order, aijt_int nrows, const aijt_int *col_pos, aijt_int nhot, const aijt_window w, int *distinct);

/* The lengths' pass in one launch: the sectors of the natural order's first nnat windows (into distinct), then
   the statistics and the diagonal test, their nstat + ndiag blocks spread so that both run at once from the
   start (one after the other on a stream, lap3d's took 21 and 63 us on an H100, the statistics far from the
   memory's rate; bench/results/2026-11-25-h100-verify/v4): block b past the windows is the k-th of the
   statistics' where the nstat-in-(nstat + ndiag) count first reaches k at b.  The windows had a launch of
   their own after the statistics', 7-8 us between CUDA events on an H200 (bench/results/2026-11-28-stats-probe). */
static_assert(AIJT_LOCALITY_WINDOW == SETUP_BLOCK, "a window's block is one of the lengths' launch");
template <class V>
__global__ void lengths_kernel(V value, aijt_int n, value_stats *out, const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, unsigned nstat, unsigned ndiag, const natural_windows windows, unsigned nnat, int *distinct, unsigned *done, value_stats *result)
{
  if (blockIdx.x < nnat) sectors_body(rowptr, colidx, NULL, nrows, NULL, 0, windows.w[blockIdx.x], &distinct[blockIdx.x]);
  else {
    const unsigned long long total = (unsigned long long)nstat + ndiag, b = blockIdx.x - nnat;
    const unsigned           upto = (unsigned)((b + 1) * nstat / total), before = (unsigned)(b * nstat / total); /* statistics' blocks in [0, b], [0, b) */
    if (upto > before) stats_body(value, n, out, upto - 1, nstat);
    else diagonals_body(rowptr, colidx, nrows, max, &out->diag, (unsigned)(b - upto), ndiag);
  }
  finish_stats(out, done, result);
}

/* count[v]++ for every value of HIST_SHARED or more. */
template <class V>
__global__ void long_hist_kernel(V value, aijt_int n, aijt_int *count)
{
  GRID_STRIDE(i, n)
  {
    const aijt_int v = value(i);
    if (v >= HIST_SHARED) add_count(&count[v], 1);
  }
}

/* The statistics' fields that the host reads, from the pinned copy. */
void stats_from(value_stats *s, const value_stats *r)
{
  const unsigned long long listed = r->nlong < LONG_LISTED ? r->nlong : LONG_LISTED;
  s->s1 = r->s1, s->s2 = r->s2, s->zeros = r->zeros, s->lo_c = r->lo_c, s->hi = r->hi, s->nlong = r->nlong;
  memcpy(s->hist, r->hist, sizeof(s->hist));
  memcpy(s->longs, r->longs, listed * sizeof(aijt_int));
  s->diag = r->diag;
}

/* The statistics of n values (none negative) into *s, and count[v] for v in [0, s->hi] into *count
   (host): one wait, two where more than LONG_LISTED values reach HIST_SHARED.  diag_max > 0: s->diag
   gets the matrix's diagonals up to that many in the same wait.  nnat > 0: the sectors of the natural
   order's first nnat windows (g->natural_w) are counted in that wait too, where the stage's memory is to
   be had (g->natural_n then). */
template <class V>
aijt_err value_counts(gpu_source *g, V value, aijt_int n, int diag_max, int nnat, value_stats *s, aijt_int **count)
{
  value_stats        *ds = NULL;
  aijt_int           *dc = NULL;
  aijt_dev_stage_pass pass;
  const size_t        acc_bytes = (sizeof(value_stats) + 15) / 16 * 16; /* then the count of finished blocks */
  /* the stage's memory: the kernel hands the statistics over and leaves its scratch zeroed (finish_stats);
     the natural windows' counts follow the statistics in the host's part */
  const bool staged = n && aijt_dev_stage_begin(acc_bytes + (size_t)nnat * sizeof(int), acc_bytes + sizeof(unsigned), g->stream, &pass);

  *count = NULL;
  memset(s, 0, sizeof(*s));
  if (staged || (alloc(g, &ds, 1) && ok(g, cudaMemsetAsync(ds, 0, sizeof(*ds), g->stream)))) { /* the diagonals' set emptied too */
    const unsigned nstat = setup_blocks(n) < STAT_BLOCKS ? setup_blocks(n) : STAT_BLOCKS;
    value_stats   *acc   = staged ? (value_stats *)pass.zeroed : ds, *result = staged ? (value_stats *)pass.host_dev : NULL;
    unsigned      *done  = staged ? (unsigned *)((char *)pass.zeroed + acc_bytes) : NULL;
    const unsigned ndiag = diag_max > 0 && g->A->nrows ? diag_blocks(g) : 0, nwin = staged && nnat > 0 ? (unsigned)nnat : 0;
    if (n && (ndiag || nwin)) lengths_kernel<<<nwin + nstat + ndiag, SETUP_BLOCK, 0, g->stream>>>(value, n, acc, g->D->rowptr, g->D->colidx, g->A->nrows, diag_max, nstat, ndiag, g->natural_w, nwin, nwin ? (int *)((char *)pass.host_dev + acc_bytes) : NULL, done, result);
    else if (n) stats_kernel<<<nstat, SETUP_BLOCK, 0, g->stream>>>(value, n, acc, done, result);
    if (ok(g, cudaGetLastError())) {
      if (!staged) fetch_to_host(g, s, ds, sizeof(*s));
      else if (ok(g, cudaStreamSynchronize(g->stream))) {
        stats_from(s, (const value_stats *)pass.host);
        memcpy(g->natural_d, (const char *)pass.host + acc_bytes, (size_t)nnat * sizeof(int));
        g->natural_n = nnat;
      }
    }
  }
  if (staged) aijt_dev_stage_end(g->err != cudaSuccess);
  release(g, ds);
  if (g->err) return AIJT_ERR_DEVICE;
  const size_t nc = (size_t)s->hi + 1;
  if (!(*count = aijt_counts_new(nc))) return AIJT_ERR_MEM;
  memcpy(*count, s->hist, (nc < HIST_SHARED ? nc : HIST_SHARED) * sizeof(aijt_int));
  if (s->nlong <= LONG_LISTED) /* the long values came with the statistics */
    for (unsigned long long q = 0; q < s->nlong; q++) (*count)[s->longs[q]]++;
  else if (nc > HIST_SHARED && alloc(g, &dc, nc) && ok(g, cudaMemsetAsync(dc, 0, nc * sizeof(aijt_int), g->stream))) { /* the long values' counts */
    long_hist_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, g->stream>>>(value, n, dc);
    if (ok(g, cudaGetLastError())) fetch_to_host(g, *count + HIST_SHARED, dc + HIST_SHARED, (nc - HIST_SHARED) * sizeof(aijt_int));
  }
  release(g, dc);
  if (g->err) {
    aijt_counts_free(*count);
    *count = NULL;
    return AIJT_ERR_DEVICE;
  }
  return AIJT_OK;
}

/* ---- lengths */

aijt_err gpu_lengths(void *ctx, aijt_features *f, aijt_int **count)
{
  gpu_source    *g = (gpu_source *)ctx;
  const aijt_int n = g->A->nrows;
  value_stats    stats, *s = &stats; /* on the stack, see value_stats */
  aijt_err       err;

  /* DIA's test, if the plan may be DIA, in the same wait (gpu_diagonals takes the result); so too the
     natural order's locality, if STREAM may be priced (gpu_sectors answers it): on most of the shared
     matrices the price asks for it, and its own pass waited again */
  const int diag_max = g->R->allowed & AIJT_FORMAT_BIT(AIJT_DIA) ? AIJT_DIA_MAX_DIAGS : 0;
  const int nnat     = aijt_natural_windows(g->A, g->R, g->natural_w.w);
  err                = value_counts(g, row_len{g->D->rowptr}, n, diag_max, nnat, s, count);
  if (!err && diag_max && n) {
    g->diag_max = diag_max;
    g->diag     = s->diag;
  }
  if (!err) {
    /* as aijt_features_compute: the integer sums are exact doubles below 2^53; a matrix past that (nnz
       times its longest row) rounds them once here instead of row by row there */
    const double sum = (double)s->s1, sum2 = (double)s->s2;
    f->nrows      = n;
    f->nnz        = n ? g->A->rowptr[n] : 0;
    f->min_len    = n ? (aijt_int)~s->lo_c : 0;
    f->max_len    = (aijt_int)s->hi;
    f->empty_rows = (aijt_int)s->zeros;
    f->mean_len   = n ? sum / (double)n : 0.0;
    f->std_len    = n ? sqrt(fmax(0.0, sum2 / (double)n - f->mean_len * f->mean_len)) : 0.0;
  }
  return err;
}

int cmp_int(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b;
  return (x > y) - (x < y);
}

int gpu_diagonals(void *ctx, int max, aijt_int *offsets)
{
  gpu_source *g = (gpu_source *)ctx;
  diag_set    h, *d = NULL;
  int         n = 0;

  if (max > AIJT_DIA_MAX_DIAGS) max = AIJT_DIA_MAX_DIAGS;
  if (g->diag_max == max) h = g->diag; /* made with the lengths */
  else if (alloc(g, &d, 1) && ok(g, cudaMemsetAsync(d, 0, sizeof(*d), g->stream))) {
    if (g->A->nrows) diagonals_kernel<<<diag_blocks(g), SETUP_BLOCK, 0, g->stream>>>(g->D->rowptr, g->D->colidx, g->A->nrows, max, d);
    if (ok(g, cudaGetLastError())) fetch_to_host(g, &h, d, sizeof(h));
  }
  release(g, d);
  if (g->err) return -2;
  if (h.over) return -1;
  for (int s = 0; s < SET_SLOTS; s++)
    if (h.set[s]) offsets[n++] = global_key(h.set[s]); /* its own inverse */
  qsort(offsets, (size_t)n, sizeof(aijt_int), cmp_int);
  return n;
}

/* ---- whole blocks (aijt_blocks_exact): a thread per row compares it with its block row's first; *bad where
   any differs */

__global__ void blocks_kernel(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int bs, int *bad)
{
  GRID_STRIDE(r, nrows)
  {
    if (!aijt_block_row_length_ok(rowptr, (aijt_int)r, bs)) {
      *bad = 1;
      continue;
    }
    for (aijt_int j = 0; j < rowptr[r + 1] - rowptr[r]; j++)
      if (!aijt_block_entry_ok(rowptr, colidx, (aijt_int)r, bs, j)) {
        *bad = 1;
        break;
      }
  }
}

int gpu_blocks(void *ctx, int bs)
{
  gpu_source *g   = (gpu_source *)ctx;
  int        *bad = NULL, h = 1;

  if (bs < 2 || bs > AIJT_BCSR_MAX_BS || g->A->nrows % bs || g->A->ncols % bs) return 0;
  if (alloc(g, &bad, 1) && ok(g, cudaMemsetAsync(bad, 0, sizeof(int), g->stream))) {
    if (g->A->nrows) blocks_kernel<<<setup_blocks(g->A->nrows), SETUP_BLOCK, 0, g->stream>>>(g->D->rowptr, g->D->colidx, g->A->nrows, bs, bad);
    if (ok(g, cudaGetLastError())) fetch_to_host(g, &h, bad, sizeof(h));
  }
  release(g, bad);
  return g->err ? -2 : !h;
}

/* ---- columns */

/* A block counts its entries' columns in shared memory first, each column in one of two hashed slots,
   and adds each slot's count to deg once: the device's atomic adds to one address queue one after
   another, and a power-law column gets tens of thousands (R-MAT's most popular has 62k entries, circuit's
   8 hub columns 470k in all; counted entry by entry, R-MAT's columns took 442 us and circuit's 100 us on
   an H100; bench/results/2026-11-22-h100-degree-slots).  An entry whose two slots hold other columns
   adds to deg itself. */
#if defined(AIJT_INDEX64)
  #define DEGREE_SLOTS 2048 /* 32 KiB of keys and counts */
#else
  #define DEGREE_SLOTS 4096
#endif
#define DEGREE_BLOCKS 1024 /* blocks for a whole matrix: thousands of entries each, so that slots fill */
#ifndef DEGREE_SAMPLE_PER /* NVFLAGS_EXTRA=-DDEGREE_SAMPLE_PER=N to compare */
  #define DEGREE_SAMPLE_PER 8 /* blocks per run of the auto test's sample: 1 to 32 on an H200, 8 or 16 the best
                                 (bench/results/2026-11-28-degree-blocks) */
#endif
#ifndef DEGREE_REST_PER
  #define DEGREE_REST_PER 24 /* blocks per run of the rows the sample left out */
#endif

__device__ unsigned degree_slot(aijt_int c, unsigned probe)
{
  const unsigned long long h = ((unsigned long long)c + probe) * 0x9E3779B97F4A7C15ull;
  return (unsigned)(h >> 40) % DEGREE_SLOTS;
}

/* Whether *slot holds column c: it did, or was free and now does. */
__device__ bool degree_claim(aijt_int *slot, aijt_int c)
{
  if (sizeof(aijt_int) == 4) {
    const int old = atomicCAS((int *)slot, -1, (int)c);
    return old == -1 || old == (int)c;
  }
  const unsigned long long old = atomicCAS((unsigned long long *)slot, ~0ull, (unsigned long long)c);
  return old == ~0ull || old == (unsigned long long)c;
}

/* deg[col]++ for the entries of rows [i0, i0 + take), i0 = run * blockIdx.y + skip (colorder.c's sample:
   skip 0; the rows it left out: skip its take).  Each block counts one contiguous share of those entries,
   so that a column met in neighbouring rows (a banded part's) meets the same block's slots again. */
__global__ void degree_kernel(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int64_t run, int64_t skip, int64_t take, aijt_int *deg)
{
  const int64_t  start = run * (int64_t)blockIdx.y + skip, i0 = start < nrows ? start : nrows, i1 = i0 + take < nrows ? i0 + take : nrows;
  const aijt_int a = rowptr[i0], b = rowptr[i1];
  const int64_t  share = ((int64_t)b - a + gridDim.x - 1) / gridDim.x, lo = a + share * blockIdx.x, hi = lo + share < b ? lo + share : b;
  __shared__ aijt_int key[DEGREE_SLOTS], cnt[DEGREE_SLOTS];
  for (unsigned q = threadIdx.x; q < DEGREE_SLOTS; q += blockDim.x) key[q] = -1, cnt[q] = 0;
  __syncthreads();
  for (int64_t k = lo + threadIdx.x; k < hi; k += blockDim.x) {
    const aijt_int c = colidx[k];
    const unsigned s0 = degree_slot(c, 0), s1 = degree_slot(c, 1);
    if (degree_claim(&key[s0], c)) add_count(&cnt[s0], 1);
    else if (degree_claim(&key[s1], c)) add_count(&cnt[s1], 1);
    else add_count(&deg[c], 1);
  }
  __syncthreads();
  for (unsigned q = threadIdx.x; q < DEGREE_SLOTS; q += blockDim.x)
    if (cnt[q]) add_count(&deg[key[q]], cnt[q]);
}

/* Sort keys: top - v (v <= top), so that a stable ascending sort puts the largest v first. */
template <class V>
__global__ void keys_kernel(V value, aijt_int n, aijt_int top, aijt_int *key, aijt_int *idx)
{
  GRID_STRIDE(i, n)
  {
    key[i] = top - value(i);
    idx[i] = (aijt_int)i;
  }
}

__global__ void scatter_kernel(const aijt_int *sorted, aijt_int n, aijt_int *pos)
{
  GRID_STRIDE(p, n) pos[sorted[p]] = (aijt_int)p;
}

typedef typename std::make_unsigned<aijt_int>::type ukey;

int key_bits(aijt_int top)
{
  int b = 1;
  while (b < (int)(8 * sizeof(aijt_int)) && ((ukey)top >> b)) b++;
  return b;
}

/* Positions [0, n) of the values value(i) <= top ordered by decreasing value, stably, into *sorted
   (device): the host's counting sorts.  count: the host's count of each value in [0, top].  Where the
   values fit count_sort (count_sort.cuh), two launches and one allocation, its scratch behind *sorted;
   else a radix sort of (top - value, i), whose keys, indices, their second buffers and scratch are one
   allocation (each allocation and free of the six it was cost 10-30 us inside PETSc,
   bench/results/2026-11-25-plan-fuse). */
template <class V>
bool sort_decreasing(gpu_source *g, V value, aijt_int n, aijt_int top, const aijt_int *count, aijt_int **sorted)
{
  const size_t        part = ((size_t)n * sizeof(aijt_int) + 255) / 256 * 256;
  char               *work = NULL;
  size_t              need = 0;
  const int           bits = key_bits(top);
  aijt::count_classes k;

  *sorted = NULL;
  if (aijt::count_sort_fits(count, top, n, &k)) {
    const size_t at = part / sizeof(aijt_int); /* the counts, past the positions */
    if (alloc(g, sorted, at + aijt::count_sort_scratch(k))) ok(g, aijt::count_sort(value, n, k, *sorted + at, *sorted, g->stream));
  } else if (ok(g, cub::DeviceRadixSort::SortPairs(NULL, need, (ukey *)NULL, (ukey *)NULL, (aijt_int *)NULL, (aijt_int *)NULL, (int64_t)n, 0, bits, g->stream)) && alloc(g, &work, 3 * part + need) && alloc(g, sorted, n)) {
    aijt_int *key = (aijt_int *)work, *key2 = (aijt_int *)(work + part), *idx = (aijt_int *)(work + 2 * part);
    if (n) keys_kernel<<<setup_blocks(n), SETUP_BLOCK, 0, g->stream>>>(value, n, top, key, idx);
    if (ok(g, cudaGetLastError())) ok(g, cub::DeviceRadixSort::SortPairs(work + 3 * part, need, (ukey *)key, (ukey *)key2, idx, *sorted, (int64_t)n, 0, bits, g->stream));
  }
  release(g, work);
  if (g->err) release(g, *sorted);
  return !g->err;
}

/* Degrees of the sample of one row in stride into *deg (device, ncols), and the counts of the degrees into
   *count (host, [0, *max_degree]).  rest: *deg holds that sample's degrees already, and the rows it left
   out are added (the whole matrix's degrees, without counting the sample's entries twice). */
aijt_err degrees(gpu_source *g, aijt_int stride, int rest, aijt_int **deg, aijt_int **count, aijt_int *max_degree)
{
  const aijt_int ncols = g->A->ncols, nrows = g->A->nrows;
  int64_t        run, take, skip = 0;
  value_stats    stats, *s = &stats; /* on the stack, see value_stats */
  aijt_err       err = AIJT_ERR_DEVICE;

  *count      = NULL;
  *max_degree = 0;
  aijt_col_sample_runs(nrows, stride, &run, &take);
  if (run < 1) run = 1; /* no rows */
  if (rest) skip = take, take = run - take;
  const unsigned nruns = (unsigned)((nrows + run - 1) / run), whole = setup_blocks(g->A->nrows ? g->A->rowptr[nrows] : 0);
  /* blocks per run: a sample's runs hold a stride-th of their rows, the rest the others */
  const unsigned per   = stride == 1 ? (whole < DEGREE_BLOCKS ? whole : DEGREE_BLOCKS) : rest ? DEGREE_REST_PER : DEGREE_SAMPLE_PER;
  if (rest || (alloc(g, deg, (size_t)ncols) && ok(g, cudaMemsetAsync(*deg, 0, (size_t)ncols * sizeof(aijt_int), g->stream)))) {
    if (nruns && take > 0) degree_kernel<<<dim3(per, nruns), SETUP_BLOCK, 0, g->stream>>>(g->D->rowptr, g->D->colidx, nrows, run, skip, take, *deg);
    if (ok(g, cudaGetLastError())) err = value_counts(g, array_of{*deg}, ncols, 0, 0, s, count);
  }
  *max_degree = err ? 0 : (aijt_int)s->hi;
  if (err) release(g, *deg);
  return err;
}

aijt_err gpu_columns(void *ctx, const aijt_rules *R, int nd, aijt_plan *p)
{
  gpu_source *g = (gpu_source *)ctx;
  aijt_int    stride, *deg = NULL, *count = NULL, max_degree, *sorted = NULL;
  aijt_err    err;

  aijt_plan_drop_col_order(p);
  release(g, g->col_pos);
  if (!aijt_col_order_start(g->A, R, nd, p, &stride)) return AIJT_OK;
  if ((err = degrees(g, stride ? stride : 1, 0, &deg, &count, &max_degree))) return err;
  if (stride) { /* the auto test on its sample */
    if (!aijt_col_share_passes(aijt_col_share_of(count, max_degree, g->A->ncols))) {
      release(g, deg);
      aijt_counts_free(count);
      return AIJT_OK;
    }
    if (stride > 1) { /* the other rows' entries too */
      aijt_counts_free(count);
      if ((err = degrees(g, stride, 1, &deg, &count, &max_degree))) return err;
    }
  }
  if (sort_decreasing(g, array_of{deg}, g->A->ncols, max_degree, count, &sorted) && alloc(g, &g->col_pos, (size_t)g->A->ncols)) {
    scatter_kernel<<<setup_blocks(g->A->ncols), SETUP_BLOCK, 0, g->stream>>>(sorted, g->A->ncols, g->col_pos);
    if (ok(g, cudaGetLastError())) p->col_hot = aijt_col_hot_of(count, max_degree, g->A->ncols, R->col_hot_degree);
  }
  release(g, deg);
  release(g, sorted);
  aijt_counts_free(count);
  if (g->err) release(g, g->col_pos);
  return g->err ? AIJT_ERR_DEVICE : AIJT_OK;
}

/* ---- rows */

aijt_err gpu_rows(void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order)
{
  gpu_source *g = (gpu_source *)ctx;

  *order = NULL; /* on the device until fetch */
  release(g, g->order);
  sort_decreasing(g, row_len{g->D->rowptr}, g->A->nrows, max_len, count, &g->order);
  return g->err ? AIJT_ERR_DEVICE : AIJT_OK;
}

/* ---- sectors */

#define SECTOR_SLOTS (4 * AIJT_LOCALITY_WINDOW) /* the distinct values' set in shared memory, as model.c's */

/* A block per window: thread t takes the row at position k + t (a window's rows each hold an entry in
   it, and it holds at most AIJT_LOCALITY_WINDOW), a scan places each row's entries, thread t reads entry t
   of the window (it finds its row by bisection) and puts its sector into a set in shared memory, and the
   block counts the threads that put a new one.  Each thread had copied its own row's entries: in a window
   inside one long row (a sorted plan's first strips, circuit's and R-MAT's hubs) one thread then made 256
   loads one after another; and thread t compared its value with the t before it, 128 shared loads on
   average.  Traced on an H200 (bench/results/2026-11-26-sectors-staged), circuit's pass took 50-52 us
   before the two, 26-31 after the first and 18 after the second. */
__device__ void sectors_body(const aijt_int *rowptr, const aijt_int *colidx, const aijt_int *order, aijt_int nrows, const aijt_int *col_pos, aijt_int nhot, const aijt_window w, int *distinct)
{
  typedef cub::BlockScan<long long, AIJT_LOCALITY_WINDOW> scan;
  __shared__ typename scan::TempStorage tmp;
  __shared__ aijt_int                   set[SECTOR_SLOTS];
  __shared__ aijt_int                   from[AIJT_LOCALITY_WINDOW]; /* thread r's row's first entry in the window */
  __shared__ int                        place[AIJT_LOCALITY_WINDOW]; /* and its place there, AIJT_LOCALITY_WINDOW past the window */
  const int                             t = threadIdx.x;
  const aijt_int                        k = w.k + t, empty = -1; /* sectors are not negative */
  aijt_int                              a = 0, take = 0;
  long long                             at, total;
  bool                                  fresh = false;

  if (k < nrows) {
    const aijt_int r = order ? order[k] : k;
    a                = rowptr[r] + (t == 0 ? w.e : 0);
    take             = rowptr[r + 1] - a;
  }
  scan(tmp).ExclusiveSum((long long)take, at, total);
  from[t]  = a;
  place[t] = at < AIJT_LOCALITY_WINDOW ? (int)at : AIJT_LOCALITY_WINDOW;
  for (int q = t; q < SECTOR_SLOTS; q += AIJT_LOCALITY_WINDOW) set[q] = empty;
  __syncthreads();
  if (t < total && t < w.n) {
    int lo = 0, hi = AIJT_LOCALITY_WINDOW - 1; /* the last row placed at or before t: it holds entry t */
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (place[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    const aijt_int c = colidx[from[lo] + (t - place[lo])];
    const aijt_int v = (col_pos ? (col_pos[c] < nhot ? col_pos[c] : nhot + c) : c) >> 2; /* 4 doubles to a 32-byte sector */
    for (unsigned h = (unsigned)(((unsigned long long)v * 0x9E3779B97F4A7C15ull) >> 54) & (SECTOR_SLOTS - 1);; h = (h + 1) & (SECTOR_SLOTS - 1)) {
      const aijt_int was = cas(&set[h], empty, v);
      if (was == empty) fresh = true;
      if (was == empty || was == v) break;
    }
  }
  const int n = __syncthreads_count(fresh);
  if (t == 0) *distinct = n;
}

__global__ void sectors_kernel(const aijt_int *rowptr, const aijt_int *colidx, const aijt_int *order, aijt_int nrows, const aijt_int *col_pos, aijt_int nhot, const aijt_window *windows, int *distinct)
{
  sectors_body(rowptr, colidx, order, nrows, col_pos, nhot, windows[blockIdx.x], &distinct[blockIdx.x]);
}

/* The natural order's windows as gpu_lengths counted them, for the same windows asked again. */
bool natural_counted(const gpu_source *g, const aijt_plan *p, const aijt_window *w, int n, int *distinct)
{
  if (p->sorted || p->col_hot || n != g->natural_n) return false;
  for (int q = 0; q < n; q++)
    if (w[q].k != g->natural_w.w[q].k || w[q].e != g->natural_w.w[q].e || w[q].n != g->natural_w.w[q].n) return false;
  memcpy(distinct, g->natural_d, (size_t)n * sizeof(int));
  return true;
}

aijt_err gpu_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct)
{
  gpu_source         *g  = (gpu_source *)ctx;
  aijt_window        *dw = NULL;
  int                *dd = NULL, *kd = NULL;
  const aijt_window  *kw = NULL; /* the windows and their counts as the kernel reads and writes them */
  const size_t        wbytes = ((size_t)n * sizeof(aijt_window) + 15) / 16 * 16;
  aijt_dev_stage_pass pass;

  if (natural_counted(g, p, w, n, distinct) || !n) return AIJT_OK;
  /* the stage's mapped memory holds both: no copy to the device, no allocations (each cost 10-30 us
     inside PETSc, bench/results/2026-11-25-plan-fuse) */
  const bool staged = aijt_dev_stage_begin(wbytes + (size_t)n * sizeof(int), sizeof(unsigned), g->stream, &pass);
  if (staged) {
    memcpy(pass.host, w, (size_t)n * sizeof(aijt_window));
    kw = (const aijt_window *)pass.host_dev;
    kd = (int *)((char *)pass.host_dev + wbytes);
  } else if (alloc(g, &dw, (size_t)n) && alloc(g, &dd, (size_t)n) && ok(g, cudaMemcpyAsync(dw, w, (size_t)n * sizeof(aijt_window), cudaMemcpyHostToDevice, g->stream))) kw = dw, kd = dd;
  if (kw) {
    sectors_kernel<<<n, AIJT_LOCALITY_WINDOW, 0, g->stream>>>(g->D->rowptr, g->D->colidx, p->sorted ? g->order : NULL, g->A->nrows, p->col_hot ? g->col_pos : NULL, p->col_hot, kw, kd);
    if (ok(g, cudaGetLastError())) {
      if (!staged) fetch_to_host(g, distinct, dd, (size_t)n * sizeof(int));
      else if (ok(g, cudaStreamSynchronize(g->stream))) memcpy(distinct, (const char *)pass.host + wbytes, (size_t)n * sizeof(int));
    }
  }
  if (staged) aijt_dev_stage_end(0); /* the kernel leaves the scratch alone */
  release(g, dw);
  release(g, dd);
  return g->err ? AIJT_ERR_DEVICE : AIJT_OK;
}

/* ---- the arrays the plan keeps */

aijt_err gpu_fetch(void *ctx, aijt_plan *p)
{
  gpu_source *g = (gpu_source *)ctx;

  if (g->keep) return AIJT_OK;
  if (p->sorted && !p->order) {
    if (!(p->order = (aijt_int *)malloc(((size_t)p->nrows + 1) * sizeof(aijt_int)))) return AIJT_ERR_MEM;
    if (!g->order || !fetch_to_host(g, p->order, g->order, (size_t)p->nrows * sizeof(aijt_int))) return AIJT_ERR_DEVICE;
  }
  if (p->col_hot && !p->col_pos) {
    if (!(p->col_pos = (aijt_int *)malloc(((size_t)p->ncols + 1) * sizeof(aijt_int)))) return AIJT_ERR_MEM;
    if (!g->col_pos || !fetch_to_host(g, p->col_pos, g->col_pos, (size_t)p->ncols * sizeof(aijt_int))) return AIJT_ERR_DEVICE;
  }
  return AIJT_OK;
}

/* ---- AIJT_PLAN_GPU_TRACE=1: each pass's time (the stream waited for after it) on stderr */

double wall_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

#define TRACED(name, ret, args, call) \
  ret traced_##name args \
  { \
    gpu_source *g  = (gpu_source *)ctx; \
    double      t0 = wall_ms(); \
    ret         r  = g->inner->name call; \
    (void)cudaStreamSynchronize(g->stream); \
    fprintf(stderr, "aijt_dev_plan_model: %-9s %8.3f ms\n", #name, wall_ms() - t0); \
    return r; \
  }
TRACED(lengths, aijt_err, (void *ctx, aijt_features *f, aijt_int **count), (ctx, f, count))
TRACED(diagonals, int, (void *ctx, int max, aijt_int *offsets), (ctx, max, offsets))
TRACED(blocks, int, (void *ctx, int bs), (ctx, bs))
TRACED(columns, aijt_err, (void *ctx, const aijt_rules *R, int nd, aijt_plan *p), (ctx, R, nd, p))
TRACED(rows, aijt_err, (void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order), (ctx, max_len, count, order))
TRACED(sectors, aijt_err, (void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct), (ctx, p, w, n, distinct))
TRACED(fetch, aijt_err, (void *ctx, aijt_plan *p), (ctx, p))

} // namespace

extern "C" aijt_err aijt_dev_plan_model_keep(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, aijt_plan **plan, aijt_int **order, aijt_int **col_pos, cudaError_t *cerr)
{
  gpu_source       g;
  aijt_plan_source src;
  aijt_err         err;

  *plan = NULL;
  memset(&g, 0, sizeof(g));
  if (order) *order = NULL;
  if (col_pos) *col_pos = NULL;
  g.keep   = order && col_pos;
  g.A      = A;
  g.D      = D;
  g.stream = stream;
  g.R      = R;
  if (D->nrows != A->nrows || D->ncols != A->ncols || D->nnz != (A->nrows ? A->rowptr[A->nrows] : 0)) {
    *cerr = cudaErrorInvalidValue;
    return AIJT_ERR_ARG;
  }
  src.ctx       = &g;
  src.lengths   = gpu_lengths;
  src.diagonals = gpu_diagonals;
  src.blocks    = gpu_blocks;
  src.columns   = gpu_columns;
  src.rows      = gpu_rows;
  src.sectors   = gpu_sectors;
  src.fetch     = gpu_fetch;
  if (getenv("AIJT_PLAN_GPU_TRACE")) {
    static const aijt_plan_source traced = {NULL, traced_lengths, traced_diagonals, traced_blocks, traced_columns, traced_rows, traced_sectors, traced_fetch};
    const aijt_plan_source        inner  = src;
    const double                  t0     = wall_ms();
    g.inner                              = &inner;
    src                                  = traced;
    src.ctx                              = &g;
    err                                  = aijt_plan_model_from(A, &src, R, m, plan);
    fprintf(stderr, "aijt_dev_plan_model: %-9s %8.3f ms\n", "all", wall_ms() - t0);
  } else err = aijt_plan_model_from(A, &src, R, m, plan);
  if (!err && g.keep && (*plan)->sorted && !(*plan)->order) { /* the plan's: the caller's now */
    *order  = g.order;
    g.order = NULL;
  }
  if (!err && g.keep && (*plan)->col_hot && !(*plan)->col_pos) {
    *col_pos  = g.col_pos;
    g.col_pos = NULL;
  }
  release(&g, g.order);
  release(&g, g.col_pos);
  *cerr = g.err;
  return err;
}

extern "C" aijt_err aijt_dev_plan_model(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, aijt_plan **plan, cudaError_t *cerr)
{
  return aijt_dev_plan_model_keep(A, D, R, m, stream, plan, NULL, NULL, cerr);
}

extern "C" aijt_err aijt_dev_plan_fetch(aijt_plan *p, const aijt_int *order, const aijt_int *col_pos, cudaStream_t stream, cudaError_t *cerr)
{
  gpu_source g;

  memset(&g, 0, sizeof(g));
  g.stream = stream;
  g.order  = (aijt_int *)order; /* borrowed: gpu_fetch copies from them */
  g.col_pos = (aijt_int *)col_pos;
  const aijt_err err = gpu_fetch(&g, p);
  *cerr              = g.err;
  return err;
}
