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
    ok &= aijt_cuda_ok(cudaFree(D->strips[s].partial), "cudaFree");
    ok &= aijt_cuda_ok(cudaFree(D->strips[s].count), "cudaFree");
  }
  free(D->strips);
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.row), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.col), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->tail.val), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree((void *)D->hot), "cudaFree");
  ok &= aijt_cuda_ok(cudaFree(D->xhot), "cudaFree");
  memset(D, 0, sizeof(*D));
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
    size_t             nptr, npartial, ncount;
    aijt_dev_strip_init(d, &P->strips[s], S);
    D->nstrips = s + 1;
    if (o && o->tpr && (d->format == AIJT_CSR || d->format == AIJT_PANEL)) d->tpr = o->tpr;
    if (o && o->bpr && d->format == AIJT_LONG) d->blocks_per_row = o->bpr;
    if (o && o->block) d->block = o->block;
    nptr = aijt_dev_strip_ptr_count(d);
    aijt_dev_strip_workspace(d, &npartial, &ncount);
    /* aijt_dev_strip_init left the pointers NULL: a skipped upload leaves nothing to free */
    ok = ok && upload_to(&d->rows, S->rows, (size_t)S->nrows);
    if (nptr) ok = ok && upload_to(&d->ptr, S->ptr, nptr);
    if (S->col) ok = ok && upload_to(&d->col, S->col, (size_t)S->nslots);
    ok = ok && upload_to(&d->val, S->val, (size_t)S->nslots);
    if (S->mask) ok = ok && upload_to(&d->mask, S->mask, (size_t)S->nrows);
    if (npartial) {
      ok = ok && aijt_cuda_ok(cudaMalloc((void **)&d->partial, npartial * sizeof(double)), "cudaMalloc partial");
      if (ncount) ok = ok && aijt_cuda_ok(cudaMalloc((void **)&d->count, ncount * sizeof(unsigned)), "cudaMalloc count");
      if (ncount) ok = ok && aijt_cuda_ok(cudaMemset(d->count, 0, ncount * sizeof(unsigned)), "cudaMemset count");
    }
  }
  D->tail.nnz   = L->tail.nnz;
  D->tail.block = o && o->block ? o->block : tail_block;
  ok = ok && upload_to(&D->tail.row, L->tail.row, (size_t)L->tail.nnz);
  ok = ok && upload_to(&D->tail.col, L->tail.col, (size_t)L->tail.nnz);
  ok = ok && upload_to(&D->tail.val, L->tail.val, (size_t)L->tail.nnz);
  if (L->hot) {
    D->nhot = L->nhot;
    ok      = ok && upload_to(&D->hot, L->hot, (size_t)L->nhot);
    ok      = ok && aijt_cuda_ok(cudaMalloc((void **)&D->xhot, (size_t)L->nhot * sizeof(double)), "cudaMalloc xhot");
    aijt_dev_set_hot(D->strips, D->nstrips, &D->tail, D->xhot, D->nhot);
  }
  return ok;
}

extern "C" cudaError_t aijt_dev_spmv(const aijt_dev_layouts *D, const double *x, const double *z, double *y, cudaStream_t stream)
{
  cudaError_t err = aijt_cuda_gather(D->nhot, D->hot, x, D->xhot, stream);
  return err != cudaSuccess ? err : aijt_cuda_spmv(D->strips, D->nstrips, &D->tail, x, z, y, stream);
}
