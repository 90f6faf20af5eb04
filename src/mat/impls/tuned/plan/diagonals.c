/*
   The diagonals of a matrix: the distinct offsets col - row of its entries.  Stencil and banded FEM
   matrices in natural order have a handful (5, 7, 27), which is what makes DIA pay: it stores a value
   per row and diagonal and no column index, 8 bytes per slot instead of CSR's 12 per entry.

   A small open-addressing set: the scan stops as soon as more than max distinct offsets are seen, so a
   matrix that is not banded costs a few rows, and a banded one one pass over its column indices.
*/
#include "aijtplan.h"

#include <stdlib.h>

#define SET_SLOTS 128 /* power of two, at least 2 * AIJT_DIA_MAX_DIAGS: probes stay short */

static int cmp_int(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b;
  return (x > y) - (x < y);
}

int aijt_diagonals(const aijt_csr *A, int max, aijt_int *offsets)
{
  aijt_int set[SET_SLOTS];
  char     used[SET_SLOTS] = {0};
  int      n               = 0;

  if (max > AIJT_DIA_MAX_DIAGS) max = AIJT_DIA_MAX_DIAGS;
  for (aijt_int r = 0; r < A->nrows; r++) {
    aijt_int last = 0;
    int      have = 0;
    for (aijt_int k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) {
      aijt_int off = A->colidx[k] - r;
      if (have && off == last) continue; /* (invalid) repeated column: same diagonal */
      unsigned h = ((unsigned)off * 2654435761u) & (SET_SLOTS - 1);
      while (used[h] && set[h] != off) h = (h + 1) & (SET_SLOTS - 1);
      if (!used[h]) {
        if (n == max) return -1;
        used[h] = 1;
        set[h]  = off;
        n++;
      }
      last = off, have = 1;
    }
  }
  n = 0;
  for (int h = 0; h < SET_SLOTS; h++)
    if (used[h]) offsets[n++] = set[h];
  qsort(offsets, (size_t)n, sizeof(aijt_int), cmp_int);
  return n;
}
