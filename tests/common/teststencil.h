/*
   Test-only: the pattern of a 2-D (nz = 1) or 3-D 5/7-point stencil on an nx x ny x nz grid, for the
   planner test (C) and the kernel test (CUDA).  With holes, every 11th off-diagonal coupling is left
   out: a stencil with missing couplings still has few diagonals, and DIA must skip its gaps.
*/
#pragma once

#include "aijtplan.h"

/* Fills rowptr (nx ny nz + 1) and colidx (room for 7 nx ny nz); returns the number of entries. */
static aijt_int test_stencil_pattern(aijt_int nx, aijt_int ny, aijt_int nz, int holes, aijt_int *rowptr, aijt_int *colidx)
{
  aijt_int n = nx * ny * nz, k = 0, cnt = 0;
  rowptr[0] = 0;
  for (aijt_int r = 0; r < n; r++) {
    aijt_int i = r % nx, j = (r / nx) % ny, l = r / (nx * ny);
    aijt_int cand[7] = {l > 0 ? r - nx * ny : -1, j > 0 ? r - nx : -1, i > 0 ? r - 1 : -1, r, i < nx - 1 ? r + 1 : -1, j < ny - 1 ? r + nx : -1, l < nz - 1 ? r + nx * ny : -1};
    for (int c = 0; c < 7; c++)
      if (cand[c] >= 0 && !(holes && c != 3 && ++cnt % 11 == 0)) colidx[k++] = cand[c];
    rowptr[r + 1] = k;
  }
  return k;
}
