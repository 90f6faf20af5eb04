/*
   seqaijtuned's side of the GPU planner (kernels/plan_gpu.cu, kernels/plan_job.cu): the CSR's structure on the
   device for its passes (the base's own where it is current there, else the host's copied up), the planner in its
   thread beside the values' upload or a COO assembly, or planning at once, the skeleton it leaves on the device, and
   the host copies of its order where a host consumer needs them.  Where the GPU has no room for what it needs, the
   host plans (MatSeqAIJTunedCUDARoom).  The device copies and the product are aijtunedcuda.c's.
*/
#include "aijtunedcuda.h"

/* The base's device copy of the structure (cuSPARSE's 32-bit offsets and columns), where its values are current
   there (a matrix assembled on the GPU): *ok false where it cannot be read there (64-bit indices, a storage format
   other than CSR), and the host's go up instead. */
static PetscErrorCode BaseStructure(Mat A, const aijt_int **rowptr, const aijt_int **colidx, PetscBool *ok)
{
  const int     *i = NULL, *j = NULL;
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  if (sizeof(aijt_int) != sizeof(int) || A->boundtocpu || !MatAIJTunedBaseValuesOnDevice(A) || !A->rmap->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* a refusal is an answer: upload instead */
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, (ierr = MatSeqAIJCUSPARSEGetIJ(A, PETSC_FALSE, &i, &j), PETSC_SUCCESS));
  PetscCall(PetscPopErrorHandler());
  if (ierr || !i || !j) PetscFunctionReturn(PETSC_SUCCESS);
  *rowptr = (const aijt_int *)i;
  *colidx = (const aijt_int *)j;
  *ok     = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's device copy of the structure in ctx->dev_rowptr, ctx->dev_colidx, read only (BaseStructure), where
   *there; they are left as they were where not. */
static PetscErrorCode BorrowStructure(Mat A, Mat_SeqAIJTuned *ctx, PetscBool *there)
{
  const aijt_int *i, *j;

  PetscFunctionBegin;
  PetscCall(BaseStructure(A, &i, &j, there));
  if (!*there) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->dev_rowptr         = (aijt_int *)i;
  ctx->dev_colidx         = (aijt_int *)j;
  ctx->structure_borrowed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The CSR's offsets and columns in ctx->dev_rowptr, ctx->dev_colidx (the GPU planner and build read them), unless
   they are there: the base's own where its device copy is current (BorrowStructure; looked up again at each call, as
   the base may have moved them), else the host's copied up; *copied counts the bytes.  *room false where the GPU had
   none for them (MatSeqAIJTunedCUDARoom): the caller frees what was had (MatSeqAIJTunedCUDAFreeStructure). */
PetscErrorCode MatSeqAIJTunedCUDAUploadStructure(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, cudaStream_t stream, size_t *copied, PetscBool *room)
{
  const size_t idx = sizeof(aijt_int), nnz = (size_t)csr->rowptr[csr->nrows];
  PetscBool    there;
  void        *rowptr = NULL, *colidx = NULL;

  PetscFunctionBegin;
  if (ctx->dev_rowptr && !ctx->structure_borrowed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BorrowStructure(A, ctx, &there));
  if (there) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->dev_rowptr = ctx->dev_colidx = NULL; /* the base's, if they were: no longer to be read */
  ctx->structure_borrowed = PETSC_FALSE;
  PetscCall(MatSeqAIJTunedCUDARoom(cudaMallocAsync(&rowptr, ((size_t)csr->nrows + 1) * idx, stream), room));
  if (*room) ctx->dev_rowptr = (aijt_int *)rowptr;
  if (*room) PetscCall(MatSeqAIJTunedCUDARoom(cudaMallocAsync(&colidx, (nnz ? nnz : 1) * idx, stream), room));
  if (!*room) PetscFunctionReturn(PETSC_SUCCESS);
  ctx->dev_colidx = (aijt_int *)colidx;
  PetscCallCUDA(MatSeqAIJTunedCUDAHostToDevice(ctx, ctx->dev_rowptr, csr->rowptr, ((size_t)csr->nrows + 1) * idx, stream));
  PetscCallCUDA(MatSeqAIJTunedCUDAHostToDevice(ctx, ctx->dev_colidx, csr->colidx, nnz * idx, stream));
  *copied += ((size_t)csr->nrows + 1 + nnz) * idx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The CSR's structure on the device, as the GPU planner reads it (no values). */
static aijt_dev_csr DeviceStructure(const Mat_SeqAIJTuned *ctx, const aijt_csr *csr)
{
  const aijt_dev_csr D = {csr->nrows, csr->ncols, csr->rowptr[csr->nrows], ctx->dev_rowptr, ctx->dev_colidx, NULL};
  return D;
}

/* The GPU planner's thread, if it runs, ended and its results dropped: an error came between its start and
   PlanModel, or the matrix goes. */
static PetscErrorCode PlanJobDrop(Mat_SeqAIJTuned *ctx)
{
  aijt_plan  *plan = NULL;
  aijt_int   *order = NULL, *col_pos = NULL;
  cudaError_t  cerr;
  cudaStream_t stream;

  PetscFunctionBegin;
  if (!ctx->plan_job) PetscFunctionReturn(PETSC_SUCCESS);
  (void)aijt_dev_plan_job_end(ctx->plan_job, &plan, &order, &col_pos, &cerr);
  ctx->plan_job         = NULL;
  ctx->plan_job_pattern = 0;
  aijt_plan_destroy(&plan);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (order) PetscCallCUDA(cudaFreeAsync(order, stream));
  if (col_pos) PetscCallCUDA(cudaFreeAsync(col_pos, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The planner started in its thread (kernels/plan_job.cu), then the CSR's values up into ctx->dev_values, which
   the GPU build takes at the first product instead of copying them then (BuildOnDevice): the planner costs what
   it outlasts the copy.  Below AIJT_COPY_IN_MIN bytes, or no thread to be had: PlanModel plans as it did (a copy
   that small goes as one pageable copy, which holds the planner's calls for all of it: memplus's 1 MB, planned
   beside it, kept the caller 0.39 ms against 0.27 alone on an H200, bench/results/2026-11-27-plan-beside-upload).
   The thread is waited for before any error returns. */
static PetscErrorCode PlanBesideValues(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, const aijt_model *model, PetscObjectState state, cudaStream_t stream)
{
  const aijt_dev_csr D     = DeviceStructure(ctx, csr);
  const size_t       bytes = (size_t)csr->rowptr[csr->nrows] * sizeof(double);
  PetscBool          room  = PETSC_TRUE;
  void              *values = NULL;
  cudaError_t        cerr;

  PetscFunctionBegin;
  if (!csr->values || bytes < AIJT_COPY_IN_MIN || !ctx->settings.plan_beside) PetscFunctionReturn(PETSC_SUCCESS); /* no host values: the build reads the device's */
  PetscCallCUDA(aijt_dev_plan_job_begin(csr, &D, &ctx->settings.rules, model, NULL, &ctx->plan_job));
  if (!ctx->plan_job) PetscFunctionReturn(PETSC_SUCCESS);
  cerr = cudaMallocAsync(&values, bytes, stream);
  if (cerr == cudaSuccess) ctx->dev_values = (double *)values;
  if (cerr == cudaSuccess) cerr = MatSeqAIJTunedCUDAHostToDevice(ctx, ctx->dev_values, csr->values, bytes, stream);
  if (cerr != cudaSuccess) PetscCall(PlanJobDrop(ctx));
  PetscCall(MatSeqAIJTunedCUDARoom(cerr, &room));
  if (!room) { /* the planner plans first (PlanModel), and the values go up at the first product */
    if (ctx->dev_values) PetscCallCUDA(cudaFreeAsync(ctx->dev_values, stream));
    ctx->dev_values = NULL;
    PetscCall(PetscInfo(A, "No room on the GPU for the values beside the planner: it plans first\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ctx->dev_values_state = state;
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the model planner runs on the GPU: a model plans, the GPU builds and -mat_aijtuned_gpu_plan is on */
static PetscBool GPUPlans(Mat A, Mat_SeqAIJTuned *ctx, const aijt_model *model)
{
  return (PetscBool)(model && ctx->settings.gpu_plan && ctx->settings.rules.sort && MatSeqAIJTunedCUDABuilds(A, ctx));
}

/* The model planner on the GPU (kernels/plan_gpu.cu) reads the CSR's structure there: PlanStart uploads it
   (logged as AIJTunedUpload, kept for the GPU build, which then uploads only the values) and says whether
   it applies: a model plans, the GPU builds and -mat_aijtuned_gpu_plan is on.  With
   -mat_aijtuned_plan_beside_upload it then starts the planner in its thread and uploads the values of state
   'state' beside it (PlanBesideValues), also as AIJTunedUpload.  PlanModel then plans, or waits for that thread. */
PetscErrorCode MatSeqAIJTunedCUDAPlanStart(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, const aijt_model *model, PetscObjectState state, PetscBool *gpu)
{
  cudaStream_t stream;
  size_t       copied = 0;
  PetscBool    room   = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx));
  *gpu = GPUPlans(A, ctx, model);
  if (!*gpu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDAPoolMark(ctx)); /* before the planner's first allocation */
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscCall(MatSeqAIJTunedCUDAUploadStructure(A, ctx, csr, stream, &copied, &room));
  if (!room) { /* the host plans; the first product tries again (the GPU build reads the structure there) */
    PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx));
    PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
    PetscCall(PetscInfo(A, "No room on the GPU for the CSR's structure: the host plans\n"));
    *gpu = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the base's structure (written on this stream) is read on the planner's side stream: its writes come first */
  if (ctx->structure_borrowed) PetscCallCUDA(cudaStreamSynchronize(stream));
  /* a copy from pageable memory returns with its last pieces still on their way: the device, idle through
     the assembly, is woken meanwhile (beside them, not after), and they are waited for here: they count as
     the upload, not as the planner's first wait (which waits for them anyway) */
  if (copied) aijt_dev_wake();
  if (copied) PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)copied));
  PetscCall(PlanBesideValues(A, ctx, csr, model, state, stream));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Upload, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The GPU planner started in its thread before a COO assembly gives the values (MatSeqAIJTunedPlanBesideCOO), reading
   the base's structure on the device where it is.  Its first pass waits for an event recorded now on this stream (the
   structure's writes come before it), not for the assembly's kernel, launched next: the passes run beside that
   kernel, ahead of its waiting blocks (the side stream's priority, kernels/stage.cu).  *started false where it does
   not apply: the GPU does not plan (GPUPlans), the base's structure cannot be read there (BaseStructure), or the
   values are smaller than AIJT_COPY_IN_MIN bytes, where a thread's start costs about what it would hide (memplus,
   bench/results/2026-11-27-plan-beside-upload); the assembly's end then plans as it did. */
PetscErrorCode MatSeqAIJTunedCUDAPlanBesideCOO(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, const aijt_model *model, PetscBool *started)
{
  const size_t bytes = (size_t)csr->rowptr[csr->nrows] * sizeof(double);
  PetscBool    there;
  cudaStream_t stream;
  cudaEvent_t  after = NULL;
  cudaError_t  cerr;

  PetscFunctionBegin;
  *started = PETSC_FALSE;
  if (!GPUPlans(A, ctx, model) || bytes < AIJT_COPY_IN_MIN) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx));
  PetscCall(BorrowStructure(A, ctx, &there));
  if (!there) PetscFunctionReturn(PETSC_SUCCESS);
  const aijt_dev_csr D = DeviceStructure(ctx, csr);
  PetscCall(MatSeqAIJTunedCUDAPoolMark(ctx));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaEventCreateWithFlags(&after, cudaEventDisableTiming));
  cerr = cudaEventRecord(after, stream);
  if (cerr == cudaSuccess) cerr = aijt_dev_plan_job_begin(csr, &D, &ctx->settings.rules, model, after, &ctx->plan_job);
  if (!ctx->plan_job) (void)cudaEventDestroy(after); /* else the job's */
  PetscCallCUDA(cerr);
  *started = (PetscBool)(ctx->plan_job != NULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The GPU planner's plan (its order left on the device), or where its passes found no room on the GPU, the host's */
PetscErrorCode MatSeqAIJTunedCUDAPlanModel(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, const aijt_model *model, aijt_err *err)
{
  const aijt_dev_csr D = DeviceStructure(ctx, csr);
  cudaStream_t       stream;
  cudaError_t        cerr;
  PetscBool          room = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(MatSeqAIJTunedCUDAFreePlan(ctx));
  if (ctx->plan_job) { /* beside the values' upload or their COO assembly: what it outlasts them is waited for here */
    *err                  = aijt_dev_plan_job_end(ctx->plan_job, &ctx->plan, &ctx->dev_order, &ctx->dev_col_pos, &cerr);
    ctx->plan_job         = NULL;
    ctx->plan_job_pattern = 0;
  } else *err = aijt_dev_plan_model_keep(csr, &D, &ctx->settings.rules, model, stream, &ctx->plan, &ctx->dev_order, &ctx->dev_col_pos, &cerr);
  PetscCall(MatSeqAIJTunedCUDARoom(cerr, &room));
  if (!room) {
    PetscCall(MatSeqAIJTunedCUDAFreePlan(ctx));
    aijt_plan_destroy(&ctx->plan);
    PetscCall(PetscInfo(A, "No room on the GPU for the planner's passes: the host plans\n"));
    *err = aijt_plan_model(csr, &ctx->settings.rules, model, &ctx->plan);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The skeleton of a plan made by the GPU planner, whose order (none for a plan in natural order) and
   column order stay on the device: its sizes here (SELL's slots counted there), its arrays at the upload
   (kernels/skeleton.cu).  *made is false for the plans it does not take (aijt_dev_skeleton_takes: a
   PANEL strip, or a plan of the host rules with its order on the host): the host's skeleton. */
PetscErrorCode MatSeqAIJTunedCUDASkeleton(Mat_SeqAIJTuned *ctx, const aijt_csr *csr, aijt_err *err, PetscBool *made)
{
  const aijt_plan *P = ctx->plan;
  cudaStream_t     stream;
  cudaError_t      cerr;
  PetscBool        room = PETSC_TRUE;

  PetscFunctionBegin;
  *made = (PetscBool)(ctx->dev_rowptr && aijt_dev_skeleton_takes(P));
  if (!*made) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  *err = aijt_dev_skeleton(P, csr, ctx->dev_rowptr, ctx->dev_order, stream, &ctx->layouts, &cerr);
  PetscCall(MatSeqAIJTunedCUDARoom(cerr, &room)); /* none for its work space: the host's skeleton */
  if (!room) {
    aijt_layouts_destroy(&ctx->layouts);
    *err  = AIJT_OK;
    *made = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Host copies of the plan's order and column order for a host consumer (the host layouts, the host
   reference), when the GPU planner left them on the device; they stay there too. */
PetscErrorCode MatSeqAIJTunedCUDAFetchPlan(Mat_SeqAIJTuned *ctx)
{
  cudaStream_t stream;
  cudaError_t  cerr;
  aijt_err     err;

  PetscFunctionBegin;
  if (!ctx->plan || (!ctx->dev_order && !ctx->dev_col_pos)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  err = aijt_dev_plan_fetch(ctx->plan, ctx->dev_order, ctx->dev_col_pos, stream, &cerr);
  PetscCallCUDA(cerr);
  PetscCall(MatAIJTunedCheck(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedCUDAFreePlan(Mat_SeqAIJTuned *ctx)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  if (!ctx->dev_order && !ctx->dev_col_pos) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (ctx->dev_order) PetscCallCUDA(cudaFreeAsync(ctx->dev_order, stream));
  if (ctx->dev_col_pos) PetscCallCUDA(cudaFreeAsync(ctx->dev_col_pos, stream));
  ctx->dev_order = ctx->dev_col_pos = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedCUDAFreeStructure(Mat_SeqAIJTuned *ctx)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PlanJobDrop(ctx)); /* it reads the structure */
  if (!ctx->dev_rowptr && !ctx->dev_colidx && !ctx->dev_values) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (ctx->dev_rowptr && !ctx->structure_borrowed) PetscCallCUDA(cudaFreeAsync(ctx->dev_rowptr, stream));
  if (ctx->dev_colidx && !ctx->structure_borrowed) PetscCallCUDA(cudaFreeAsync(ctx->dev_colidx, stream));
  if (ctx->dev_values) PetscCallCUDA(cudaFreeAsync(ctx->dev_values, stream));
  ctx->dev_rowptr = ctx->dev_colidx = NULL;
  ctx->structure_borrowed = PETSC_FALSE;
  ctx->dev_values = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
