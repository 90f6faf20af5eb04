/*
   Whole blocks (BCSR's test): a matrix of bs x bs blocks, each stored whole, needs one column index per
   block instead of one per entry.  A 3-D elasticity matrix (3 unknowns a node) then streams 8.4 bytes per
   entry instead of CSR's 12.  PETSc gives the block size (MatSetBlockSize, a DM's fields); the test makes
   sure the pattern honours it: a block that is partly stored (PETSc drops nothing it was given, but an
   application may insert only some of a block) is no block.
*/
#include "planbuild.h"

int aijt_blocks_exact(const aijt_csr *A, int bs)
{
  if (bs < 2 || bs > AIJT_BCSR_MAX_BS || A->nrows % bs || A->ncols % bs) return 0;
  for (aijt_int r0 = 0; r0 < A->nrows; r0 += bs) {
    const aijt_int first = A->rowptr[r0], len = A->rowptr[r0 + 1] - first;
    if (len % bs) return 0;
    for (aijt_int i = 0; i < bs; i++) {
      const aijt_int start = A->rowptr[r0 + i];
      if (A->rowptr[r0 + i + 1] - start != len) return 0;
      for (aijt_int j = 0; j < len; j++) {
        const aijt_int c0 = A->colidx[first + j - j % bs]; /* the block's first column, in the block row's first row */
        if (c0 % bs || A->colidx[start + j] != c0 + j % bs) return 0;
        if (j >= bs && j % bs == 0 && c0 <= A->colidx[first + j - bs]) return 0; /* blocks in order, none twice */
      }
    }
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
