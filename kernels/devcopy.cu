/* Device copies of a plan's layouts for programs without PETSc's matrix types (devcopy.h). */
#include "devcopy.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" int aijt_cuda_ok(cudaError_t err, const char *what)
{
  if (err == cudaSuccess) return 1;
  printf("  CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  return 0;
}

/* device copy of n elements (at least one is allocated, so no pointer is NULL) */
static int upload(void **dst, const void *src, size_t n, size_t size)
{
  *dst = NULL;
  if (!aijt_cuda_ok(cudaMalloc(dst, (n ? n : 1) * size), "cudaMalloc")) return 0;
  return !n || aijt_cuda_ok(cudaMemcpy(*dst, src, n * size, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

template <typename T>
static int upload_to(const T **dst, const T *src, size_t n)
{
  void *p = NULL;
  int   ok = upload(&p, src, n, sizeof(T));
  *dst     = (const T *)p;
  return ok;
}

extern "C" int aijt_dev_free(aijt_dev_layouts *D)
{
  int ok = 1;
  for (int s = 0; s < D->nstrips; s++) {
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].rows), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].ptr), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].col), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].val), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].mask), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].row_start), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree(D->strips[s].partial), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree(D->strips[s].count), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree((void *)D->strips[s].table), "cudaFree"); /* the codes' block */
  }
  free(D->strips);
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.row), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.col), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.val), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->hot), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree(D->xhot), "cudaFree");
  for (int s = 0; D->src && s < D->nstrips; s++) ok &= aijt_cuda_ok(cudaFree(D->src[s]), "cudaFree");
  free(D->src);
  ok &= aijt_cuda_ok(cudaFree(D->tail_src), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree(D->values), "cudaFree");
  memset(D, 0, sizeof(*D));
  return ok;
}

/* Strip s of L (layouts or skeleton) on the device: its descriptor with o's parameters, rows and ptr
   copied, a split LONG or PANEL strip's workspace.  aijt_dev_strip_init leaves the pointers NULL: a
   skipped upload leaves nothing to free. */
static int strip_start(const aijt_plan *P, const aijt_layouts *L, int s, const aijt_dev_params *o, aijt_dev_layouts *D)
{
  const aijt_layout *S = &L->strips[s];
  aijt_dev_strip    *d = &D->strips[s];
  size_t             nptr, npartial, ncount;
  int                ok = 1;

  aijt_dev_strip_init(d, &P->strips[s], S);
  D->nstrips = s + 1;
  if (o && o->tpr && (d->format == AIJT_CSR || d->format == AIJT_PANEL || d->format == AIJT_BCSR)) d->tpr = o->tpr;
  if (o && o->bpr && d->format == AIJT_LONG) d->blocks_per_row = o->bpr;
  if (o && o->block) d->block = o->block;
  nptr = aijt_dev_strip_ptr_count(d);
  aijt_dev_strip_workspace(d, &npartial, &ncount);
  ok = upload_to(&d->rows, S->rows, (size_t)S->nrows);
  if (nptr) ok = ok && upload_to(&d->ptr, S->ptr, nptr);
  if (npartial) {
    ok = ok && aijt_cuda_ok(cudaMalloc((void **)&d->partial, npartial * sizeof(double)), "cudaMalloc partial");
    if (ncount) ok = ok && aijt_cuda_ok(cudaMalloc((void **)&d->count, ncount * sizeof(unsigned)), "cudaMalloc count");
    if (ncount) ok = ok && aijt_cuda_ok(cudaMemset(d->count, 0, ncount * sizeof(unsigned)), "cudaMemset count");
  }
  if (o && o->dia_codes && aijt_dia_codes_bytes(d)) {
    void *mem = NULL;
    ok        = ok && aijt_cuda_ok(cudaMalloc(&mem, aijt_dia_codes_bytes(d)), "cudaMalloc codes");
    if (mem) aijt_dia_codes_attach(d, mem);
  }
  return ok;
}

/* The hot columns of L and the strips' copy of x, when L has a column order. */
static int hot_start(const aijt_layouts *L, aijt_dev_layouts *D)
{
  int ok = 1;
  if (!L->hot) return 1;
  D->nhot = L->nhot;
  ok      = upload_to(&D->hot, L->hot, (size_t)L->nhot);
  ok      = ok && aijt_cuda_ok(cudaMalloc((void **)&D->xhot, (size_t)L->nhot * sizeof(double)), "cudaMalloc xhot");
  aijt_dev_set_hot(D->strips, D->nstrips, &D->tail, D->xhot, D->nhot);
  return ok;
}

extern "C" int aijt_dev_upload(const aijt_plan *P, const aijt_layouts *L, const aijt_dev_params *o, int tail_block, aijt_dev_layouts *D)
{
  int ok = 1;
  memset(D, 0, sizeof(*D));
  D->strips = (aijt_dev_strip *)calloc((size_t)L->nstrips + 1, sizeof(aijt_dev_strip));
  for (int s = 0; s < L->nstrips && ok; s++) {
    const aijt_layout *S = &L->strips[s];
    aijt_dev_strip    *d = &D->strips[s];
    ok                   = strip_start(P, L, s, o, D);
    if (S->col) ok = ok && upload_to(&d->col, S->col, aijt_layout_col_count(S));
    ok = ok && upload_to(&d->val, S->val, (size_t)S->nslots);
    if (S->mask) ok = ok && upload_to(&d->mask, S->mask, (size_t)S->nrows);
  }
  D->tail.nnz   = L->tail.nnz;
  D->tail.block = o && o->block ? o->block : tail_block;
  ok = ok && upload_to(&D->tail.row, L->tail.row, (size_t)L->tail.nnz);
  ok = ok && upload_to(&D->tail.col, L->tail.col, (size_t)L->tail.nnz);
  ok = ok && upload_to(&D->tail.val, L->tail.val, (size_t)L->tail.nnz);
  ok = ok && aijt_cuda_ok(aijt_dia_codes_make_all(D->strips, D->nstrips, 0), "aijt_dia_codes_make_all");
  return ok && hot_start(L, D);
}

/* n elements on the device, uninitialised (at least one is allocated) */
template <typename T>
static int alloc_on(T **dst, size_t n)
{
  *dst = NULL;
  return aijt_cuda_ok(cudaMalloc((void **)dst, (n ? n : 1) * sizeof(T)), "cudaMalloc");
}

extern "C" int aijt_dev_build_on_device(const aijt_plan *P, const aijt_layouts *K, const aijt_csr *A, const aijt_dev_params *o, int tail_block, aijt_dev_layouts *D)
{
  const aijt_int nnz = A->rowptr[A->nrows];
  aijt_dev_csr   dA  = {A->nrows, A->ncols, nnz, NULL, NULL, NULL};
  const aijt_int *pos = NULL;
  int             ok  = 1;

  memset(D, 0, sizeof(*D));
  D->strips = (aijt_dev_strip *)calloc((size_t)K->nstrips + 1, sizeof(aijt_dev_strip));
  D->src    = (aijt_int **)calloc((size_t)K->nstrips + 1, sizeof(aijt_int *));
  for (int s = 0; s < K->nstrips && ok; s++) {
    const aijt_layout *S = &K->strips[s];
    aijt_dev_strip    *d = &D->strips[s];
    ok                   = strip_start(P, K, s, o, D);
    if (S->format != AIJT_DIA) ok = ok && alloc_on((aijt_int **)&d->col, aijt_layout_col_count(S));
    ok = ok && alloc_on((double **)&d->val, (size_t)S->nslots);
    if (S->format == AIJT_DIA) ok = ok && alloc_on((uint32_t **)&d->mask, (size_t)S->nrows);
    if (ok && o && o->by_rows && aijt_dev_strip_by_rows(d, P->col_pos != NULL)) ok = alloc_on((aijt_int **)&d->row_start, (size_t)S->nrows); /* no map: the build writes them */
    else ok = ok && alloc_on(&D->src[s], (size_t)S->nslots);
  }
  D->tail.nnz   = K->tail.nnz;
  D->tail.block = o && o->block ? o->block : tail_block;
  ok = ok && alloc_on((aijt_int **)&D->tail.row, (size_t)K->tail.nnz) && alloc_on((aijt_int **)&D->tail.col, (size_t)K->tail.nnz);
  ok = ok && alloc_on((double **)&D->tail.val, (size_t)K->tail.nnz) && alloc_on(&D->tail_src, (size_t)K->tail.nnz);
  ok = ok && hot_start(K, D);
  ok = ok && upload_to(&dA.rowptr, A->rowptr, (size_t)A->nrows + 1) && upload_to(&dA.colidx, A->colidx, (size_t)nnz);
  ok = ok && upload((void **)&D->values, A->values, (size_t)nnz, sizeof(double));
  dA.values = D->values;
  if (P->col_pos) ok = ok && upload_to(&pos, P->col_pos, (size_t)A->ncols);
  ok = ok && aijt_cuda_ok(aijt_dev_build(P, K, &dA, pos, D->strips, D->src, &D->tail, D->tail_src, 0), "aijt_dev_build");
  ok = ok && aijt_cuda_ok(aijt_dia_codes_make_all(D->strips, D->nstrips, 0), "aijt_dia_codes_make_all");
  ok &= aijt_cuda_ok(cudaFree((void *)dA.rowptr), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)dA.colidx), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)pos), "cudaFree");
  return ok;
}

extern "C" int aijt_dev_refresh(aijt_dev_layouts *D, const double *values, aijt_int nnz)
{
  return D->values && aijt_cuda_ok(cudaMemcpy(D->values, values, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy values") &&
         aijt_cuda_ok(aijt_dev_refill(D->values, D->strips, D->src, D->nstrips, &D->tail, D->tail_src, 0), "aijt_dev_refill") && aijt_cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

extern "C" cudaError_t aijt_dev_spmv(const aijt_dev_layouts *D, const double *x, const double *z, double *y, cudaStream_t stream)
{
  cudaError_t err = aijt_cuda_gather(D->nhot, D->hot, x, D->xhot, stream);
  return err != cudaSuccess ? err : aijt_cuda_spmv(D->strips, D->nstrips, &D->tail, 1.0, x, z, y, stream);
}
