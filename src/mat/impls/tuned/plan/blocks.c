/*
   Whole blocks (BCSR's test): a matrix of bs x bs blocks, each stored whole, needs one column index per
   block instead of one per entry.  A 3-D elasticity matrix (3 unknowns a node) then streams 8.4 bytes per
   entry instead of CSR's 12.  PETSc gives the block size (MatSetBlockSize, a DM's fields); the test makes
   sure the pattern honours it: a block that is partly stored (PETSc drops nothing it was given, but an
   application may insert only some of a block) is no block.
*/
#include "aijtblockrow.h"
#include "planbuild.h"

int aijt_blocks_exact(const aijt_csr *A, int bs)
{
  if (bs < 2 || bs > AIJT_BCSR_MAX_BS || A->nrows % bs || A->ncols % bs) return 0;
  for (aijt_int r = 0; r < A->nrows; r++) {
    if (!aijt_block_row_length_ok(A->rowptr, r, bs)) return 0;
    for (aijt_int j = 0; j < A->rowptr[r + 1] - A->rowptr[r]; j++)
      if (!aijt_block_entry_ok(A->rowptr, A->colidx, r, bs, j)) return 0;
  }
  return 1;
}

/* The whole matrix of plan p as one BCSR strip of bs x bs blocks: lanes per block row (the kernel's group,
   kernels/bcsr.cuh, a lane a block) the power of two at or above the mean blocks a block row, capped at a
   warp, which the calibration's samples use too (tools/calibrate.cu). */
void aijt_bcsr_strip(const aijt_plan *p, int bs, int block, aijt_strip *s)
{
  aijt_whole_strip(p, AIJT_BCSR, bs, block, s);
  s->tpr = 1;
  while (s->tpr < 32 && s->tpr < p->features.mean_len / bs) s->tpr *= 2;
}
