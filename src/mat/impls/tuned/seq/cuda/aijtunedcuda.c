/*
   seqaijtuned on the GPU: device copies of the layouts and MatMult on CUDA vectors.

   Upload() makes the device layouts once per plan (one allocation for all strips and the tail) and
   afterwards refreshes only the values, and only when the matrix state changed.  From a skeleton (the
   default, MatSeqAIJTunedCUDABuilds) it uploads the CSR and the GPU builds the slots (kernels/build.cu).
   From host-built layouts (-mat_aijtuned_gpu_build 0) it copies their structure and refresh maps.  Values,
   the first ones and every new set, go up as the CSR's value array and fill the slots on the device through
   those maps (a strip the GPU built, DIA or a large one in the CSR's order: through its rows' first places,
   RowsSource): the host's slots are not refreshed for it (a pass over every slot on the host, 3.3x
   aijcusparse's time for new values on a PANEL plan, bench/results/2026-11-26-new-values).  The
   product itself launches the strips' kernels on PETSc's current stream: no allocation, no host-device
   copy, no host synchronization.  A DIA strip of few distinct values also gets one-byte value codes,
   made on the device after every new set of values (-mat_aijtuned_dia_codes, kernels/dia_codes.cu).
   Where the GPU has no room for them, the products run on the base's kernel (NoRoom).  The GPU planner's side
   (the structure it reads, its thread, its skeleton) is aijtunedplangpu.c.
*/
#include "aijtunedcuda.h"
#include "aijtunedparts.h"

/* 256-byte aligned pieces, so every array starts on its own cache lines */
static size_t Piece(size_t bytes)
{
  return (bytes + 255) & ~(size_t)255;
}

/* Whether strip s's slots are the CSR's values themselves, in their order: a STREAM or BCSR strip of the whole
   matrix (nnz entries) in a plan in natural order, whose slot k is entry k (plan/layout.c: "CSR's slots").  Such a
   strip gets no slots of its own and no refill map: its val points at the values each build or refill reads
   (PointInPlace), the base's device copy or d->values.  A refill after new values copied every one of them for
   nothing, and the slots doubled the memory they take: new values assembled on the GPU (MatSetValuesCOO) and a
   product took elast (BCSR) 1.82 ms against aijcusparse's 1.39 on an H100, 1.24 ms in place
   (bench/results/2026-11-27-values-in-place). */
static PetscBool InPlace(const Mat_SeqAIJTuned *ctx, int s, size_t nnz)
{
  const aijt_strip  *P = &ctx->plan->strips[s];
  const aijt_layout *S = &ctx->layouts->strips[s];

  return (PetscBool)((S->format == AIJT_STREAM || S->format == AIJT_BCSR) && !ctx->plan->sorted && P->begin == 0 && P->end == ctx->plan->nrows && (size_t)S->nslots == nnz && nnz);
}

/* Whether device strip D (plan strip s), built on the GPU, is refilled through its rows' first places
   (kernels/slot_source.cuh), 4 bytes a row, instead of a refill map, 4 bytes a slot: DIA strips, and the strips whose
   slots hold each row's entries in the CSR's order (aijt_dev_strip_by_rows: no column order) of at least
   BY_ROWS_MIN_SLOTS slots.  Smaller ones keep their maps, which are small (both kinds share the fused refill's
   launch, kernels/build.cu).  lap3d's map took 115 MB of the 416 its device copies held on an H200
   (bench/results/2026-11-28-values-drop).  The host's build keeps its maps (-mat_aijtuned_gpu_build 0). */
#define BY_ROWS_MIN_SLOTS (1 << 16)
static PetscBool RowsSource(const Mat_SeqAIJTuned *ctx, const aijt_dev_strip *D, int built)
{
  if (!built || !aijt_dev_strip_by_rows(D, ctx->layouts->nhot > 0)) return PETSC_FALSE;
  return (PetscBool)(D->format == AIJT_DIA || D->nslots >= BY_ROWS_MIN_SLOTS);
}

/* Whether device strip s reads the values in place (InPlace): no refill map, and not refilled through its rows'
   first places (RowsSource) */
static PetscBool ReadsInPlace(AIJTunedDevice d, int s)
{
  return (PetscBool)(!d->src[s] && !d->strips[s].row_start);
}

/* The strips that read the values in place (InPlace: no refill map) read these from now on: the host's order,
   current for the state the device copies take now.  So do the product's parts made of them (aijtunedparts.c): such
   a strip is the whole matrix and is not windowed, so a part of it is a copy of it, val and all; left as it was, a
   part read the values of before (where the values moved between d->values and the base's device copy), or memory
   given back (DropValues). */
static void PointInPlace(AIJTunedDevice d, const double *values)
{
  const double *was = NULL;

  for (int s = 0; s < d->nstrips; s++)
    if (ReadsInPlace(d, s)) was = d->strips[s].val, d->strips[s].val = values;
  for (int k = 0; k < 2 && was; k++)
    for (int i = 0; i < d->npart[k]; i++)
      if (d->part[k][i].val == was) d->part[k][i].val = values;
}

/* How many strips of d read the values in place (InPlace: no refill map) */
static int CountInPlace(AIJTunedDevice d)
{
  int n = 0;

  for (int s = 0; s < d->nstrips; s++) n += ReadsInPlace(d, s);
  return n;
}

PetscErrorCode MatSeqAIJTunedCUDAFree(Mat_SeqAIJTuned *ctx)
{
  AIJTunedDevice d = ctx->dev;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedTuneFree(d));
  PetscCall(MatAIJTunedCacheFlush()); /* what tuning found goes to the file now, outside any product */
  if (d->buffer || d->values_apart) {
    cudaStream_t stream;
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    if (d->buffer) PetscCallCUDA(cudaFreeAsync(d->buffer, stream)); /* after every product that read it: those on other streams join this one */
    if (d->values_apart) PetscCallCUDA(cudaFreeAsync(d->values, stream));
  }
  PetscCall(PetscFree(d->strips));
  PetscCall(PetscFree2(d->part[0], d->part[1]));
  PetscCall(PetscFree(d->src));
  PetscCall(PetscFree(ctx->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the GPU builds the slots of the plan's layouts. */
static PetscBool GPUBuildOn(Mat A, Mat_SeqAIJTuned *ctx)
{
  return (PetscBool)(!A->boundtocpu && ctx->settings.gpu_strips && ctx->settings.gpu_build);
}

PetscBool MatSeqAIJTunedCUDABuilds(Mat A, Mat_SeqAIJTuned *ctx)
{
  return GPUBuildOn(A, ctx);
}

/* Whether the GPU builds the slots from the base's device copy of the values, current there (BuildOnDevice): the
   host's copy is not read, and where it is stale it is not brought down for the plan or the build. */
PetscBool MatSeqAIJTunedCUDABuildsFromDeviceValues(Mat A, Mat_SeqAIJTuned *ctx)
{
  return (PetscBool)(GPUBuildOn(A, ctx) && MatAIJTunedBaseValuesOnDevice(A));
}

/* bytes of the host's array src into dst on stream: from a page-locked one (aijtunedpin.c) as it is, then waited for,
   as the host may write it again once this returns; from pageable memory piece by piece through the process's
   page-locked buffers (kernels/copy_in.cu), which the host may write again at once. */
cudaError_t MatSeqAIJTunedCUDAHostToDevice(Mat_SeqAIJTuned *ctx, void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
  cudaError_t err;

  if (!bytes || src != ctx->pinned) return aijt_dev_copy_in(dst, src, bytes, stream);
  if ((err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream)) != cudaSuccess) return err;
  return cudaStreamSynchronize(stream);
}

/* Arrays of new values below this many bytes that are not page-locked go up as the driver copies pageable memory. */
#define NEW_VALUES_DRIVER_COPY_MAX ((size_t)8 << 20)

/* New values up from the host (RefillOnDevice): as MatSeqAIJTunedCUDAHostToDevice, but no planner runs beside them, and the driver's
   copy of pageable memory overlaps its staging with the transfer, where copy_in.cu's pieces of 4 MiB leave an array
   under 4 MiB in one piece, copied on the host and then sent: GT01R's 3.4 MB took 290 + 81 us against the driver's
   251 on an H100 (bench/results/2026-11-27-scale-trace).  Larger arrays are page-locked (aijtunedpin.c) or, where
   that is off or refused, go in pieces, which the driver's copy is slower than from 28 MB up (6.4-6.9 GB/s). */
static cudaError_t NewValuesToDevice(Mat_SeqAIJTuned *ctx, void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
  if (bytes && src != ctx->pinned && bytes < NEW_VALUES_DRIVER_COPY_MAX) return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  return MatSeqAIJTunedCUDAHostToDevice(ctx, dst, src, bytes, stream);
}

/* A device allocation's result: where the GPU has no room for it (cudaErrorMemoryAllocation) *room becomes false and
   the caller goes without; any other error is PETSc's, as before. */
PetscErrorCode MatSeqAIJTunedCUDARoom(cudaError_t cerr, PetscBool *room)
{
  PetscFunctionBegin;
  if (cerr == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); /* not sticky, but the runtime's last error, which a later launch's check would read */
    *room = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(cerr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether strip S (device strip D) has its rows in the upload's buffer: the host skeleton's, copied, or
   the identity for a strip in natural order made by the GPU planner whose kernels read rows; a sorted
   plan's are pieces of the device order. */
static PetscBool RowsHere(Mat_SeqAIJTuned *ctx, const aijt_layout *S, const aijt_dev_strip *D)
{
  return (PetscBool)(S->rows || (!ctx->dev_order && aijt_dev_strip_reads_rows(D) && S->nrows));
}

/* The next piece of n items of size s at the device address *at, which moves on. */
static void *Take(char **at, size_t n, size_t s)
{
  void *p = *at;
  *at += Piece(n * s);
  return p;
}

/* The same, copied from the host; *copied counts the bytes. */
static PetscErrorCode Put(char **at, const void *src, size_t n, size_t s, size_t *copied, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (n) PetscCallCUDA(cudaMemcpyAsync(*at, src, n * s, cudaMemcpyHostToDevice, stream));
  *at += Piece(n * s);
  *copied += n * s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host's values of A (aa, its array) up into dst on the device: from a page-locked array where it is large
   enough (aijtunedpin.c; new_values: registered now if it is not), else as NewValuesToDevice sends them. */
PetscErrorCode MatSeqAIJTunedCUDASendValues(Mat A, Mat_SeqAIJTuned *ctx, double *dst, const PetscScalar *aa, PetscBool new_values, cudaStream_t stream)
{
  const size_t bytes = (size_t)ctx->dev->nnz * sizeof(double);

  PetscFunctionBegin;
  /* from page-locked memory the copy runs behind the host's back: MatSeqAIJTunedCUDAHostToDevice waits for it before the host may
     write the array again (the application's next assembly) */
  if (bytes) PetscCall(MatSeqAIJTunedCUDAPin(A, ctx, aa, bytes, new_values));
  PetscCallCUDA(NewValuesToDevice(ctx, dst, aa, bytes, stream));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host's values up into d->values, the values of state (MatSeqAIJTunedCUDASendValues).  The refill
   (RefillOnDevice) and the base's device copy (MatSeqAIJTunedCUDABaseValuesUp) read them there.  Where d->values is
   not there (a build that read the base's device values, or a build's values dropped after it: DropValues), it is
   made now, from the stream's pool, unless the GPU has no room for it (*room false, nothing done). */
static PetscErrorCode ValuesUp(Mat A, Mat_SeqAIJTuned *ctx, PetscObjectState state, PetscBool new_values, cudaStream_t stream, PetscBool *room)
{
  AIJTunedDevice     d     = ctx->dev;
  const size_t       bytes = (size_t)d->nnz * sizeof(double);
  const PetscScalar *aa;

  PetscFunctionBegin;
  *room = PETSC_TRUE;
  if (!d->values) {
    void *v = NULL;
    PetscCall(MatSeqAIJTunedCUDARoom(cudaMallocAsync(&v, bytes ? bytes : 1, stream), room));
    if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
    d->values       = (double *)v;
    d->values_apart = PETSC_TRUE; /* an allocation of its own, freed with d */
    ctx->pool_left -= PetscMin(ctx->pool_left, bytes); /* what DropValues left in the pool serves it first */
  }
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(MatSeqAIJTunedCUDASendValues(A, ctx, d->values, aa, new_values, stream));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  d->values_state = state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d->values given back where no strip reads them (in place, PointInPlace) and they are an allocation of their own.
   After a new plan's build their only reader is the refill after new host values, and where the base's device
   matrix exists not even that: the host's values go up into it (MatSeqAIJTunedCUDABaseValuesFromHost).  Kept, they
   were 8 bytes an entry for the life of every matrix, a third of what its device copies took (lap3d 23.5 bytes an
   entry after its first product against aijcusparse's 12.7, bench/results/2026-11-28-memory); ValuesUp
   makes them again for the first new host values, one allocation from the stream's pool. */
static PetscErrorCode DropValues(Mat_SeqAIJTuned *ctx, cudaStream_t stream)
{
  AIJTunedDevice d = ctx->dev;

  PetscFunctionBegin;
  if (!d->values_apart) PetscFunctionReturn(PETSC_SUCCESS);
  for (int s = 0; s < d->nstrips; s++)
    if (ReadsInPlace(d, s) && d->strips[s].val == d->values) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFreeAsync(d->values, stream)); /* after the build or refill that read them: the same stream */
  if (!ctx->pool_marked) ctx->pool_left += (size_t)d->nnz * sizeof(double); /* outside a setup: given back at the next one's end, or the matrix's */
  PetscCall(PetscInfo(NULL, "aijtuned's device copy of the values (%.4g MB) given back: no strip reads it\n", (double)d->nnz * sizeof(double) / 1e6));
  d->values       = NULL;
  d->values_apart = PETSC_FALSE;
  d->values_state = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Values, the layouts' first or new ones, into every slot through its map: from the base's device copy where that
   holds them (the base's operations on the GPU, MatScale, MatAXPY, COO assembly of device values, leave the host's values stale:
   read through the host they went down and up again, MatScale twice and a product took 10-140 ms against aijcusparse's 0.14-1.3 (70-150x),
   bench/results/2026-11-26-new-values), else from the host's CSR values: copied up into the base's device matrix
   where it exists for this pattern (MatSeqAIJTunedCUDABaseValuesFromHost), its values then current there too, else
   into d->values (ValuesUp), unless they are there already (the base's next operation on the GPU took them).
   *room false where the GPU has no room for d->values (nothing done). */
static PetscErrorCode RefillOnDevice(Mat A, Mat_SeqAIJTuned *ctx, PetscBool new_values, cudaStream_t stream, PetscBool *room)
{
  AIJTunedDevice     d         = ctx->dev;
  PetscBool          on_device = (PetscBool)(d->nnz && MatAIJTunedBaseValuesOnDevice(A));
  const PetscScalar *aa;

  PetscFunctionBegin;
  if (!on_device && d->values_state != ctx->state) PetscCall(MatSeqAIJTunedCUDABaseValuesFromHost(A, ctx, new_values, stream, &on_device)); /* into the base's device matrix, where it exists */
  if (on_device) { /* the base's device matrix: noted by Upload, the one caller */
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetArrayRead(A, &aa)); /* no copy: the device's are current */
  } else {
    if (d->values_state != ctx->state) PetscCall(ValuesUp(A, ctx, ctx->state, new_values, stream, room));
    if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
    aa = d->values;
  }
  PointInPlace(d, (const double *)aa); /* read there until the next refill: the state's values stay there till then */
  PetscCallCUDA(aijt_dev_refill((const double *)aa, d->strips, (const aijt_int *const *)d->src, d->nstrips, &d->tail, d->tail_src, stream));
  d->scale = 1; /* the values written are the matrix's */
  if (on_device) {
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayRead(A, &aa));
    PetscCall(DropValues(ctx, stream)); /* the base's are read: no strip reads aijtuned's now */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether MatScale by a can leave A's device copies as they are, the products multiplying by a
   (MatSeqAIJTunedCUDAScale), asked before the base scales its values: the copies hold the values it begins with
   (MatSeqAIJTunedCUDAHoldsMatrix; tuning's products multiply too) and a is finite.  Otherwise the next product
   refills them from the base's values, a pass over every slot (and DIA's codes made again).  MatScale twice and a product took 0.67-0.76x aijcusparse's
   time on the plans that refilled (circuit, elast, R-MAT, random; bench/results/2026-11-27-h100-verify-0a00cf9),
   which scaled every slot in place had not mended (bench/results/2026-11-26-scale-in-place). */
PetscErrorCode MatSeqAIJTunedCUDAScaleDeferrable(Mat A, PetscScalar a, PetscBool *deferrable)
{
  PetscFunctionBegin;
  *deferrable = PETSC_FALSE;
  if (PetscIsInfOrNanScalar(a)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDAHoldsMatrix(A, deferrable));
  if (*deferrable) { /* strips reading the values in place may read them scaled already (the base's device copy): the
                        next product's refill points them at the scaled values, copying nothing for them */
    Mat_SeqAIJTuned *ctx;
    PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
    *deferrable = (PetscBool)!CountInPlace(ctx->dev);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatScale by a, once the base has scaled its values, of device copies that held the values it began with
   (MatSeqAIJTunedCUDAScaleDeferrable): no work on the device, the products multiply each row's sum by the factors
   gathered (aijt_cuda_spmv's scale) until a refill writes the scaled values.  The copies then stand for the state
   MatScale() leaves: the state now, raised once more after this returns (as MatAssemblyEnd() does).  Where MatScale()
   did otherwise, the states differ and the next product refills, as without this. */
PetscErrorCode MatSeqAIJTunedCUDAScale(Mat A, Mat_SeqAIJTuned *ctx, PetscScalar a)
{
  AIJTunedDevice   d = ctx->dev;
  PetscObjectState state;

  PetscFunctionBegin;
  d->scale *= (double)PetscRealPart(a);
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  ctx->state = d->state = state + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The GPU build of a skeleton's slots: the CSR's offsets, columns (and the column order) up for the
   build alone, unless the GPU planner left them there; its values the host's (csr->values) copied into d->values,
   which refreshes reuse, or those that went up beside the planner (d->values_apart), or without host values (csr
   from MatSeqAIJTunedGetStructure) the base's device copy, read where it is.  The caller frees the structure
   (tuning's fingerprints read it first).  *room false where a device allocation found no room (MatSeqAIJTunedCUDARoom). */
static PetscErrorCode BuildOnDevice(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, cudaStream_t stream, PetscBool *room)
{
  AIJTunedDevice     d     = ctx->dev;
  const size_t       idx   = sizeof(aijt_int), nnz = (size_t)csr->rowptr[csr->nrows];
  const PetscBool    there = (PetscBool)(!d->values_apart && !csr->values && nnz); /* the base's device values */
  aijt_dev_csr       dA    = {csr->nrows, csr->ncols, (aijt_int)nnz, NULL, NULL, d->values};
  aijt_int          *pos   = NULL;
  size_t             copied = d->values_apart || !csr->values ? 0 : nnz * sizeof(double); /* apart: up already, beside the planner */
  const PetscScalar *aa     = NULL;
  cudaError_t        err;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedCUDAUploadStructure(A, ctx, csr, stream, &copied, room));
  if (ctx->dev_col_pos) pos = ctx->dev_col_pos;
  else if (ctx->plan->col_pos && *room) {
    void *p = NULL;
    PetscCall(MatSeqAIJTunedCUDARoom(cudaMallocAsync(&p, (size_t)csr->ncols * idx, stream), room));
    if (*room) {
      pos = (aijt_int *)p;
      PetscCallCUDA(cudaMemcpyAsync(pos, ctx->plan->col_pos, (size_t)csr->ncols * idx, cudaMemcpyHostToDevice, stream));
      copied += (size_t)csr->ncols * idx;
    }
  }
  if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
  if (there) {
    MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetArrayRead(A, &aa));
    dA.values = (const double *)aa;
  } else {
    if (!d->values_apart) PetscCallCUDA(MatSeqAIJTunedCUDAHostToDevice(ctx, d->values, csr->values, nnz * sizeof(double), stream));
    d->values_state = ctx->state; /* the host's, or those that went up beside the planner for this state */
  }
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)copied));
  dA.rowptr = ctx->dev_rowptr;
  dA.colidx = ctx->dev_colidx;
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Build, A, 0, 0, 0));
  PointInPlace(d, dA.values);
  err = aijt_dev_build(ctx->plan, ctx->layouts, &dA, pos, d->strips, d->src, &d->tail, d->tail_src, stream);
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Build, A, 0, 0, 0));
  if (there) MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayRead(A, &aa));
  if (pos && pos != ctx->dev_col_pos) PetscCallCUDA(cudaFreeAsync(pos, stream));
  PetscCheck(err != cudaErrorInvalidValue, PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned GPU build: the matrix's pattern is not the one its plan was made for");
  PetscCall(MatSeqAIJTunedCUDARoom(err, room)); /* its work space */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the strips found no room on the GPU for the current plan and values (NoRoom): the base's kernel multiplies */
PetscBool MatSeqAIJTunedCUDANoRoom(const Mat_SeqAIJTuned *ctx)
{
  return (PetscBool)(ctx->no_room_plan == ctx->plans_made + 1 && ctx->no_room_state == ctx->state);
}

/* The strips found no room on the GPU: a device allocation of Upload, 'bytes' its buffer (0: d->values for new values
   alone), failed for want of memory.
   What they had there goes, with the structure and values kept for their build (the plan's order stays: the next try
   reads it), and what the stream's pool then holds unused goes back to the device, for the base's own device copy,
   which cudaMalloc makes.  Until new values or a new plan the products run on the base's kernel, as aijcusparse's:
   a matrix aijcusparse has room for multiplies, where it stopped with PETSc's GPU resource error before.  Setup, not
   the product: it waits for the stream (the frees, before the trim). */
static PetscErrorCode NoRoom(Mat A, Mat_SeqAIJTuned *ctx, size_t bytes, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedCUDAFree(ctx));
  PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx));
  PetscCall(MatSeqAIJTunedCUDAPoolEmpty(ctx, stream));
  ctx->no_room_plan  = ctx->plans_made + 1;
  ctx->no_room_state = ctx->state;
  PetscCall(PetscInfo(A, "No room on the GPU for the strips (%.3g MB): the base's kernel multiplies until new values or a new pattern\n", (double)bytes / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* NoRoom, in Upload's making of new device copies: the CSR it read given back and its event ended first */
static PetscErrorCode GiveUp(Mat A, Mat_SeqAIJTuned *ctx, aijt_csr *csr, size_t bytes, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedRestoreCSR(A, csr));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscCall(NoRoom(A, ctx, bytes, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device copies in step with the host: all arrays after a new plan, values after new values.  *room false where the
   GPU has no room for the strips (NoRoom). */
static PetscErrorCode Upload(Mat A, Mat_SeqAIJTuned *ctx, cudaStream_t stream, PetscBool *room)
{
  AIJTunedDevice d;
  aijt_layouts  *L = ctx->layouts;
  const int      built = !L->filled; /* a skeleton: the GPU builds the slots */
  PetscBool      apart; /* the values uploaded beside the planner are taken as they are */
  PetscBool      own_values;
  size_t         idx = sizeof(aijt_int), bytes = 0, copied = 0, nnz;
  aijt_csr       csr;
  char          *at;

  PetscFunctionBegin;
  /* the base's device matrix, made by its first operation on the GPU (MatScale), seen for the next new host values to
     go up into (MatSeqAIJTunedCUDABaseValuesFromHost): their MatSetValues brings its values down and marks the host's
     alone current */
  MatAIJTunedNoteBaseMatrix(A, ctx);
  *room = (PetscBool)!MatSeqAIJTunedCUDANoRoom(ctx);
  if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
  if (ctx->dev && ctx->dev->plans_made == ctx->plans_made) {
    if (ctx->dev->state != ctx->state) {
      PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0));
      PetscCall(PetscLogEventBegin(MAT_AIJTuned_Refresh, A, 0, 0, 0));
      PetscCall(RefillOnDevice(A, ctx, PETSC_TRUE, stream, room)); /* and the new values' codes */
      PetscCall(PetscLogEventEnd(MAT_AIJTuned_Refresh, A, 0, 0, 0));
      PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
      if (!*room) PetscCall(NoRoom(A, ctx, 0, stream));
      else ctx->dev->state = ctx->state;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscCall(MatSeqAIJTunedCUDAPoolMark(ctx)); /* where the host planned: nothing taken from the pool yet */
  PetscCall(MatSeqAIJTunedCUDAFree(ctx));
  PetscCall(PetscNew(&ctx->dev));
  ctx->dev->scale = 1;
  apart = (PetscBool)(built && ctx->dev_values && ctx->dev_values_state == ctx->state);
  /* the host's values only for a GPU build that has none on the device (RefillOnDevice reads its own) */
  if (built && !apart && !MatAIJTunedBaseValuesOnDevice(A)) PetscCall(MatSeqAIJTunedGetCSR(A, &csr));
  else PetscCall(MatSeqAIJTunedGetStructure(A, &csr));
  nnz        = (size_t)csr.rowptr[csr.nrows];
  d          = ctx->dev;
  /* the CSR's values on the device, which new host values go up into for the refills: made now for a build from the
     host's values; a build from the base's device copy needs none, nor do new values on the device (COO assembly, the
     base's operations), and host values make them then (ValuesUp): 8 bytes an entry saved there */
  own_values = (PetscBool)(!apart && csr.values);
  d->nstrips = L->nstrips;
  d->nempty  = aijt_plan_empty_tail(ctx->plan);
  PetscCall(PetscMalloc1(L->nstrips + 1, &d->strips));
  PetscCall(PetscCalloc1(L->nstrips + 1, &d->src));
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s];
    const int          dia = S->format == AIJT_DIA;
    const PetscBool    in  = InPlace(ctx, s, nnz);
    const size_t       own = in ? 0 : (size_t)S->nslots; /* slots and map of its own */
    size_t             map, npartial, ncount;
    aijt_dev_strip_init(&d->strips[s], &ctx->plan->strips[s], S);
    map = !in && RowsSource(ctx, &d->strips[s], built) ? (size_t)S->nrows : own; /* or its rows' first places, as placed below */
    aijt_dev_strip_workspace(&d->strips[s], &npartial, &ncount);
    bytes += Piece(RowsHere(ctx, S, &d->strips[s]) ? S->nrows * idx : 0) + Piece(aijt_dev_strip_ptr_count(&d->strips[s]) * idx) + Piece(aijt_layout_col_count(S) * idx) + Piece(own * sizeof(double));
    bytes += Piece(dia ? S->nrows * sizeof(uint32_t) : 0) + Piece(npartial * sizeof(double)) + Piece(ncount * sizeof(unsigned)) + Piece(map * idx);
    bytes += Piece(ctx->settings.dia_codes ? aijt_dia_codes_bytes(&d->strips[s]) : 0);
  }
  bytes += 3 * Piece(L->tail.nnz * idx) + Piece(L->tail.nnz * sizeof(double));
  bytes += Piece(L->nhot * idx) + Piece(L->nhot * sizeof(double)) + Piece(own_values ? nnz * sizeof(double) : 0);
  /* from the stream's pool, which PETSc keeps: a cudaMalloc here took 100-300 us, 6-10 of the matrix's products, at each
     first product after a new plan on an H100 (bench/results/2026-11-27-first-product) */
  if (bytes) PetscCall(MatSeqAIJTunedCUDARoom(cudaMallocAsync(&d->buffer, bytes, stream), room));
  if (!*room) {
    d->buffer = NULL;
    PetscCall(GiveUp(A, ctx, &csr, bytes, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  d->bytes = bytes;
  at       = (char *)d->buffer;
  for (int s = 0; s < L->nstrips; s++) {
    const aijt_layout *S = &L->strips[s];
    aijt_dev_strip    *D = &d->strips[s];
    const int          dia = S->format == AIJT_DIA;
    const PetscBool    in  = InPlace(ctx, s, nnz);
    size_t             nptr = aijt_dev_strip_ptr_count(D), npartial, ncount;
    aijt_dev_strip_workspace(D, &npartial, &ncount);
    if (S->rows) {
      D->rows = (const aijt_int *)at;
      PetscCall(Put(&at, S->rows, (size_t)S->nrows, idx, &copied, stream));
    } else if (ctx->dev_order) D->rows = ctx->dev_order + ctx->plan->strips[s].begin; /* the skeleton's rows are on the device */
    else if (RowsHere(ctx, S, D)) { /* natural order: the identity */
      D->rows = (const aijt_int *)Take(&at, (size_t)S->nrows, idx);
      PetscCallCUDA(aijt_dev_iota((aijt_int *)D->rows, ctx->plan->strips[s].begin, S->nrows, stream));
    } else D->rows = NULL; /* natural order, and its kernels number rows from row0 */
    D->ptr = nptr ? (const aijt_int *)at : NULL;
    if (S->ptr || !nptr) PetscCall(Put(&at, S->ptr, nptr, idx, &copied, stream));
    else at += Piece(nptr * idx); /* made below, on the device */
    D->col  = (const aijt_int *)Take(&at, aijt_layout_col_count(S), idx);
    D->val  = in ? NULL : (const double *)Take(&at, (size_t)S->nslots, sizeof(double)); /* in place: PointInPlace */
    D->mask = (const uint32_t *)Take(&at, dia ? (size_t)S->nrows : 0, sizeof(uint32_t));
    if (dia) D->col = NULL; /* DIA finds columns from rows */
    else D->mask = NULL;
    if (!built) { /* the host's slots' structure; their values come with RefillOnDevice() below */
      char *to = (char *)(dia ? (void *)D->mask : (void *)D->col);
      if (dia) PetscCall(Put(&to, S->mask, (size_t)S->nrows, sizeof(uint32_t), &copied, stream));
      else PetscCall(Put(&to, S->col, aijt_layout_col_count(S), idx, &copied, stream));
    }
    /* a split LONG strip's workspace: counters start at zero, and every product leaves them there */
    D->partial = npartial ? (double *)at : NULL;
    at += Piece(npartial * sizeof(double));
    D->count = ncount ? (unsigned *)at : NULL;
    if (ncount) PetscCallCUDA(cudaMemsetAsync(D->count, 0, ncount * sizeof(unsigned), stream));
    at += Piece(ncount * sizeof(unsigned));
    if (!in && RowsSource(ctx, D, built)) D->row_start = (const aijt_int *)Take(&at, (size_t)S->nrows, idx); /* no map: the GPU build writes them */
    else if (!in) { /* its map (a strip in place has none: d->src[s] stays NULL) */
      d->src[s] = (aijt_int *)at;
      if (built) at += Piece((size_t)S->nslots * idx); /* the GPU build writes it */
      else PetscCall(Put(&at, S->src, (size_t)S->nslots, idx, &copied, stream));
    }
    if (ctx->settings.dia_codes && aijt_dia_codes_bytes(D)) aijt_dia_codes_attach(D, Take(&at, aijt_dia_codes_bytes(D), 1));
  }
  d->tail.nnz   = L->tail.nnz;
  d->tail.block = ctx->settings.rules.block;
  d->tail.row   = (const aijt_int *)Take(&at, (size_t)L->tail.nnz, idx);
  d->tail.col   = (const aijt_int *)Take(&at, (size_t)L->tail.nnz, idx);
  d->tail.val   = (const double *)Take(&at, (size_t)L->tail.nnz, sizeof(double));
  d->tail_src   = (aijt_int *)Take(&at, (size_t)L->tail.nnz, idx);
  if (!built) {
    char *to = (char *)d->tail.row;
    PetscCall(Put(&to, L->tail.row, (size_t)L->tail.nnz, idx, &copied, stream));
    PetscCall(Put(&to, L->tail.col, (size_t)L->tail.nnz, idx, &copied, stream));
    to = (char *)d->tail_src;
    PetscCall(Put(&to, L->tail.src, (size_t)L->tail.nnz, idx, &copied, stream));
  }
  if (L->nhot) {
    d->nhot = L->nhot;
    d->hot  = (const aijt_int *)at;
    if (L->hot) PetscCall(Put(&at, L->hot, (size_t)L->nhot, idx, &copied, stream));
    else { /* the column order is on the device */
      PetscCheck(ctx->dev_col_pos, PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: a skeleton with hot columns but no column order");
      PetscCallCUDA(aijt_dev_hot_columns(ctx->dev_col_pos, L->ncols, L->nhot, (aijt_int *)d->hot, stream));
      at += Piece((size_t)L->nhot * idx);
    }
    d->xhot = (double *)Take(&at, (size_t)L->nhot, sizeof(double));
    aijt_dev_set_hot(d->strips, d->nstrips, &d->tail, d->xhot, d->nhot);
  }
  if (apart) { /* the GPU build's own (new values go there too) */
    d->values       = ctx->dev_values;
    d->values_apart = PETSC_TRUE;
    ctx->dev_values = NULL;
  } else d->values = own_values ? (double *)Take(&at, nnz, sizeof(double)) : NULL; /* else made if host values come */
  d->nnz = (aijt_int)nnz;
  if (!built) PetscCall(RefillOnDevice(A, ctx, PETSC_FALSE, stream, room)); /* logs its own copy; codes DIA's values */
  else {
    if (aijt_layouts_rows_elsewhere(L)) { /* the offsets of rows on the device (the structure again if a binding to the CPU freed it) */
      PetscCall(MatSeqAIJTunedCUDAUploadStructure(A, ctx, &csr, stream, &copied, room));
      if (*room) PetscCallCUDA(aijt_dev_skeleton_ptrs(ctx->plan, ctx->dev_rowptr, ctx->dev_colidx, d->strips, stream));
    }
    if (*room) PetscCall(BuildOnDevice(A, ctx, &csr, stream, room)); /* logs its own copies */
    if (*room) PetscCallCUDA(aijt_dia_codes_make_all(d->strips, d->nstrips, stream)); /* after the slots' values */
  }
  if (!*room) {
    PetscCall(GiveUp(A, ctx, &csr, bytes, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)copied));
  {
    const int in_place = CountInPlace(d);
    if (in_place) PetscCall(PetscInfo(A, "%d of %d strips read the values in place: no slots or refill map of their own\n", in_place, d->nstrips));
  }
  d->plans_made = ctx->plans_made;
  d->state      = ctx->state;
  PetscCall(DropValues(ctx, stream)); /* the build's, where no strip reads them; given back with the setup's below */
  PetscCall(MatSeqAIJTunedTuneStart(ctx, &csr));
  PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx)); /* the GPU build and the fingerprints alone read it */
  PetscCall(MatSeqAIJTunedRestoreCSR(A, &csr));
  PetscCall(MatSeqAIJTunedCUDAPoolGiveBack(A, ctx));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The strips run on the device when the matrix is not bound to the CPU and every vector lives there. */
PetscErrorCode MatSeqAIJTunedCUDAUsable(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *usable)
{
  PetscFunctionBegin;
  *usable = (PetscBool)(!A->boundtocpu && ctx->settings.gpu_strips);
  if (*usable) PetscCall(MatAIJTunedVecsAreCUDA(x, z, y, usable));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z, on the device.  The plan must be current (MatSeqAIJTunedUpdate). */
/* *room false: the strips found no room on the GPU, and nothing was done (the caller runs the base's kernel) */
PetscErrorCode MatSeqAIJTunedMultCUDA(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *room)
{
  const PetscScalar *xa, *za;
  PetscScalar       *ya;
  cudaStream_t       stream;
  PetscBool          tuning;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(Upload(A, ctx, stream, room));
  if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJTunedGetVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));
  PetscCall(PetscLogGpuTimeBegin());
  /* a plan with a column order: the hot columns' copy of x, which the strips read (nothing otherwise) */
  PetscCallCUDA(aijt_cuda_gather(ctx->dev->nhot, ctx->dev->hot, (const double *)xa, ctx->dev->xhot, stream));
  PetscCall(MatSeqAIJTunedTuneProduct(A, ctx, (const double *)xa, (const double *)za, (double *)ya, stream, &tuning));
  /* in place (y += A x: MPIAIJ's off-diagonal block) empty rows keep their y: their strips need not run */
  if (!tuning) PetscCallCUDA(aijt_cuda_spmv(ctx->dev->strips, ctx->dev->nstrips - (z == y ? ctx->dev->nempty : 0), &ctx->dev->tail, ctx->dev->scale, (const double *)xa, (const double *)za, (double *)ya, stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(MatAIJTunedRestoreVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)ctx->plan->nnz - (z ? 0.0 : (PetscLogDouble)ctx->nonzero_rows)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bytes of the strips' device buffer (every strip's arrays and the tail) once the current plan is on the GPU, else
   0: what -mat_view shows beside the layouts' planned size.  That size is the host's count: it leaves out the GPU's
   work space, and it counts the slots of strips that on the GPU read the values in place. */
size_t MatSeqAIJTunedCUDABytes(const Mat_SeqAIJTuned *ctx)
{
  const struct _n_AIJTunedDevice *d = ctx->dev;

  return d && d->plans_made == ctx->plans_made ? d->bytes : 0;
}

/* What -mat_view adds to strip s once its device copy exists: whether its DIA values are coded ("" for
   other strips, or before the first product).  It waits for the stream: a view, not a product. */
PetscErrorCode MatSeqAIJTunedCUDAStripNote(Mat_SeqAIJTuned *ctx, int s, char note[], size_t len)
{
  AIJTunedDevice d = ctx->dev;
  int            state[AIJT_CODES_STATE];
  cudaStream_t   stream;

  PetscFunctionBegin;
  note[0] = 0;
  if (!d || d->plans_made != ctx->plans_made || s >= d->nstrips || !d->strips[s].code) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaMemcpyAsync(state, d->strips[s].codes_state, sizeof(state), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCall(PetscLogGpuToCpu((PetscLogDouble)sizeof(state)));
  if (state[AIJT_CODES_USED]) PetscCall(PetscSNPrintf(note, len, ", values coded on the GPU (%d distinct)", state[AIJT_CODES_COUNT]));
  else PetscCall(PetscSNPrintf(note, len, ", values not coded (more than %d distinct)", AIJT_DIA_CODES - 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the set-up passes and the uploads keep for the process (kernels/stage.cu, kernels/copy_in.cu), released with
   the package. */
void MatAIJTunedCUDAStageFree(void)
{
  aijt_dev_stage_free();
  aijt_dev_copy_in_free();
}
