/*
   A pattern of whole bs x bs blocks for the tests (BCSR): block row b holds up to per block columns,
   the diagonal block and others at pseudo-random distinct places, sorted; each block stored whole, its bs
   rows alike.  rowptr has nb * bs + 1 room, colidx nb * bs * per * bs.  drop >= 0 removes entry drop of
   the pattern (a block no longer whole).  Returns the entries.
*/
#pragma once

#include "aijtplan.h"
#include "xorshift.h"

#include <stdlib.h>

static aijt_int test_blocks_pattern(aijt_int nb, int bs, int per, int64_t drop, aijt_int *rowptr, aijt_int *colidx)
{
  unsigned long long state = 0x9e3779b97f4a7c15ull + (unsigned long long)nb * 31u + (unsigned long long)bs;
  aijt_int          *bcol  = (aijt_int *)malloc((size_t)(per > 0 ? per : 1) * sizeof(aijt_int));
  aijt_int           nnz   = 0;

  rowptr[0] = 0;
  for (aijt_int b = 0; b < nb; b++) {
    int n = 0;
    for (int t = 0; t < per; t++) { /* candidates: the diagonal block, neighbours, and a few far ones */
      aijt_int c = t == 0 ? b : t < 3 ? b + (t == 1 ? -1 : 1) : (aijt_int)(xorshift64(&state) % (unsigned long long)nb);
      int      seen = c < 0 || c >= nb;
      for (int u = 0; u < n && !seen; u++) seen = bcol[u] == c;
      if (!seen) bcol[n++] = c;
    }
    for (int t = 1; t < n; t++) /* sorted */
      for (int u = t; u > 0 && bcol[u - 1] > bcol[u]; u--) {
        aijt_int tmp = bcol[u];
        bcol[u] = bcol[u - 1], bcol[u - 1] = tmp;
      }
    for (int i = 0; i < bs; i++) {
      for (int t = 0; t < n; t++)
        for (int j = 0; j < bs; j++) colidx[nnz++] = bcol[t] * bs + j;
      rowptr[b * bs + i + 1] = nnz;
    }
  }
  if (drop >= 0 && drop < nnz) { /* entry drop out: the later entries move down, and the later rows start one earlier */
    for (aijt_int k = (aijt_int)drop; k + 1 < nnz; k++) colidx[k] = colidx[k + 1];
    for (aijt_int r = 1; r <= nb * bs; r++) rowptr[r] -= rowptr[r] > drop;
    nnz--;
  }
  free(bcol);
  return nnz;
}
