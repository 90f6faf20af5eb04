/* The planner's diagonal test (plan_gpu.cu's diagonals_body) in four ways, timed alone on generated matrices
   with CUDA events (median of 21 after 3), each result checked against a host scan.
     nvcc -O3 -arch=sm_90 -std=c++17 diagtest.cu -o /tmp/diagtest && /tmp/diagtest
   A  main: a thread per row, its entries 4 loads at a time, the stop flags read before each row
   B  A with the flags read at a row's start and acted on at its end (the row's loads do not wait for them)
   C  a group of lanes per row (the mean length's power of two), 8 rows loaded at a time, B's flags
   E  a block per tile of 1024 rows: their offsets in shared memory, the tile's entries read in order by the
      block's threads (coalesced), each finding its row by bisection; flags once per tile */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <vector>
#include <set>
#include <algorithm>

typedef int aijt_int;
#define SET_SLOTS 128
#define SET_EMPTY ((aijt_int)INT32_MIN)
struct diag_set { int n, over; aijt_int set[SET_SLOTS]; };

__device__ aijt_int cas(aijt_int *p, aijt_int e, aijt_int v) { return atomicCAS((int *)p, e, v); }
__device__ void raise_flags(int *block_over, int *over) { if (!atomicExch(block_over, 1) && !*(volatile int *)over) atomicExch(over, 1); }
__host__ __device__ inline aijt_int global_key(aijt_int off) { return off ^ SET_EMPTY; }
__device__ bool set_insert(aijt_int *set, aijt_int empty, int *n, int max, int *block_over, int *over, aijt_int off)
{
  unsigned h = ((unsigned)off * 2654435761u) & (SET_SLOTS - 1);
  for (int probe = 0; probe < SET_SLOTS; probe++, h = (h + 1) & (SET_SLOTS - 1)) {
    aijt_int v = *(volatile aijt_int *)&set[h];
    if (v == off) return true;
    if (*(volatile int *)n > max) break;
    if (v != empty) continue;
    v = cas(&set[h], empty, off);
    if (v == off) return true;
    if (v != empty) continue;
    if (atomicAdd(n, 1) >= max) { raise_flags(block_over, over); return false; }
    return true;
  }
  raise_flags(block_over, over);
  return false;
}

#define PROLOGUE \
  __shared__ aijt_int set[SET_SLOTS]; \
  __shared__ int n, block_over; \
  int *const over = &d->over; \
  for (unsigned s = threadIdx.x; s < SET_SLOTS; s += blockDim.x) set[s] = SET_EMPTY; \
  if (threadIdx.x == 0) n = block_over = 0; \
  __syncthreads();
#define EPILOGUE \
  __syncthreads(); \
  for (unsigned s = threadIdx.x; s < SET_SLOTS; s += blockDim.x) \
    if (set[s] != SET_EMPTY && !*(volatile int *)over) set_insert(d->set, 0, &d->n, max, &block_over, over, global_key(set[s]));

#define DIAG_LOADS 4
template <bool LATE>
__global__ void kA(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, unsigned, diag_set *d)
{
  PROLOGUE
  for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += (int64_t)gridDim.x * blockDim.x) {
    int stop = 0;
    if (!LATE) { if (*(volatile int *)&block_over || *(volatile int *)over) break; }
    else stop = *(volatile int *)&block_over | *(volatile int *)over;
    const aijt_int e = rowptr[r + 1];
    bool go = true;
    for (aijt_int k = rowptr[r]; k < e && go; k += DIAG_LOADS) {
      aijt_int c[DIAG_LOADS];
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++) c[u] = k + u < e ? colidx[k + u] : 0;
#pragma unroll
      for (int u = 0; u < DIAG_LOADS; u++)
        if (go && k + u < e) go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, c[u] - (aijt_int)r);
    }
    if (!go || stop) break;
  }
  EPILOGUE
}

#define DIAG_ROWS 8
__global__ void kC(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, unsigned group, diag_set *d)
{
  PROLOGUE
  const unsigned lane = threadIdx.x & (group - 1), per_block = blockDim.x / group;
  const int64_t  stride = (int64_t)gridDim.x * per_block;
  aijt_int       above[DIAG_ROWS];
  bool           go = true;
#pragma unroll
  for (int u = 0; u < DIAG_ROWS; u++) above[u] = SET_EMPTY;
  for (int64_t r0 = (int64_t)blockIdx.x * per_block + threadIdx.x / group; r0 < nrows && go; r0 += DIAG_ROWS * stride) {
    const int stop = *(volatile int *)&block_over | *(volatile int *)over;
    aijt_int  b[DIAG_ROWS], e[DIAG_ROWS], c[DIAG_ROWS];
#pragma unroll
    for (int u = 0; u < DIAG_ROWS; u++) {
      const int64_t r = r0 + u * stride;
      b[u] = r < nrows ? rowptr[r] + (aijt_int)lane : 0;
      e[u] = r < nrows ? rowptr[r + 1] : 0;
    }
#pragma unroll
    for (int u = 0; u < DIAG_ROWS; u++) c[u] = b[u] < e[u] ? colidx[b[u]] : 0;
#pragma unroll
    for (int u = 0; u < DIAG_ROWS; u++) {
      const aijt_int r = (aijt_int)(r0 + u * stride);
      if (!go || b[u] >= e[u]) continue;
      const aijt_int off = c[u] - r;
      if (off != above[u]) { above[u] = off; go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, off); }
      for (aijt_int k = b[u] + (aijt_int)group; k < e[u] && go; k += (aijt_int)group) go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, colidx[k] - r);
    }
    if (stop) break;
  }
  EPILOGUE
}

#define TILE_PER 4 /* rows per thread in a tile */
#define ELOADS 4
__global__ void kE(const aijt_int *rowptr, const aijt_int *colidx, aijt_int nrows, int max, unsigned, diag_set *d)
{
  PROLOGUE
  __shared__ aijt_int sp[256 * TILE_PER + 1];
  const unsigned      tile = blockDim.x * TILE_PER;
  for (int64_t r0 = (int64_t)blockIdx.x * tile; r0 < nrows; r0 += (int64_t)gridDim.x * tile) {
    const int nt = (int)(nrows - r0 < tile ? nrows - r0 : tile);
    for (int i = threadIdx.x; i <= nt; i += blockDim.x) sp[i] = rowptr[r0 + i];
    __syncthreads();
    const aijt_int base = sp[0], total = sp[nt] - base;
    bool go = true;
    int  lo = 0; /* the row of this thread's last entry: its entries only move forward */
    for (aijt_int k0 = threadIdx.x; k0 < total && go; k0 += ELOADS * blockDim.x) {
      aijt_int c[ELOADS];
#pragma unroll
      for (int u = 0; u < ELOADS; u++) c[u] = k0 + u * (aijt_int)blockDim.x < total ? colidx[base + k0 + u * blockDim.x] : 0;
#pragma unroll
      for (int u = 0; u < ELOADS; u++) {
        const aijt_int k = base + k0 + u * (aijt_int)blockDim.x;
        if (!go || k - base >= total) continue;
        int hi = nt - 1; /* the last row starting at or before k */
        while (lo < hi) { const int mid = (lo + hi + 1) / 2; if (sp[mid] <= k) lo = mid; else hi = mid - 1; }
        go = set_insert(set, SET_EMPTY, &n, max, &block_over, over, c[u] - (aijt_int)(r0 + lo));
      }
    }
    if (__syncthreads_or(*(volatile int *)&block_over || *(volatile int *)over)) break; /* the same answer for every thread */
  }
  EPILOGUE
}

typedef void (*kern)(const aijt_int *, const aijt_int *, aijt_int, int, unsigned, diag_set *);

struct csr { const char *name; int n; std::vector<aijt_int> rp, ci; };

static csr stencil(const char *name, int nx, int ny, int nz, int full)
{
  csr A; A.name = name; A.n = nx * ny * nz; A.rp.push_back(0);
  for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) {
    for (int dz = -1; dz <= 1; dz++) for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) {
      int m = abs(dx) + abs(dy) + abs(dz);
      if (!full && m > 1) continue;
      if (nz == 1 && dz) continue;
      int X = x + dx, Y = y + dy, Z = z + dz;
      if (X < 0 || Y < 0 || Z < 0 || X >= nx || Y >= ny || Z >= nz) continue;
      A.ci.push_back((Z * ny + Y) * nx + X);
    }
    A.rp.push_back((aijt_int)A.ci.size());
  }
  return A;
}

static csr randomrows(const char *name, int n, int len)
{
  csr A; A.name = name; A.n = n; A.rp.push_back(0);
  uint64_t s = 12345;
  for (int i = 0; i < n; i++) {
    std::set<int> c;
    while ((int)c.size() < len) { s = s * 6364136223846793005ull + 1442695040888963407ull; c.insert((int)((s >> 33) % n)); }
    for (int v : c) A.ci.push_back(v);
    A.rp.push_back((aijt_int)A.ci.size());
  }
  return A;
}

static int host_diags(const csr &A, int max, std::set<aijt_int> &s)
{
  for (int r = 0; r < A.n; r++)
    for (aijt_int k = A.rp[r]; k < A.rp[r + 1]; k++) { s.insert(A.ci[k] - r); if ((int)s.size() > max) return -1; }
  return (int)s.size();
}

int main()
{
  std::vector<csr> M;
  M.push_back(stencil("box27 100^3", 100, 100, 100, 1));
  M.push_back(stencil("lap3d 160^3", 160, 160, 160, 0));
  M.push_back(stencil("lap2d 2048^2", 2048, 2048, 1, 0));
  M.push_back(stencil("lap3d40", 40, 40, 40, 0));
  M.push_back(randomrows("random 1M x 6", 1000000, 6));
  const char *names[] = {"A main", "B late flags", "C group/row", "E tile"};
  kern ks[] = {kA<false>, kA<true>, kC, kE};
  diag_set *d; cudaMalloc(&d, sizeof(diag_set));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (auto &A : M) {
    aijt_int *rp, *ci;
    cudaMalloc(&rp, A.rp.size() * 4); cudaMalloc(&ci, A.ci.size() * 4 + 4);
    cudaMemcpy(rp, A.rp.data(), A.rp.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(ci, A.ci.data(), A.ci.size() * 4, cudaMemcpyHostToDevice);
    std::set<aijt_int> hs; int hn = host_diags(A, 32, hs);
    int64_t nnz = A.rp[A.n]; unsigned group = 1; while (group < 32 && (int64_t)group * A.n < nnz) group *= 2;
    printf("%-14s rows %9d nnz %10lld  host: %d diagonals\n", A.name, A.n, (long long)nnz, hn);
    for (int v = 0; v < 4; v++) {
      std::vector<float> t;
      int64_t units = v == 2 ? (int64_t)A.n * group : A.n;
      unsigned blocks = (unsigned)std::min<int64_t>(2048, (units + 255) / 256);
      if (v == 3) blocks = (unsigned)std::min<int64_t>(2048, (A.n + 1023) / 1024);
      diag_set h;
      for (int rep = 0; rep < 24; rep++) {
        cudaMemset(d, 0, sizeof(diag_set));
        cudaEventRecord(e0);
        ks[v]<<<blocks, 256>>>(rp, ci, A.n, 32, group, d);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        if (rep >= 3) t.push_back(ms * 1e3f);
      }
      cudaMemcpy(&h, d, sizeof(h), cudaMemcpyDeviceToHost);
      std::set<aijt_int> gs;
      for (int s = 0; s < SET_SLOTS; s++) if (h.set[s]) gs.insert(global_key(h.set[s]));
      bool same = h.over ? hn < 0 : (hn >= 0 && gs == hs);
      std::sort(t.begin(), t.end());
      printf("  %-13s %8.1f us (%.1f to %.1f)  blocks %u  %s  %s\n", names[v], t[t.size() / 2], t[0], t.back(), blocks, h.over ? "over" : "fits", same ? "same" : "DIFFERENT");
    }
    cudaError_t e = cudaGetLastError(); if (e) printf("CUDA error %s\n", cudaGetErrorString(e));
    cudaFree(rp); cudaFree(ci);
  }
  return 0;
}
