/*
   Device copies of a plan's layouts for programs without PETSc's matrix types (the kernel test, the
   calibration program, the plan benchmark): one cudaMalloc per array, synchronous copies.  The PETSc
   glue has its own upload (one allocation, PETSc's stream and logging).
*/
#pragma once

#include "aijtkernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int             nstrips;
  aijt_dev_strip *strips;
  aijt_dev_coo    tail;
  aijt_int        nhot; /* layouts with a column order (L->hot): the hot columns, and their copy of x */
  const aijt_int *hot;  /* that aijt_dev_spmv gathers before the strips, which read it (their xhot) */
  double         *xhot;
  /* built on the device (aijt_dev_build_on_device): the refresh maps and the CSR values they read */
  aijt_int      **src;      /* nstrips device arrays, NULL otherwise */
  aijt_int       *tail_src;
  double         *values;
} aijt_dev_layouts;

/* Launch parameters that replace the plan's where > 0 (the kernel test's rule sets). */
typedef struct {
  int tpr, bpr, block; /* tpr: CSR and PANEL strips */
  int dia_codes;       /* 1: DIA strips get value codes, as the PETSc glue gives them by default (the
                          calibration measures DIA without) */
  int by_rows;         /* aijt_dev_build_on_device: 1: every strip that aijt_dev_strip_by_rows allows gets its rows'
                          first places and no refill map, as the PETSc glue builds the larger ones (slot_source.cuh);
                          0: a map */
} aijt_dev_params;

/* 1 on success; otherwise prints what failed and returns 0. */
int aijt_cuda_ok(cudaError_t err, const char *what);

/* Device copies of L (made from plan P) with the plan's launch parameters, or o's where o sets them,
   and DIA value codes where o asks for them (made from L's values before it returns); 1 on success.  On failure D still holds what was allocated, for aijt_dev_free. */
int aijt_dev_upload(const aijt_plan *P, const aijt_layouts *L, const aijt_dev_params *o, int tail_block, aijt_dev_layouts *D);
int aijt_dev_free(aijt_dev_layouts *D);

/* The same device layouts built on the device (aijt_dev_build) from the skeleton K of plan P and the
   host CSR A, with the refresh maps; 1 on success.  aijt_dev_refresh then takes A's new values (nnz)
   and codes them again. */
int aijt_dev_build_on_device(const aijt_plan *P, const aijt_layouts *K, const aijt_csr *A, const aijt_dev_params *o, int tail_block, aijt_dev_layouts *D);
int aijt_dev_refresh(aijt_dev_layouts *D, const double *values, aijt_int nnz);

/* The whole product, y = A x (+ z), as the PETSc glue runs it: xhot gathered first when D has a
   column order, then aijt_cuda_spmv. */
cudaError_t aijt_dev_spmv(const aijt_dev_layouts *D, const double *x, const double *z, double *y, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
