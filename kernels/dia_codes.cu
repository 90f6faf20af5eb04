/*
   DIA with value codes: a strip whose present slots hold at most 255 distinct values is read through a
   one-byte code per slot and a table of the values, 1 byte per slot instead of 8 for the value and
   4 per row for the mask.  Constant-coefficient stencils (the Laplacians of PETSc's DMDA tutorials,
   a handful of values) then stream 7 bytes a row instead of 60: the product reads little more than x
   and y.  The table holds the values themselves, so every row sums the same numbers in the same order
   as through val and mask: the product is the same, bit for bit.

   A row's codes are neighbours (row-major, aijt_dia_code_words 8-byte words a row, zero past the
   strip's width): one 8- or 16-byte load brings a thread all of its row's codes, and the loads of x
   that depend on them go out together (with the codes column-major, as the values are, a byte load per
   diagonal gated each x load: lap3d ran in 89 us, against 115 with values and 200 for aijcusparse).

   The coding runs on the device after every new set of values (upload, GPU build, refill), on the
   stream, with no wait: a hash set of the values' bit patterns (a value already there costs a read, not
   an atomic, and a value its block met before a read of shared memory), then one block ranks the set into the table (ascending bit patterns: the same
   table on every run), then a code per slot.  More than 255 values, or the one bit pattern the set
   reserves, leave state[CODES_USED] at 0, and the product reads val and mask as before: the device, not
   the host, knows which, so a refill never waits to learn it.
*/
#include "aijtkernels.h"
#include "setup.cuh"

namespace {

using aijt::setup_blocks;
using aijt::SETUP_BLOCK;

constexpr int                HASH  = 1024; /* slots of the set, four times the values it may keep */
constexpr unsigned long long EMPTY = ~0ull; /* a NaN with every payload bit set marks a free slot */

/* The pieces of a strip's coding memory, in this order: table, set, the set slots' codes, state, code
   (so the memory starts at the strip's table). */
struct pieces {
  double             *table;
  unsigned long long *key;
  uint8_t            *slot_code;
  int                *state; /* AIJT_CODES_* */
  uint8_t            *code;
};

pieces carve(void *mem)
{
  char  *at = (char *)mem;
  pieces p;
  p.table     = (double *)at;
  at         += AIJT_DIA_CODES * sizeof(double);
  p.key       = (unsigned long long *)at;
  at         += HASH * sizeof(unsigned long long);
  p.slot_code = (uint8_t *)at;
  at         += HASH;
  p.state     = (int *)at;
  at         += AIJT_CODES_STATE * sizeof(int);
  p.code      = (uint8_t *)at;
  return p;
}

__device__ __forceinline__ unsigned slot_of(unsigned long long bits)
{
  return (unsigned)((bits ^ bits >> 29) * 0x9E3779B97F4A7C15ull >> 54) & (HASH - 1);
}

__global__ void reset_kernel(pieces p)
{
  for (int h = threadIdx.x; h < HASH; h += blockDim.x) p.key[h] = EMPTY;
  if (threadIdx.x < AIJT_CODES_STATE) p.state[threadIdx.x] = 0;
}

/* Puts bits (not EMPTY) in the set; a full set marks the strip uncodable. */
__device__ void insert(pieces p, unsigned long long bits)
{
  unsigned h = slot_of(bits);
  for (int probe = 0; probe < HASH; probe++, h = (h + 1) & (HASH - 1)) {
    if (*(volatile int *)&p.state[AIJT_CODES_OVERFLOW]) return;
    unsigned long long cur = *(volatile unsigned long long *)&p.key[h];
    if (cur == bits) return;
    if (cur == EMPTY) {
      cur = atomicCAS(&p.key[h], EMPTY, bits);
      if (cur == EMPTY) {
        if (atomicAdd(&p.state[AIJT_CODES_COUNT], 1) >= AIJT_DIA_CODES - 1) p.state[AIJT_CODES_OVERFLOW] = 1;
        return;
      }
      if (cur == bits) return;
    }
  }
  p.state[AIJT_CODES_OVERFLOW] = 1;
}

/* A block's values known to be in the set: bits put there by this block are looked up here, in shared memory, not
   in the set itself, whose few words (a stencil's handful of values) every warp's lookups had queued on in L2. */
#define SEEN 64

__device__ void insert_seen(pieces p, unsigned long long *seen, unsigned long long bits)
{
  unsigned h = slot_of(bits) & (SEEN - 1);
  for (int q = 0; q < SEEN; q++, h = (h + 1) & (SEEN - 1)) {
    const unsigned long long cur = *(volatile unsigned long long *)&seen[h];
    if (cur == bits) return;
    if (cur == EMPTY) {
      insert(p, bits);
      atomicCAS(&seen[h], EMPTY, bits); /* lost to another value: this one is looked up in the set again, no harm */
      return;
    }
  }
  insert(p, bits); /* the block's own set is full */
}

/* Every present slot's value into the set: INSERT_BLOCKS blocks at most, each over many slots, so that its seen
   values spare it most lookups.  On box27 (26M slots, a few values) one block per 256 slots and every lookup in
   the set took 0.26-0.52 ms on an H100 (bench/results/2026-11-27-setup-from-aij).  The slots go diagonal by
   diagonal, a grid-stride loop over the rows each, and a warp reads the overflow flag at every 32nd pass only: read
   at every pass, its trip to L2 came before each value's load, and inserting box27's values took 0.33 ms on an H200
   against 0.11 (one read of them: 0.07; bench/results/2026-11-27-coo-device-values/codes-probe).  Lanes of one value
   look it up together in the block's seen values (one shared word: __match_any_sync saved nothing there). */
#define INSERT_BLOCKS 1024
__global__ void insert_kernel(pieces p, const double *val, const uint32_t *mask, int64_t nrows, int64_t width)
{
  __shared__ unsigned long long seen[SEEN];
  const unsigned                lane = threadIdx.x & 31u;
  int                           pass = 0;

  for (int t = threadIdx.x; t < SEEN; t += blockDim.x) seen[t] = EMPTY;
  __syncthreads();
  for (int64_t d = 0; d < width; d++) {
    GRID_STRIDE(i, nrows)
    {
      if ((pass++ & 31) == 0) { /* the flag read by the first active lane (any subset of the warp may be here) */
        const unsigned active = __activemask(), first = (unsigned)__ffs(active) - 1;
        int            over   = 0;
        if (lane == first) over = *(volatile int *)&p.state[AIJT_CODES_OVERFLOW];
        if (__shfl_sync(active, over, (int)first)) return;
      }
      const bool               has  = __ldg(mask + i) >> d & 1u;
      const unsigned long long bits = has ? (unsigned long long)__double_as_longlong(__ldg(val + d * nrows + i)) : EMPTY;
      if (has && bits == EMPTY) p.state[AIJT_CODES_OVERFLOW] = 1; /* the reserved pattern marks a free slot of the set */
      if (has) insert_seen(p, seen, bits);
    }
  }
}

/* One block of HASH threads: the table in ascending bit patterns, each set slot's code. */
__global__ void rank_kernel(pieces p)
{
  __shared__ unsigned long long keys[HASH];
  const unsigned                h = threadIdx.x;
  if (p.state[AIJT_CODES_OVERFLOW]) return; /* the same for every thread: no one waits below */
  keys[h] = p.key[h];
  __syncthreads();
  if (h == 0) p.table[0] = 0.0; /* code 0: no entry, never read */
  if (keys[h] != EMPTY) {
    int rank = 1;
    for (int j = 0; j < HASH; j++) rank += keys[j] != EMPTY && keys[j] < keys[h];
    p.slot_code[h] = (uint8_t)rank;
    p.table[rank]  = __longlong_as_double((long long)keys[h]);
  }
  if (h == 0) p.state[AIJT_CODES_USED] = 1;
}

/* Code byte d of row i at i * row_bytes + d, for d < row_bytes (zero past the width): a thread per row, its codes
   written a word at a time, so that a warp's reads of one diagonal are 32 neighbouring values.  A thread per byte
   read the row's diagonals from 32 places nrows apart, a sector for each 8-byte value: MatScale's refresh on box27
   spent about a third of its time coding (bench/results/2026-11-26-new-values). */
__global__ void code_kernel(pieces p, const double *val, const uint32_t *mask, int64_t nrows, int64_t width, int64_t row_bytes)
{
  if (!p.state[AIJT_CODES_USED]) return;
  const int64_t words = row_bytes / 8;
  GRID_STRIDE(i, nrows)
  {
    const uint32_t m = __ldg(mask + i);
    for (int64_t w = 0; w < words; w++) {
      unsigned long long word = 0;
      for (int b = 0; b < 8; b++) {
        const int64_t d = 8 * w + b;
        if (d < width && m >> d & 1u) {
          const unsigned long long bits = (unsigned long long)__double_as_longlong(__ldg(val + d * nrows + i));
          unsigned                 h    = slot_of(bits);
          while (p.key[h] != bits) h = (h + 1) & (HASH - 1); /* there: every present value went in */
          word |= (unsigned long long)p.slot_code[h] << (8 * b); /* byte d of the row, the GPU being little-endian */
        }
      }
      ((unsigned long long *)p.code)[i * words + w] = word;
    }
  }
}

/* MatScale: the table's values times a.  Code 0 (no entry) is never read; entries past the values met hold
   nothing a code points to. */
__global__ void scale_table_kernel(double *table, double a)
{
  if (threadIdx.x > 0) table[threadIdx.x] *= a;
}

} // namespace

extern "C" size_t aijt_dia_codes_bytes(const aijt_dev_strip *d)
{
  if (d->format != AIJT_DIA) return 0;
  return AIJT_DIA_CODES * sizeof(double) + HASH * (sizeof(unsigned long long) + 1) + AIJT_CODES_STATE * sizeof(int) + (size_t)d->nrows * 8 * (size_t)aijt_dia_code_words(d->width);
}

extern "C" int aijt_dia_code_words(aijt_int width)
{
  return width <= 8 ? 1 : width <= 16 ? 2 : 4;
}

extern "C" void aijt_dia_codes_attach(aijt_dev_strip *d, void *mem)
{
  const pieces p   = carve(mem);
  d->code          = p.code;
  d->table         = p.table;
  d->codes_state   = p.state;
}

extern "C" cudaError_t aijt_dia_codes_make(const aijt_dev_strip *d, cudaStream_t stream)
{
  if (d->format != AIJT_DIA || !d->code) return cudaSuccess;
  if (!d->val || (d->nslots && !d->mask)) return cudaErrorInvalidValue;
  const pieces p = carve((void *)d->table);
  reset_kernel<<<1, HASH, 0, stream>>>(p);
  if (d->nslots && d->nrows) insert_kernel<<<setup_blocks(d->nrows) < INSERT_BLOCKS ? setup_blocks(d->nrows) : INSERT_BLOCKS, SETUP_BLOCK, 0, stream>>>(p, d->val, d->mask, d->nrows, d->width);
  rank_kernel<<<1, HASH, 0, stream>>>(p);
  const int64_t row_bytes = 8 * (int64_t)aijt_dia_code_words(d->width);
  if (d->nrows) code_kernel<<<setup_blocks(d->nrows), SETUP_BLOCK, 0, stream>>>(p, d->val, d->mask, d->nrows, d->width, row_bytes);
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_dia_codes_make_all(const aijt_dev_strip *strips, int nstrips, cudaStream_t stream)
{
  for (int s = 0; s < nstrips; s++) {
    cudaError_t err = aijt_dia_codes_make(&strips[s], stream);
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

extern "C" cudaError_t aijt_dia_codes_scale(const aijt_dev_strip *d, double a, cudaStream_t stream)
{
  if (d->format != AIJT_DIA || !d->code) return cudaSuccess;
  scale_table_kernel<<<1, AIJT_DIA_CODES, 0, stream>>>((double *)d->table, a);
  return cudaGetLastError();
}
