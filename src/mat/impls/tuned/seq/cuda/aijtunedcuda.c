/*
   seqaijtuned on the GPU: device copies of the layouts and MatMult on CUDA vectors.

   The host layouts stay the truth.  Upload() copies them once per plan (one allocation for all strips
   and the tail) and afterwards only the values, and only when the matrix state changed.  The product
   itself launches the strips' kernels on PETSc's current stream: no allocation, no host-device copy,
   no host synchronization.
*/
#include "aijtunedcuda.h"

/* 256-byte aligned pieces, so every array starts on its own cache lines */
static size_t Piece(size_t bytes)
{
  return (bytes + 255) & ~(size_t)255;
}

PetscErrorCode MatSeqAIJTunedCUDAFree(Mat_SeqAIJTuned *ctx)
{
  AIJTunedDevice d = ctx->dev;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedTuneFree(d));
  PetscCall(MatAIJTunedCacheFlush()); /* what tuning found goes to the file now, outside any product */
  if (d->buffer) PetscCallCUDA(cudaFree(d->buffer));
  PetscCall(PetscFree(d->strips));
  PetscCall(PetscFree(ctx->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copy n items of size s from host to the device address *at, and move *at on. */
static PetscErrorCode Put(char **at, const void *src, size_t n, size_t s, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (n) PetscCallCUDA(cudaMemcpyAsync(*at, src, n * s, cudaMemcpyHostToDevice, stream));
  *at += Piece(n * s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UploadValues(Mat_SeqAIJTuned *ctx, cudaStream_t stream)
{
  AIJTunedDevice d = ctx->dev;
  aijt_layouts  *L = ctx->layouts;
  size_t         bytes = 0;

  PetscFunctionBegin;
  for (int s = 0; s < d->nstrips; s++) {
    size_t n = (size_t)L->strips[s].nslots * sizeof(double);
    if (n) PetscCallCUDA(cudaMemcpyAsync((void *)d->strips[s].val, L->strips[s].val, n, cudaMemcpyHostToDevice, stream));
    bytes += n;
  }
  if (L->tail.nnz) PetscCallCUDA(cudaMemcpyAsync((void *)d->tail.val, L->tail.val, (size_t)L->tail.nnz * sizeof(double), cudaMemcpyHostToDevice, stream));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)(bytes + (size_t)L->tail.nnz * sizeof(double))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device copies in step with the host layouts: all arrays after a new plan, values after new values. */
static PetscErrorCode Upload(Mat A, Mat_SeqAIJTuned *ctx, cudaStream_t stream)
{
  AIJTunedDevice d;
  aijt_layouts  *L = ctx->layouts;
  size_t         idx = sizeof(aijt_int), bytes = 0;
  char          *at;

  PetscFunctionBegin;
  if (ctx->dev && ctx->dev->plans_made == ctx->plans_made) {
    if (ctx->dev->state != ctx->state) {
      PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0));
      PetscCall(UploadValues(ctx, stream));
      PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
      ctx->dev->state = ctx->state;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscCall(MatSeqAIJTunedCUDAFree(ctx));
  PetscCall(PetscNew(&ctx->dev));
  d          = ctx->dev;
  d->nstrips = L->nstrips;
  d->nempty  = aijt_plan_empty_tail(ctx->plan);
  PetscCall(PetscMalloc1(L->nstrips + 1, &d->strips));
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s];
    size_t             npartial, ncount;
    aijt_dev_strip_init(&d->strips[s], &ctx->plan->strips[s], S);
    aijt_dev_strip_workspace(&d->strips[s], &npartial, &ncount);
    bytes += Piece(S->nrows * idx) + Piece(aijt_dev_strip_ptr_count(&d->strips[s]) * idx) + Piece(S->col ? S->nslots * idx : 0) + Piece(S->nslots * sizeof(double));
    bytes += Piece(S->mask ? S->nrows * sizeof(uint32_t) : 0) + Piece(npartial * sizeof(double)) + Piece(ncount * sizeof(unsigned));
  }
  bytes += 2 * Piece(L->tail.nnz * idx) + Piece(L->tail.nnz * sizeof(double));
  bytes += Piece(L->nhot * idx) + Piece(L->nhot * sizeof(double));
  if (bytes) PetscCallCUDA(cudaMalloc(&d->buffer, bytes));
  d->bytes = bytes;
  at       = (char *)d->buffer;
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s];
    aijt_dev_strip    *D = &d->strips[s];
    size_t             nptr = aijt_dev_strip_ptr_count(D), npartial, ncount;
    aijt_dev_strip_workspace(D, &npartial, &ncount);
    D->rows = (const aijt_int *)at;
    PetscCall(Put(&at, S->rows, (size_t)S->nrows, idx, stream));
    D->ptr = nptr ? (const aijt_int *)at : NULL;
    PetscCall(Put(&at, S->ptr, nptr, idx, stream));
    D->col = S->col ? (const aijt_int *)at : NULL;
    PetscCall(Put(&at, S->col, S->col ? (size_t)S->nslots : 0, idx, stream));
    D->val = (const double *)at;
    PetscCall(Put(&at, S->val, (size_t)S->nslots, sizeof(double), stream));
    D->mask = S->mask ? (const uint32_t *)at : NULL;
    PetscCall(Put(&at, S->mask, S->mask ? (size_t)S->nrows : 0, sizeof(uint32_t), stream));
    /* a split LONG strip's workspace: counters start at zero, and every product leaves them there */
    D->partial = npartial ? (double *)at : NULL;
    at += Piece(npartial * sizeof(double));
    D->count = ncount ? (unsigned *)at : NULL;
    if (ncount) PetscCallCUDA(cudaMemsetAsync(D->count, 0, ncount * sizeof(unsigned), stream));
    at += Piece(ncount * sizeof(unsigned));
  }
  d->tail.nnz   = L->tail.nnz;
  d->tail.block = ctx->settings.rules.block;
  d->tail.row   = (const aijt_int *)at;
  PetscCall(Put(&at, L->tail.row, (size_t)L->tail.nnz, idx, stream));
  d->tail.col = (const aijt_int *)at;
  PetscCall(Put(&at, L->tail.col, (size_t)L->tail.nnz, idx, stream));
  d->tail.val = (const double *)at;
  PetscCall(Put(&at, L->tail.val, (size_t)L->tail.nnz, sizeof(double), stream));
  if (L->hot) {
    d->nhot = L->nhot;
    d->hot  = (const aijt_int *)at;
    PetscCall(Put(&at, L->hot, (size_t)L->nhot, idx, stream));
    d->xhot = (double *)at;
    at += Piece(L->nhot * sizeof(double));
    aijt_dev_set_hot(d->strips, d->nstrips, &d->tail, d->xhot, d->nhot);
  }
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  d->plans_made = ctx->plans_made;
  d->state      = ctx->state;
  PetscCall(MatSeqAIJTunedTuneStart(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The strips run on the device when the matrix is not bound to the CPU and every vector lives there. */
PetscErrorCode MatSeqAIJTunedCUDAUsable(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *usable)
{
  Vec v[3] = {x, z, y};

  PetscFunctionBegin;
  *usable = (PetscBool)(!A->boundtocpu && ctx->settings.gpu_strips);
  for (int i = 0; i < 3 && *usable; i++) {
    PetscBool cuda;
    if (!v[i]) continue;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)v[i], &cuda, VECSEQCUDA, VECMPICUDA, ""));
    *usable = cuda;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z, on the device.  The plan must be current (MatSeqAIJTunedUpdate). */
PetscErrorCode MatSeqAIJTunedMultCUDA(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y)
{
  const PetscScalar *xa, *za = NULL;
  PetscScalar       *ya;
  cudaStream_t       stream;
  PetscBool          tuning;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(Upload(A, ctx, stream));
  PetscCall(VecCUDAGetArrayRead(x, &xa));
  if (!z) PetscCall(VecCUDAGetArrayWrite(y, &ya));
  else if (z == y) {
    PetscCall(VecCUDAGetArray(y, &ya));
    za = ya;
  } else {
    PetscCall(VecCUDAGetArrayRead(z, &za));
    PetscCall(VecCUDAGetArrayWrite(y, &ya));
  }
  PetscCall(PetscLogGpuTimeBegin());
  /* a plan with a column order: the hot columns' copy of x, which the strips read (nothing otherwise) */
  PetscCallCUDA(aijt_cuda_gather(ctx->dev->nhot, ctx->dev->hot, (const double *)xa, ctx->dev->xhot, stream));
  PetscCall(MatSeqAIJTunedTuneProduct(A, ctx, (const double *)xa, (const double *)za, (double *)ya, stream, &tuning));
  /* in place (y += A x: MPIAIJ's off-diagonal block) empty rows keep their y: their strips need not run */
  if (!tuning) PetscCallCUDA(aijt_cuda_spmv(ctx->dev->strips, ctx->dev->nstrips - (z == y ? ctx->dev->nempty : 0), &ctx->dev->tail, (const double *)xa, (const double *)za, (double *)ya, stream));
  PetscCall(PetscLogGpuTimeEnd());
  if (!z) PetscCall(VecCUDARestoreArrayWrite(y, &ya));
  else if (z == y) PetscCall(VecCUDARestoreArray(y, &ya));
  else {
    PetscCall(VecCUDARestoreArrayRead(z, &za));
    PetscCall(VecCUDARestoreArrayWrite(y, &ya));
  }
  PetscCall(VecCUDARestoreArrayRead(x, &xa));
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)ctx->plan->nnz - (z ? 0.0 : (PetscLogDouble)ctx->nonzero_rows)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The name of the GPU this process uses ("" when there is none), to pick its performance model. */
PetscErrorCode MatAIJTunedCUDADeviceName(char name[], size_t len)
{
  int                   count = 0, dev = 0;
  struct cudaDeviceProp prop;

  PetscFunctionBegin;
  name[0] = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 || cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    (void)cudaGetLastError(); /* no device here: not an error, the nearest model plans */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, prop.name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
