/*
   Where a refill finds each slot's value in the CSR's values: through the strip's refill map (the place of slot
   i + j * ld), or, for a strip without one (aijt_dev_strip_by_rows), from its rows' first places (row_start): slot j
   of strip row i holds the row's entry j where the row has one.
   - DIA: PETSc's AIJ keeps each row's columns sorted and distinct, so row i's entries meet its diagonals in order:
     its entry on diagonal j is the one after those on the diagonals before j that it has (its mask's bits).
   - ELL, SELL, CSR, STREAM and LONG without a column order: a row's slots hold its entries in the CSR's order
     (plan/layout.c), padding (col -1) past its end.
   A map takes 4 bytes a slot for the life of the matrix (lap3d: 115 MB of its 416 on the GPU); row_start takes 4
   bytes a row.  -1: padding (no entry there).
*/
#pragma once

#include "aijtkernels.h"

/* One row's places, its loads made once for all its slots (a DIA row's mask and first place were read again for
   each diagonal) */
struct slot_row {
  const aijt_int *map;   /* the row's first slot's place, slot j at map[j * ld], or NULL: */
  const aijt_int *col;   /* ELL: the row's first slot's column, -1 past the row's end, or NULL: DIA, */
  uint32_t        mask;  /* its diagonals */
  aijt_int        start; /* its first place */
  int64_t         ld;

  __device__ __forceinline__ aijt_int at(int64_t j) const
  {
    if (map) return __ldg(map + j * ld);
    if (col) return __ldg(col + j * ld) >= 0 ? start + (aijt_int)j : -1;
    return (mask >> j) & 1u ? start + (aijt_int)__popc(mask & ((1u << j) - 1u)) : -1;
  }
};

/* Row r's first width slots, out[j * ld], refilled from values (place -1, padding: 0.0).  Each batch loads its
   places, then their values, then stores them: slot by slot, each slot's loads waited for the last one's store
   (bench/results/2026-11-28-sell-refill).  SELL's rows and ELL's and DIA's share it; SELL's own loop, with 64-bit
   indices, took circuit's fused refill 36.3 us against 31.4 (bench/results/2026-11-28-refill-row). */
#define REFILL_BATCH 8
__device__ __forceinline__ void refill_row(const slot_row &r, aijt_int width, const double *__restrict__ values, double *__restrict__ out, int64_t ld)
{
  for (aijt_int j0 = 0; j0 < width; j0 += REFILL_BATCH) {
    aijt_int p[REFILL_BATCH];
    double   v[REFILL_BATCH];
#pragma unroll
    for (int u = 0; u < REFILL_BATCH; u++) p[u] = j0 + u < width ? r.at(j0 + u) : -1;
#pragma unroll
    for (int u = 0; u < REFILL_BATCH; u++) v[u] = p[u] < 0 ? 0.0 : __ldg(values + p[u]);
#pragma unroll
    for (int u = 0; u < REFILL_BATCH; u++)
      if (j0 + u < width) out[(int64_t)(j0 + u) * ld] = v[u];
  }
}

/* A column-major strip's places (ELL, DIA: slot (i, j) at i + j * ld) */
struct slot_source {
  const aijt_int *map;       /* the places, or NULL: */
  const aijt_int *row_start; /* each row's first place, */
  const uint32_t *mask;      /* with DIA's diagonals, */
  const aijt_int *col;       /* or ELL's columns */
  int64_t         ld;

  __device__ __forceinline__ slot_row row(int64_t i) const
  {
    slot_row r = {NULL, NULL, 0u, 0, ld};
    if (map) r.map = map + i;
    else {
      r.start = __ldg(row_start + i);
      if (mask) r.mask = __ldg(mask + i);
      else r.col = col + i;
    }
    return r;
  }
  __device__ __forceinline__ aijt_int at(int64_t j, int64_t i) const { return row(i).at(j); }
};

/* Strip d's source: its map src where it has one, else its rows' first places (d->row_start) */
static inline slot_source slot_source_of(const aijt_dev_strip *d, const aijt_int *src)
{
  slot_source s;
  s.map       = src;
  s.row_start = src ? NULL : d->row_start;
  s.mask      = d->format == AIJT_DIA ? d->mask : NULL;
  s.col       = d->col;
  s.ld        = d->ld ? d->ld : d->nrows;
  return s;
}
