/*
   CSR -> sliced ELLPACK in cuSPARSE's layout (cusparseCreateSlicedEll), built on the host because this
   cuSPARSE has no conversion to SELL.  Plain C, so the layout is checked against CSR without a GPU.

   Slice s holds rows [s C, s C + C) (the last slice is padded to C rows as well), its width w_s is its
   longest row, and its entries are column-major: entry k of row s C + r sits at offsets[s] + k C + r.
   Padding has column -1 and value 0, as cuSPARSE's SpMV skips it.
*/
#pragma once

#include "matgen.h"

typedef struct {
  int64_t  nslices, slice, size; /* size: stored entries, padding included */
  int32_t *offsets;              /* nslices + 1 */
  int32_t *col;                  /* size */
  double  *val;                  /* size */
} sellpack;

/* 0: built; 1: out of memory; 2: the padded size does not fit 32-bit offsets (this layout uses 32-bit ones) */
int  sellpack_build(const matgen_csr *A, int64_t slice, sellpack *S);
void sellpack_free(sellpack *S);
void sellpack_spmv(const sellpack *S, int64_t nrows, const double *x, double *y);
