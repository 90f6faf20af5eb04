/* A suite matrix as the planner sees it: aijt_int offsets and columns (copies), the values borrowed.
   For the plain-C programs that call the planner without PETSc (bench_setup, bench_plan_gpu). */
#pragma once

#include "aijtplan.h"
#include "matgen.h"

#include <stdlib.h>

/* 0 on success; 1 when out of memory or the entries do not fit the index type.  Free rowptr and colidx. */
static inline int matgen_to_aijt(const matgen_csr *M, aijt_csr *A)
{
  aijt_int *rp = (aijt_int *)malloc(((size_t)M->nrows + 1) * sizeof(aijt_int));
  aijt_int *ci = (aijt_int *)malloc(((size_t)M->nnz + 1) * sizeof(aijt_int));

  if (!rp || !ci || (sizeof(aijt_int) == 4 && M->nnz > INT32_MAX)) {
    free(rp), free(ci);
    return 1;
  }
  for (int64_t i = 0; i <= M->nrows; i++) rp[i] = (aijt_int)M->rowptr[i];
  for (int64_t k = 0; k < M->nnz; k++) ci[k] = (aijt_int)M->col[k];
  A->nrows   = (aijt_int)M->nrows;
  A->ncols   = (aijt_int)M->ncols;
  A->rowptr  = rp;
  A->colidx  = ci;
  A->values  = M->val;
  A->col_pos = NULL;
  A->col_hot = 0;
  A->bs      = M->bs; /* BCSR where its blocks are whole (elast's 3 unknowns a node) */
  return 0;
}
