/*
   The GPU planner beside the first products.

   Where a new pattern's values are on the GPU already (a matrix converted in place from an aijcusparse one, a DM's
   interpolation taken over from aijcusparse: aijtunedinterp.c), no upload or COO assembly runs that the planner could
   run beside (aijtunedcuda.c).  The first product then waited for all of the planning: 13.7 of its products on
   actor_movie_incidence, 9.0 on circuit, on an H100 (bench/results/2026-11-27-count-sort).  Here that product starts
   the planner in its thread (kernels/plan_job.cu) and multiplies with the base's kernel (cuSPARSE's, aijcusparse's own
   product) instead; so do the next ones, until the thread says it is done (a flag read: no wait).  The next product
   then takes the plan (PlanNow in aijtuned.c, as after a COO assembly) and runs the strips.  The program waits for
   nothing; until then its products run at aijcusparse's speed.

   The thread reads the matrix's structure, the host's CSR and the base's device copy, until it is done.  Whatever may
   change or free them waits for it first (MatSeqAIJTunedBesideProductsEnd):
   - any aijtuned operation that needs the plan (UpdatePlan), the assembly (before the base's, which may compress the
     structure), COO preallocation, binding to the CPU, MatSetOption, destruction and leaving aijtuned;
   - and, while the thread runs, the three that are not aijtuned's: MatSetValues (a new nonzero reallocates the arrays),
     MatEliminateZeros (rewrites them in place) and MatSeqAIJSetPreallocation (frees them; MatXAIJSetPreallocation and
     the CSR form go through it).  Their functions are replaced until the thread is waited for, then given back.
   An MPI matrix's blocks do not plan so (mpiaijtuned.c): MPIAIJ's MatSetValues writes their arrays itself.
*/
#include "aijtunedcuda.h"

#define PREALLOCATION "MatSeqAIJSetPreallocation_C"

typedef PetscErrorCode (*PreallocationFn)(Mat, PetscInt, const PetscInt[]);

static PetscErrorCode SetValuesAfterPlanner(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], const PetscScalar v[], InsertMode mode)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(MatSeqAIJTunedBesideProductsEnd(A, ctx)); /* gives MatSetValues back */
  PetscCheck(A->ops->setvalues != SetValuesAfterPlanner, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: MatSetValues was not given back");
  PetscCall((*A->ops->setvalues)(A, m, im, n, in, v, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EliminateZerosAfterPlanner(Mat A, PetscBool keep)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(MatSeqAIJTunedBesideProductsEnd(A, ctx));
  PetscCheck(A->ops->eliminatezeros != EliminateZerosAfterPlanner, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: MatEliminateZeros was not given back");
  PetscCall((*A->ops->eliminatezeros)(A, keep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PreallocationAfterPlanner(Mat A, PetscInt nz, const PetscInt nnz[])
{
  Mat_SeqAIJTuned *ctx;
  PreallocationFn  f;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(MatSeqAIJTunedBesideProductsEnd(A, ctx));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, PREALLOCATION, &f));
  if (f == PreallocationAfterPlanner) { /* hidden when it was given back (a MatHeaderMerge() meanwhile): given back now */
    f = ctx->beside.preallocation;
    PetscCall(PetscObjectComposeFunction((PetscObject)A, PREALLOCATION, f));
  }
  PetscCheck(f, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "aijtuned: the base has no MatSeqAIJSetPreallocation");
  PetscCall((*f)(A, nz, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The three functions replaced while the thread runs (their own kept in ctx) */
static PetscErrorCode GuardsOn(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  ctx->beside.setvalues      = A->ops->setvalues;
  ctx->beside.eliminatezeros = A->ops->eliminatezeros;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, PREALLOCATION, &ctx->beside.preallocation));
  if (ctx->beside.setvalues) A->ops->setvalues = SetValuesAfterPlanner;
  if (ctx->beside.eliminatezeros) A->ops->eliminatezeros = EliminateZerosAfterPlanner;
  if (ctx->beside.preallocation) PetscCall(PetscObjectComposeFunction((PetscObject)A, PREALLOCATION, PreallocationAfterPlanner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ... given back, where still in place (MatSetOption's MAT_SORTED_FULL replaces MatSetValues: it waits first) */
static PetscErrorCode GuardsOff(Mat A, Mat_SeqAIJTuned *ctx)
{
  PreallocationFn now;

  PetscFunctionBegin;
  if (A->ops->setvalues == SetValuesAfterPlanner) A->ops->setvalues = ctx->beside.setvalues;
  if (A->ops->eliminatezeros == EliminateZerosAfterPlanner) A->ops->eliminatezeros = ctx->beside.eliminatezeros;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, PREALLOCATION, &now));
  if (now == PreallocationAfterPlanner) PetscCall(PetscObjectComposeFunction((PetscObject)A, PREALLOCATION, ctx->beside.preallocation));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether this product of A (y = A x, or y = A x + z) starts the planner beside it: A has no plan for its pattern,
   its values are on the GPU (the GPU builds from them), nothing started a planner already, the base multiplies on the
   GPU, the vectors are CUDA ones, and -mat_aijtuned_plan_beside_products and -mat_aijtuned_plan_beside_upload are on */
static PetscErrorCode Applies(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *applies)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedSettingsRead(A, &ctx->settings));
  *applies = (PetscBool)(ctx->settings.plan_beside && ctx->settings.plan_beside_products && !ctx->plan_job && !ctx->base_host_kernel && MatSeqAIJTunedCUDABuildsFromDeviceValues(A, ctx));
  if (*applies) PetscCall(MatSeqAIJTunedCUDAUsable(A, ctx, x, z, y, applies));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedMultBesidePlanner(Mat A, Mat_SeqAIJTuned *ctx, Vec x, Vec z, Vec y, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (MatSeqAIJTunedPlanCurrent(A, ctx)) PetscFunctionReturn(PETSC_SUCCESS); /* the usual case */
  if (!ctx->beside.running) {
    PetscBool applies, started;

    PetscCall(Applies(A, ctx, x, z, y, &applies));
    if (!applies) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(MatSeqAIJTunedPlanInThread(A, ctx, &started));
    if (!started) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(GuardsOn(A, ctx));
    ctx->beside.running  = PETSC_TRUE;
    ctx->beside.products = 0;
    PetscCall(PetscInfo(A, "Planning beside the first products: the GPU planner started in its thread, the base's kernel multiplies until it is done\n"));
  } else if (!ctx->plan_job || !MatSeqAIJTunedPlanBegun(A, ctx) || aijt_dev_plan_job_done(ctx->plan_job)) PetscFunctionReturn(PETSC_SUCCESS); /* UpdatePlan takes the plan, or plans */
  PetscCall(MatSeqAIJTunedBaseMultOnDevice(A, x, z, y, done));
  if (*done) ctx->beside.products++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedBesideProductsEnd(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  if (!ctx->beside.running) PetscFunctionReturn(PETSC_SUCCESS);
  if (ctx->plan_job) aijt_dev_plan_job_wait(ctx->plan_job); /* its results stay for PlanNow (or PlanJobDrop) */
  PetscCall(GuardsOff(A, ctx));
  ctx->beside.running = PETSC_FALSE;
  PetscCall(PetscInfo(A, "The GPU planner beside the products ended after %" PetscInt_FMT " products on the base's kernel\n", ctx->beside.products));
  PetscFunctionReturn(PETSC_SUCCESS);
}
