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
   stream, with no wait, in one pass over the slots: a hash set of the values' bit patterns (a value
   already there costs a read, not an atomic, and a value its block met before a read of shared memory)
   numbers each value at its first meeting, and that number is its code and its place in the table.  The
   numbering depends on the threads' order, the table's contents do not, and each slot reads its own
   value: the same sums on every run.  A refill of new values codes them as it reads them
   (aijt_dia_codes_refill) and writes val only where they prove uncodable: while the codes hold, val is not read.  More than 255 values, or the one bit pattern the set reserves, leave
   state[CODES_USED] at 0, and the product reads val and mask as before: the device, not the host, knows which,
   so a refill never waits to learn it.
*/
#include "aijtkernels.h"
#include "internal.cuh" /* AIJT_FULL_MASK */
#include "setup.cuh"
#include "slot_source.cuh"

namespace {

using aijt::setup_blocks;
using aijt::SETUP_BLOCK;

constexpr int                HASH  = 1024; /* slots of the set, four times the values it may keep */
constexpr unsigned long long EMPTY = ~0ull; /* a NaN with every payload bit set marks a free slot */
constexpr unsigned           CODE_BLOCKS = 1024; /* the coding passes' blocks at most (code_kernel says why) */

/* The pieces of a strip's coding memory, in this order: table, set, the set slots' codes, state, the refill's
   blocks done, code (so the memory starts at the strip's table, and code at a multiple of 16 bytes). */
struct pieces {
  double             *table;
  unsigned long long *key;
  uint8_t            *slot_code;
  int                *state; /* AIJT_CODES_* */
  int                *done;  /* [CODE_BLOCKS]: refill_code_rows_kernel's blocks with threads that coded to their end */
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
  p.done      = (int *)at;
  at         += CODE_BLOCKS * sizeof(int);
  p.code      = (uint8_t *)at;
  return p;
}

__device__ __forceinline__ unsigned slot_of(unsigned long long bits)
{
  return (unsigned)((bits ^ bits >> 29) * 0x9E3779B97F4A7C15ull >> 54) & (HASH - 1);
}

__global__ void reset_kernel(pieces p)
{
  for (int h = threadIdx.x; h < HASH; h += blockDim.x) p.key[h] = EMPTY, p.slot_code[h] = 0;
  for (int b = threadIdx.x; b < CODE_BLOCKS; b += blockDim.x) p.done[b] = 0;
  if (threadIdx.x < AIJT_CODES_STATE) p.state[threadIdx.x] = 0;
  if (threadIdx.x == 0) p.table[0] = 0.0; /* code 0: no entry, never read */
}

__device__ __forceinline__ int overflowed(pieces p)
{
  return *(volatile int *)&p.state[AIJT_CODES_OVERFLOW];
}

__device__ __forceinline__ void overflow(pieces p)
{
  *(volatile int *)&p.state[AIJT_CODES_OVERFLOW] = 1;
}

/* The code of bits (not EMPTY) in the set, which takes it at the next code if it is new: 1-255, or 0 once the
   strip is uncodable (a 256th value, or a full set).  A value met first here gets its table entry here; one put in
   the set by another thread gets the code that thread writes just after it. */
__device__ unsigned code_in_set(pieces p, unsigned long long bits)
{
  unsigned h = slot_of(bits);
  for (int probe = 0; probe < HASH; probe++, h = (h + 1) & (HASH - 1)) {
    if (overflowed(p)) return 0; /* at every probe: a set filled by many values made each lookup probe it all */
    unsigned long long cur = *(volatile unsigned long long *)&p.key[h];
    if (cur == EMPTY) {
      cur = atomicCAS(&p.key[h], EMPTY, bits);
      if (cur == EMPTY) {
        const int n = atomicAdd(&p.state[AIJT_CODES_COUNT], 1);
        if (n >= AIJT_DIA_CODES - 1) {
          overflow(p);
          return 0;
        }
        p.table[n + 1]                      = __longlong_as_double((long long)bits);
        *(volatile uint8_t *)&p.slot_code[h] = (uint8_t)(n + 1);
        return (unsigned)(n + 1);
      }
    }
    if (cur == bits) {
      unsigned c;
      while (!(c = *(volatile uint8_t *)&p.slot_code[h]))
        if (overflowed(p)) return 0; /* its inserter found no code left */
      return c;
    }
  }
  overflow(p);
  return 0;
}

/* A block's values met, with their codes: looked up here, in shared memory, not in the set itself, whose few words
   (a stencil's handful of values) every warp's lookups had queued on in L2.  A code not yet written beside its key
   sends the lookup to the set.  compute-sanitizer's racecheck reports the code's write and its reads in code_of as
   hazards (bench/results/2026-11-27-sanitizer): they are this protocol.  Only the thread whose CAS placed the key
   writes its code, once, the same code the set gives every thread for that value; a byte store does not tear its
   neighbours; a reader sees 0 or that code; and the block clears the table only behind a barrier. */
#define SEEN 64
struct seen_values {
  unsigned long long key[SEEN];
  uint8_t            code[SEEN];
};

__device__ unsigned code_of(pieces p, seen_values *seen, unsigned long long bits)
{
  unsigned h = slot_of(bits) & (SEEN - 1);
  for (int q = 0; q < SEEN; q++, h = (h + 1) & (SEEN - 1)) {
    const unsigned long long cur = *(volatile unsigned long long *)&seen->key[h];
    if (cur == bits) {
      const unsigned c = *(volatile uint8_t *)&seen->code[h];
      return c ? c : code_in_set(p, bits);
    }
    if (cur == EMPTY) {
      const unsigned c = code_in_set(p, bits);
      if (c && atomicCAS(&seen->key[h], EMPTY, bits) == EMPTY) *(volatile uint8_t *)&seen->code[h] = (uint8_t)c; /* lost to another value: looked up in the set again, no harm */
      return c;
    }
  }
  return code_in_set(p, bits); /* the block's own set is full */
}

/* A block's seen values emptied, by its threads (the caller synchronizes before reading them). */
__device__ __forceinline__ void seen_clear(seen_values *seen)
{
  for (int t = threadIdx.x; t < SEEN; t += blockDim.x) seen->key[t] = EMPTY, seen->code[t] = 0;
}

/* The code of a present slot's value v: 0 once the strip is uncodable, which v's bits make it if they are the one
   pattern the set reserves (it marks a free slot). */
__device__ __forceinline__ unsigned code_value(pieces p, seen_values *seen, double v)
{
  const unsigned long long bits = (unsigned long long)__double_as_longlong(v);
  if (bits == EMPTY) {
    overflow(p);
    return 0;
  }
  return code_of(p, seen, bits);
}

/* The codes of a warp's values v where want (0 elsewhere), every lane of the warp here: the lanes that hold one
   value look it up once, through the first of them.  A block's seen values are empty when it starts, so that every
   thread's first row went to the set in global memory: a stencil's rows hold the same few values, and on lap3d40
   (64,000 rows, one a thread) the refill's 448,000 lookups queued on a few words of L2, 17-27 us on an H100 for a
   pass that moves 6 MB (bench/results/2026-11-27-coo-steady).  Past a thread's first row its block's seen values
   answer in shared memory, and each lane looks its value up alone (code_value), without the match: the match in
   every row cost lap2d's and lap3d's refills 2-3%. */
__device__ __forceinline__ unsigned code_value_warp(pieces p, seen_values *seen, double v, bool want)
{
  const unsigned long long bits = (unsigned long long)__double_as_longlong(v);
  if (want && bits == EMPTY) overflow(p); /* the pattern the set reserves: uncodable, as code_value finds */
  const unsigned long long key    = want ? bits : EMPTY; /* lanes with no value agree on EMPTY, never looked up */
  const int                leader = __ffs(__match_any_sync(AIJT_FULL_MASK, key)) - 1;
  unsigned                 c      = 0;
  if (key != EMPTY && (int)(threadIdx.x & 31u) == leader) c = code_of(p, seen, key);
  return __shfl_sync(AIJT_FULL_MASK, c, leader);
}

/* Whether the warp's threads here should stop coding: the flag read by the first active lane (any subset of the
   warp may be here) at every 32nd pass. */
__device__ __forceinline__ bool told_to_stop(pieces p, int &pass)
{
  if (pass++ & 31) return false;
  const unsigned active = __activemask(), first = (unsigned)__ffs(active) - 1;
  int            over   = 0;
  if ((threadIdx.x & 31u) == first) over = overflowed(p);
  return __shfl_sync(active, over, (int)first) != 0;
}

template <bool FIRST> /* FIRST: the thread's first row, every lane of the warp here (those past the end too) */
__device__ __forceinline__ void code_row(pieces p, seen_values *seen, const double *val, const uint32_t *mask, int64_t nrows, int64_t width, int64_t words, int64_t i, bool &coding)
{
  const bool     row = !FIRST || i < nrows;
  const uint32_t m   = row && width ? __ldg(mask + i) : 0u; /* no slots: no mask to read, every code 0 */
  for (int64_t w = 0; w < words && (FIRST || coding); w++) {
    double v[8];
#pragma unroll
    for (int b = 0; b < 8; b++) {
      const int64_t d = 8 * w + b;
      v[b]            = 0.0;
      if (d < width && (m >> d & 1u)) v[b] = __ldg(val + d * nrows + i);
    }
    unsigned long long word = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
      const int64_t d    = 8 * w + b;
      const bool    want = coding && d < width && (m >> d & 1u);
      if (FIRST || want) {
        const unsigned c = FIRST ? code_value_warp(p, seen, v[b], want) : code_value(p, seen, v[b]);
        if (want && !c) coding = false;
        word |= (unsigned long long)c << (8 * b); /* byte d of the row, the GPU being little-endian */
      }
    }
    if (coding && row) ((unsigned long long *)p.code)[i * words + w] = word;
  }
}

/* The coding in one pass over the slots: a thread per row, each present slot's value given its code (its first
   meeting in the set numbers it) and the row's codes written a word at a time (byte d of the row on diagonal d,
   zero past the width).  A word's 8 values are loaded together before any is looked up, so that their loads are in
   flight at once, and a warp's loads of one diagonal are 32 neighbouring values.  CODE_BLOCKS blocks at most, each
   over many rows, so that its seen values spare it most lookups in the set (one block per 256 slots and every
   lookup in the set took 0.26-0.52 ms on box27, bench/results/2026-11-27-setup-from-aij).  A warp reads the
   overflow flag at every 32nd row only: read before every value, its trip to L2 came before each value's load
   (bench/results/2026-11-27-coo-device-values/codes-probe).  The values put in the set first, ranked, then coded
   in a second pass had read every slot twice. */
__global__ void code_kernel(pieces p, const double *val, const uint32_t *mask, int64_t nrows, int64_t width, int64_t words)
{
  __shared__ seen_values seen;
  const int64_t          first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (int64_t)gridDim.x * blockDim.x;
  int                    pass   = 0;
  bool                   coding = true;

  seen_clear(&seen);
  __syncthreads();
  code_row<true>(p, &seen, val, mask, nrows, width, words, first, coding);
  if (!coding) return;
  for (int64_t i = first + stride; i < nrows; i += stride) {
    if (told_to_stop(p, pass)) return;
    code_row<false>(p, &seen, val, mask, nrows, width, words, i, coding);
    if (!coding) return; /* a flag in the loop: a return in it made the coding 15-20% slower (lap3d's shape 0.16 -> 0.19 ms) */
  }
}

/* A refill of new values that codes them, for strips of at most 16 diagonals (WORDS words of codes a row): a
   thread per row as code_kernel, each value read from values through src, and val left alone while the values
   code: the product reads the codes, and settle_rows_kernel refills val where they prove not to hold.  A thread
   that meets the end of the coding writes its rows' values from there on and goes back over the rows it coded; a
   block some of whose threads coded to their end sets done[block] for settle_rows_kernel.  With one word a row,
   the next row's places are loaded before this row's values, so that each thread has a row's loads in flight while
   it codes the last.  Writing every value as well, without that early load, took 0.26 ms on lap3d's shape and
   0.36 on a 9-point stencil's, 0.19-0.20 and 0.27 this way (a plain refill 0.16 and 0.21;
   bench/results/2026-11-27-codes-only). */
__device__ __forceinline__ void refill_row(double *val, slot_source src, const double *values, int64_t nrows, int width, int64_t i)
{
  const slot_row r = src.row(i);
  for (int d = 0; d < width; d++) {
    const aijt_int s = r.at(d);
    val[d * nrows + i] = s >= 0 ? __ldg(values + s) : 0.0;
  }
}

template <int WORDS, bool FIRST> /* FIRST: the thread's first row, every lane of the warp here (those past the end too) */
__device__ __forceinline__ void refill_code_row(pieces p, seen_values *seen, double *val, slot_source src, const double *values, int64_t nrows, int width, int64_t first, int64_t stride, int64_t i, aijt_int (&next)[8], bool &coding)
{
  const bool     row  = !FIRST || i < nrows;
  const bool     more = WORDS == 1 && i + stride < nrows;
  const slot_row now  = WORDS == 1 ? (more ? src.row(i + stride) : slot_row{}) : (row ? src.row(i) : slot_row{}); /* the next row's, or this one's */
#pragma unroll
  for (int w = 0; w < WORDS; w++) {
    aijt_int here[8];
    double   v[8];
#pragma unroll
    for (int b = 0; b < 8; b++) {
      const int d = 8 * w + b;
      if (WORDS == 1) here[b] = next[b], next[b] = more && d < width ? now.at(d) : -1;
      else here[b] = row && d < width ? now.at(d) : -1;
    }
#pragma unroll
    for (int b = 0; b < 8; b++) v[b] = here[b] >= 0 ? __ldg(values + here[b]) : 0.0;
    if (FIRST || coding) {
      const bool         was  = coding;
      unsigned long long word = 0;
#pragma unroll
      for (int b = 0; b < 8; b++) {
        const bool want = coding && here[b] >= 0;
        if (FIRST || want) {
          const unsigned c = FIRST ? code_value_warp(p, seen, v[b], want) : code_value(p, seen, v[b]);
          if (want) coding = c != 0;
          word |= (unsigned long long)c << (8 * b); /* byte b of the word, the GPU being little-endian */
        }
      }
      if (was && row) {
        if (coding) ((unsigned long long *)p.code)[i * WORDS + w] = word;
        else
          for (int64_t j = first; j <= i; j += stride) refill_row(val, src, values, nrows, width, j); /* this row's earlier words too */
      }
    }
    if (!coding && row)
#pragma unroll
      for (int b = 0; b < 8; b++)
        if (8 * w + b < width) val[(8 * w + b) * nrows + i] = v[b];
  }
}

template <int WORDS>
__global__ void __launch_bounds__(256, 4) refill_code_rows_kernel(pieces p, double *val, slot_source src, const double *values, int64_t nrows, int width)
{
  __shared__ seen_values seen;
  const int64_t          first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (int64_t)gridDim.x * blockDim.x;
  int                    pass  = 0;
  bool                   coding = true;
  aijt_int               next[8];

  seen_clear(&seen);
  __syncthreads();
  if (WORDS == 1) {
    const slot_row r = first < nrows ? src.row(first) : slot_row{};
#pragma unroll
    for (int d = 0; d < 8; d++) next[d] = first < nrows && d < width ? r.at(d) : -1;
  }
  int64_t i = first;
  /* the first row's lookups shared where a row has one word of codes; with two, sharing them gained nothing that
     the spread between processes did not hide on 9-point stencils of 65,536 and 262,144 rows, and spilled registers
     (bench/results/2026-11-27-coo-steady) */
  if constexpr (WORDS == 1) {
    refill_code_row<WORDS, true>(p, &seen, val, src, values, nrows, width, first, stride, first, next, coding);
    i += stride;
  }
  for (; i < nrows; i += stride) {
    if (coding && told_to_stop(p, pass)) {
      coding = false;
      for (int64_t j = first; j < i; j += stride) refill_row(val, src, values, nrows, width, j);
    }
    refill_code_row<WORDS, false>(p, &seen, val, src, values, nrows, width, first, stride, i, next, coding);
  }
  if (coding && first < nrows) p.done[blockIdx.x] = 1;
}

/* After refill_code_rows_kernel, on its grid: whether the codes hold, and where they do not, the values of the rows
   of each block with done set (its threads that coded to their end wrote none).  Coded, each block returns at
   once. */
__global__ void settle_rows_kernel(pieces p, double *val, slot_source src, const double *values, int64_t nrows, int width)
{
  const int over = overflowed(p);
  if (blockIdx.x == 0 && threadIdx.x == 0) p.state[AIJT_CODES_USED] = !over;
  if (!over || !p.done[blockIdx.x]) return;
  GRID_STRIDE(i, nrows) refill_row(val, src, values, nrows, width, i);
}

/* The refill that codes for strips of 17 to 32 diagonals, by tiles of CT_ROWS rows: the tile's places read along
   the diagonals (coalesced) into shared memory, then each row's values gathered by neighbouring lanes (lane j on
   diagonal j: a row's values are neighbours in the CSR, so a warp reads them at once), coded, and their codes
   written by those lanes, the tile's codes being one run of bytes.  val is left alone, as above;
   settle_tiles_kernel refills it where the codes do not hold.  A thread per row gathered each diagonal's values 32
   rows apart, a sector per value: box27's shape took 0.44 ms that way, 0.25 by tiles.  The tiles lost on narrower
   strips, whose rows leave lanes idle (9 diagonals: 0.42 against 0.355), and so did a tile's slots taken row after
   row by consecutive lanes, whatever the width (box27 0.33; bench/results/2026-11-27-codes-only). */
#define CT_ROWS 64
__global__ void __launch_bounds__(256, 4) refill_code_tiles_kernel(pieces p, slot_source src, const double *values, int64_t nrows, int width)
{
  constexpr int W = 32, PER = CT_ROWS * W / 256; /* code bytes a row; (row, slot) places a thread */
  __shared__ seen_values seen;
  __shared__ aijt_int    place[W][CT_ROWS + 1];
  __shared__ int         stop;
  const int64_t          ntiles = (nrows + CT_ROWS - 1) / CT_ROWS;

  seen_clear(&seen);
  for (int64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
    const int64_t i0 = tile * CT_ROWS;
    if (threadIdx.x == 0) stop = overflowed(p);
    for (int t = threadIdx.x; t < width * CT_ROWS; t += blockDim.x) {
      const int j = t / CT_ROWS, r = t % CT_ROWS;
      place[j][r] = i0 + r < nrows ? src.at(j, i0 + r) : -1;
    }
    __syncthreads();
    if (stop) return;
    double v[PER];
#pragma unroll
    for (int k = 0; k < PER; k++) { /* lane j on row r's diagonal j */
      const int      e = threadIdx.x + 256 * k, r = e / W, j = e % W;
      const aijt_int s = j < width ? place[j][r] : -1;
      v[k]             = s >= 0 ? __ldg(values + s) : 0.0;
    }
#pragma unroll
    for (int k = 0; k < PER; k++) {
      const int      e = threadIdx.x + 256 * k, r = e / W, j = e % W;
      const aijt_int s = j < width ? place[j][r] : -1;
      const unsigned c = tile == blockIdx.x ? code_value_warp(p, &seen, v[k], s >= 0) : s >= 0 ? code_value(p, &seen, v[k]) : 0u; /* the block's first tile: shared lookups */
      if (i0 + r < nrows) p.code[(i0 + r) * W + j] = (uint8_t)c; /* 0 once uncodable: never read then */
    }
    __syncthreads();
  }
}

/* After refill_code_tiles_kernel: whether the codes hold, and where they do not, every slot's value by tiles (as
   refill_tile_kernel: places along the diagonals, values along the rows, val along the diagonals again).  Coded,
   each block returns at once. */
__global__ void __launch_bounds__(256) settle_tiles_kernel(pieces p, double *val, slot_source src, const double *values, int64_t nrows, int width)
{
  constexpr int W = 32;
  __shared__ aijt_int place[W][CT_ROWS + 1];
  __shared__ double   v[W][CT_ROWS + 1];
  const int           over   = overflowed(p);
  const int64_t       ntiles = (nrows + CT_ROWS - 1) / CT_ROWS;

  if (blockIdx.x == 0 && threadIdx.x == 0) p.state[AIJT_CODES_USED] = !over;
  if (!over) return;
  for (int64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
    const int64_t i0 = tile * CT_ROWS;
    for (int t = threadIdx.x; t < width * CT_ROWS; t += blockDim.x) {
      const int j = t / CT_ROWS, r = t % CT_ROWS;
      place[j][r] = i0 + r < nrows ? src.at(j, i0 + r) : -1;
    }
    __syncthreads();
    for (int e = threadIdx.x; e < CT_ROWS * W; e += blockDim.x) {
      const int r = e / W, j = e % W;
      if (j < width) {
        const aijt_int s = place[j][r];
        v[j][r]          = s >= 0 ? values[s] : 0.0;
      }
    }
    __syncthreads();
    for (int t = threadIdx.x; t < width * CT_ROWS; t += blockDim.x) {
      const int j = t / CT_ROWS, r = t % CT_ROWS;
      if (i0 + r < nrows) val[(int64_t)j * nrows + i0 + r] = v[j][r];
    }
    __syncthreads();
  }
}

/* The codes hold unless the strip was found uncodable. */
__global__ void finish_kernel(pieces p)
{
  p.state[AIJT_CODES_USED] = !p.state[AIJT_CODES_OVERFLOW];
}

} // namespace

extern "C" size_t aijt_dia_codes_bytes(const aijt_dev_strip *d)
{
  if (d->format != AIJT_DIA) return 0;
  return AIJT_DIA_CODES * sizeof(double) + HASH * (sizeof(unsigned long long) + 1) + (AIJT_CODES_STATE + CODE_BLOCKS) * sizeof(int) + (size_t)d->nrows * 8 * (size_t)aijt_dia_code_words(d->width);
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

/* The coding of d, its values read from val, or (src) read from values through *src by a refill. */
static cudaError_t code(const aijt_dev_strip *d, const slot_source *src, const double *values, cudaStream_t stream)
{
  const pieces   p      = carve((void *)d->table);
  const int64_t  words  = aijt_dia_code_words(d->width), tiles = (d->nrows + CT_ROWS - 1) / CT_ROWS;
  const unsigned blocks = setup_blocks(d->nrows) < CODE_BLOCKS ? setup_blocks(d->nrows) : CODE_BLOCKS;
  const unsigned tb     = tiles < CODE_BLOCKS ? (unsigned)(tiles ? tiles : 1) : CODE_BLOCKS;
  double        *val    = (double *)d->val;
  const int      width  = (int)d->width;

  reset_kernel<<<1, HASH, 0, stream>>>(p);
  if (!src) {
    if (d->nrows) code_kernel<<<blocks, SETUP_BLOCK, 0, stream>>>(p, val, d->mask, d->nrows, d->width, words);
    finish_kernel<<<1, 1, 0, stream>>>(p);
  } else if (words <= 2) {
    if (words == 1) refill_code_rows_kernel<1><<<blocks, SETUP_BLOCK, 0, stream>>>(p, val, *src, values, d->nrows, width);
    else refill_code_rows_kernel<2><<<blocks, SETUP_BLOCK, 0, stream>>>(p, val, *src, values, d->nrows, width);
    settle_rows_kernel<<<blocks, SETUP_BLOCK, 0, stream>>>(p, val, *src, values, d->nrows, width);
  } else {
    refill_code_tiles_kernel<<<tb, 256, 0, stream>>>(p, *src, values, d->nrows, width);
    settle_tiles_kernel<<<tb, 256, 0, stream>>>(p, val, *src, values, d->nrows, width);
  }
  return cudaGetLastError();
}

extern "C" cudaError_t aijt_dia_codes_make(const aijt_dev_strip *d, cudaStream_t stream)
{
  if (d->format != AIJT_DIA || !d->code) return cudaSuccess;
  if (!d->val || (d->nslots && !d->mask)) return cudaErrorInvalidValue;
  return code(d, NULL, NULL, stream);
}

extern "C" int aijt_dia_codes_refills(const aijt_dev_strip *d)
{
  const int64_t ld = d->ld ? d->ld : d->nrows;
  return d->format == AIJT_DIA && d->code && d->val && d->mask && ld == d->nrows && (int64_t)d->width * d->nrows == (int64_t)d->nslots;
}

extern "C" cudaError_t aijt_dia_codes_refill(const aijt_dev_strip *d, const aijt_int *src, const double *values, cudaStream_t stream)
{
  const slot_source from = slot_source_of(d, src); /* without a map: the rows' first places */

  if (!aijt_dia_codes_refills(d) || (!src && !d->row_start)) return cudaErrorInvalidValue;
  return code(d, &from, values, stream);
}

extern "C" cudaError_t aijt_dia_codes_make_all(const aijt_dev_strip *strips, int nstrips, cudaStream_t stream)
{
  for (int s = 0; s < nstrips; s++) {
    cudaError_t err = aijt_dia_codes_make(&strips[s], stream);
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

