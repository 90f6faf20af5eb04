/*
   Where a refill finds each slot's value in the CSR's values: through the strip's refill map (the place of slot
   i + j * ld), or, for a DIA strip without one, from its rows' CSR offsets and masks.  PETSc's AIJ keeps each row's
   columns sorted and distinct, so row i's entries meet its diagonals in order: its entry on diagonal j is the one
   after those on the diagonals before j that it has.  A map takes 4 bytes a slot for the life of the matrix (lap3d:
   115 MB of its 416 on the GPU); the offsets take 4 bytes a row.  -1: padding (no entry there).
*/
#pragma once

#include "aijtkernels.h"

struct slot_source {
  const aijt_int *map;    /* the places, or NULL: */
  const aijt_int *rowptr; /* row i's first place (DIA), */
  const uint32_t *mask;   /* and its diagonals */
  int64_t         ld;     /* slot (i, j) is i + j * ld */

  __device__ __forceinline__ aijt_int at(int64_t j, int64_t i) const
  {
    if (map) return __ldg(map + i + j * ld);
    const uint32_t m = __ldg(mask + i);
    return (m >> j) & 1u ? __ldg(rowptr + i) + (aijt_int)__popc(m & ((1u << j) - 1u)) : -1;
  }
};

/* Strip d's source: its map src where it has one, else its rows' offsets (d->rowptr) */
static inline slot_source slot_source_of(const aijt_dev_strip *d, const aijt_int *src)
{
  slot_source s;
  s.map    = src;
  s.rowptr = src ? NULL : d->rowptr;
  s.mask   = d->mask;
  s.ld     = d->ld ? d->ld : d->nrows;
  return s;
}
