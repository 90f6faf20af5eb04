/*
   Whole bs x bs blocks (BCSR), entry by entry: one rule for the host's test (blocks.c), the GPU planner's
   (kernels/plan_gpu.cu) and the GPU build's check of the pattern it lays out (kernels/build.cu).  Rows r0 = r - r % bs
   to r0 + bs - 1 make a block row; its first row says where its blocks are.  Plain C, also compiled by nvcc.
*/
#pragma once

#include "aijthostdevice.h"
#include "aijtplan.h"

/* Row r's length is its block row's first row's, a multiple of bs. */
AIJT_HOST_DEVICE static inline int aijt_block_row_length_ok(const aijt_int *rowptr, aijt_int r, int bs)
{
  const aijt_int r0 = r - r % bs, len = rowptr[r0 + 1] - rowptr[r0];
  return len % bs == 0 && rowptr[r + 1] - rowptr[r] == len;
}

/* Entry j of row r (whose length is right) lies in a whole block: the block's first column c0, read in the block
   row's first row, is a multiple of bs, the entry's column is c0 + j % bs, and the blocks run in increasing order,
   none twice. */
AIJT_HOST_DEVICE static inline int aijt_block_entry_ok(const aijt_int *rowptr, const aijt_int *colidx, aijt_int r, int bs, aijt_int j)
{
  const aijt_int first = rowptr[r - r % bs], c0 = colidx[first + j - j % bs];
  return c0 % bs == 0 && colidx[rowptr[r] + j] == c0 + j % bs && (j < bs || j % bs || c0 > colidx[first + j - bs]);
}
