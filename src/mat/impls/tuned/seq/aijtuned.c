/*
   MATSEQAIJTUNED: SeqAIJ whose MatMult can run a plan of row strips.

   The type is the base type (SeqAIJCUSPARSE when PETSc has CUDA, so that every operation aijtuned
   does not change keeps running on the GPU; SeqAIJ otherwise) converted in place: the base keeps its data and its operations,
   aijtuned keeps its state in a composed container and replaces only the operations it changes
   (MatMult, MatMultAdd, and the lifecycle ones that keep the plan in step with the matrix).
   With host vectors the product runs on the host: the base's kernel when it takes host vectors (SeqAIJ),
   otherwise (SeqAIJCUSPARSE's kernel reads device arrays only) the strips' host reference.
   The host CSR is the truth; the plan and layouts follow it:
     - the nonzero state changes (new pattern)  -> plan again;
     - the object state changes (new values)    -> refill the layouts' values, keep the plan.
   With CUDA the layouts are a skeleton (aijt_layouts_skeleton) whose slots the GPU builds at the first
   product (seq/cuda/), and a product on host vectors builds the host's slots when it first needs them.
*/
#include "../aijtunedimpl.h"

typedef char aijt_int_matches_PetscInt[sizeof(aijt_int) == sizeof(PetscInt) ? 1 : -1];

static const char        CONTEXT_NAME[] = MATSEQAIJTUNED_STATE;
/* to the base, from seqaij, and from seqaijcusparse: PETSc finds a converter to a type under the names composed on
   a matrix of that type, and without the last MatConvert from aijcusparse fell back to MatConvert_Basic, which
   copied every entry on the host into a new matrix */
static const char *const CONVERTERS[3] = {"MatConvert_seqaijtuned_seqaij_C", "MatConvert_seqaij_seqaijtuned_C", "MatConvert_seqaijcusparse_seqaijtuned_C"};

static PetscErrorCode MatMult_SeqAIJTuned(Mat, Vec, Vec);
static PetscErrorCode MatMultAdd_SeqAIJTuned(Mat, Vec, Vec, Vec);
static PetscErrorCode MatAssemblyEnd_SeqAIJTuned(Mat, MatAssemblyType);
static PetscErrorCode MatDestroy_SeqAIJTuned(Mat);
static PetscErrorCode MatDuplicate_SeqAIJTuned(Mat, MatDuplicateOption, Mat *);
static PetscErrorCode MatView_SeqAIJTuned(Mat, PetscViewer);
static PetscErrorCode MatSetFromOptions_SeqAIJTuned(Mat, AIJTunedOptionItems);
static PetscErrorCode MatConvert_SeqAIJTuned_Any(Mat, MatType, MatReuse, Mat *);
static PetscErrorCode MatBindToCPU_SeqAIJTuned(Mat, PetscBool);
static PetscErrorCode MatLUFactor_SeqAIJTuned(Mat, IS, IS, const MatFactorInfo *);
static PetscErrorCode MatILUFactor_SeqAIJTuned(Mat, IS, IS, const MatFactorInfo *);

PetscErrorCode MatSeqAIJTunedGetContext(Mat A, Mat_SeqAIJTuned **ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedContextGet(A, CONTEXT_NAME, MATSEQAIJTUNED, (void **)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Remember the base's current operations and put aijtuned's in their place.  Called after every base
   call that may set operations (SeqAIJ's assembly switches MatMult to its i-node kernel, say). */
static PetscErrorCode HookOps(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
#define HOOK(op, fn) MatAIJTunedHookOp(A, &ctx->base, op, fn, 0)
  HOOK(mult, MatMult_SeqAIJTuned);
  HOOK(multadd, MatMultAdd_SeqAIJTuned);
  HOOK(assemblyend, MatAssemblyEnd_SeqAIJTuned);
  HOOK(duplicate, MatDuplicate_SeqAIJTuned);
  HOOK(view, MatView_SeqAIJTuned);
  HOOK(setfromoptions, MatSetFromOptions_SeqAIJTuned);
  /* conversions PETSc finds no converter for by this type's name (to MATIS, say) go through the base's own */
  HOOK(convert, MatConvert_SeqAIJTuned_Any);
  HOOK(bindtocpu, MatBindToCPU_SeqAIJTuned);
  HOOK(lufactor, MatLUFactor_SeqAIJTuned);
  HOOK(ilufactor, MatILUFactor_SeqAIJTuned);
  /* products are the base's, under its name (aijtunedproduct.c): on a GPU base, cuSPARSE's */
  HOOK(productsetfromoptions, MatAIJTunedProductSetFromOptions);
#undef HOOK
  PetscCall(MatSeqAIJTunedHookBaseOps(A, ctx));
  MatAIJTunedHookDestroy(A, &ctx->base, MatDestroy_SeqAIJTuned);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DropPlan(Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAFree(ctx));
  PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx));
  PetscCall(MatSeqAIJTunedCUDAFreePlan(ctx)); /* after the device strips that point into it */
  PetscCall(MatSeqAIJTunedCUDAUnpin(NULL, ctx)); /* a new pattern may come in a new array; MatDestroy frees this one */
#endif
  aijt_layouts_destroy(&ctx->layouts);
  aijt_plan_destroy(&ctx->plan);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base type resets the multiplication operations when it is bound to or unbound from the CPU */
static PetscErrorCode MatBindToCPU_SeqAIJTuned(Mat A, PetscBool flg)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  if (ctx->base.ops.bindtocpu) PetscCall(ctx->base.ops.bindtocpu(A, flg));
  PetscCall(HookOps(A, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the GPU builds the slots of a new plan's layouts (the host then makes only their skeleton); with
   from_device_values, whether it also reads the values from the base's device copy, current there. */
static PetscBool GPUBuilds(Mat A, Mat_SeqAIJTuned *ctx, PetscBool from_device_values)
{
#if defined(PETSC_HAVE_CUDA)
  return from_device_values ? MatSeqAIJTunedCUDABuildsFromDeviceValues(A, ctx) : MatSeqAIJTunedCUDABuilds(A, ctx);
#else
  return PETSC_FALSE;
#endif
}

/* The host CSR (aijt_int is PetscInt, checked above), with its values if asked (else NULL), until RestoreCSR. */
static PetscErrorCode GetCSR(Mat A, PetscBool values, aijt_csr *csr)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *aa = NULL;
  PetscInt           n;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the CSR structure of the matrix");
  if (values) PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(PetscMemzero(csr, sizeof(*csr)));
  csr->nrows  = (aijt_int)n;
  csr->ncols  = (aijt_int)A->cmap->n;
  csr->rowptr = (const aijt_int *)ia;
  csr->colidx = (const aijt_int *)ja;
  csr->values = (const double *)aa;
  csr->bs     = A->rmap->bs == A->cmap->bs ? (int)PetscMin(A->rmap->bs, AIJT_BCSR_MAX_BS + 1) : 1; /* BCSR's blocks are square */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host CSR with its values, copied down first where the device's are newer. */
PetscErrorCode MatSeqAIJTunedGetCSR(Mat A, aijt_csr *csr)
{
  PetscFunctionBegin;
  PetscCall(GetCSR(A, PETSC_TRUE, csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host CSR's structure alone (values NULL): what the planners, the skeleton and the tuner's fingerprints
   read.  Values that live on the device stay there. */
PetscErrorCode MatSeqAIJTunedGetStructure(Mat A, aijt_csr *csr)
{
  PetscFunctionBegin;
  PetscCall(GetCSR(A, PETSC_FALSE, csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedRestoreCSR(Mat A, aijt_csr *csr)
{
  const PetscInt    *ia = (const PetscInt *)csr->rowptr, *ja = (const PetscInt *)csr->colidx;
  const PetscScalar *aa = (const PetscScalar *)csr->values;
  PetscInt           n;
  PetscBool          done;

  PetscFunctionBegin;
  if (aa) PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(PetscMemzero(csr, sizeof(*csr)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every slot of the plan's layouts on the host, logged as AIJTunedBuild. */
static PetscErrorCode BuildHostSlots(Mat A, Mat_SeqAIJTuned *ctx, const aijt_csr *csr, aijt_layouts **L, aijt_err *err)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatSeqAIJTunedCUDAFetchPlan(ctx)); /* the order the GPU planner left there */
#endif
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Build, A, 0, 0, 0));
  *err = aijt_layouts_build(ctx->plan, csr, L);
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Build, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host layouts' slots with the matrix's values, for their one reader, the host reference product: a
   skeleton's slots are built now (the first product on host vectors), filled ones refreshed if their values
   are older.  A new set of values leaves them until then: a product on the base's kernel or on the GPU never
   reads them (the GPU refills its own copies, from the CSR values), and refreshing them at each assembly cost
   a pass over every slot on the host, 30 ms a Newton step on a 14M-entry PANEL plan
   (bench/results/2026-11-26-new-values). */
static PetscErrorCode HostSlotsCurrent(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscFunctionBegin;
  if (!ctx->layouts->filled) {
    aijt_csr      csr;
    aijt_layouts *L = NULL;
    aijt_err      err;

    PetscCall(MatSeqAIJTunedGetCSR(A, &csr));
    PetscCall(BuildHostSlots(A, ctx, &csr, &L, &err));
    PetscCall(MatSeqAIJTunedRestoreCSR(A, &csr));
    PetscCall(MatAIJTunedCheck(err));
    aijt_layouts_destroy(&ctx->layouts);
    ctx->layouts = L;
  } else if (ctx->host_state != ctx->state) {
    const PetscScalar *aa;

    PetscCall(PetscLogEventBegin(MAT_AIJTuned_Refresh, A, 0, 0, 0));
    PetscCall(MatSeqAIJGetArrayRead(A, &aa));
    aijt_layouts_refresh(ctx->layouts, (const double *)aa);
    PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    PetscCall(PetscLogEventEnd(MAT_AIJTuned_Refresh, A, 0, 0, 0));
  }
  ctx->host_state = ctx->state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the GPU planner's thread was started before this COO assembly's values for A's pattern and settings
   (MatSeqAIJTunedPlanBesideCOO): PlanNow then takes its plan */
static PetscBool PlanBegunBesideCOO(Mat A, Mat_SeqAIJTuned *ctx)
{
  return (PetscBool)(ctx->plan_job && ctx->plan_job_pattern == A->nonzerostate + 1 && MatAIJTunedSettingsSamePlan(&ctx->plan_job_settings, &ctx->settings));
}

/* Plan (or refresh values) for the matrix as it is now; 'state' is the object state the result matches. */
static PetscErrorCode PlanNow(Mat A, Mat_SeqAIJTuned *ctx, PetscObjectState state)
{
  aijt_csr  csr;
  PetscBool begun;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedSettingsRead(A, &ctx->settings));
  if (MatSeqAIJTunedPlanCurrent(A, ctx)) {
    ctx->state = state; /* same pattern, new values: their readers refresh their slots (HostSlotsCurrent, the upload) */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  begun = PlanBegunBesideCOO(A, ctx);
  if (!begun) PetscCall(DropPlan(ctx)); /* and a thread begun for another pattern; one begun for this one dropped the old plan */
  ctx->tune_extra_ms = 0.0; /* the new plan's tuning starts at its first GPU product */
  ctx->tuning        = PETSC_FALSE;
  /* the GPU builds the slots from the base's device values where they are current: none go down to the host for
     the planners, which read the structure alone (a matrix assembled on the GPU, through COO, say) */
  if (GPUBuilds(A, ctx, PETSC_TRUE)) {
    PetscCall(PetscInfo(A, "Planning from the structure alone: the GPU builds the slots from the values on the device\n"));
    PetscCall(MatSeqAIJTunedGetStructure(A, &csr));
  } else PetscCall(MatSeqAIJTunedGetCSR(A, &csr));
  {
    const aijt_model *model;
    aijt_err          err;
    PetscBool         skeleton;
    PetscLogDouble    t0, t1;

    PetscCall(MatAIJTunedModelGet(&ctx->settings, &model));
#if defined(PETSC_HAVE_CUDA)
    PetscBool gpu_plan = begun; /* its structure is the base's, read where it is */
    if (!begun) PetscCall(MatSeqAIJTunedCUDAPlanStart(A, ctx, &csr, model, state, &gpu_plan)); /* the structure up for the GPU planner (and the values beside it) */
#endif
    /* AIJTunedBuild logs where the slots are built: here, or on the GPU at the first product (the
       skeleton, O(rows), counts as planning) */
    PetscCall(PetscLogEventBegin(MAT_AIJTuned_Plan, A, 0, 0, 0));
    PetscCall(PetscTime(&t0));
#if defined(PETSC_HAVE_CUDA)
    if (gpu_plan) PetscCall(MatSeqAIJTunedCUDAPlanModel(A, ctx, &csr, model, &err));
    else
#endif
      err = model ? aijt_plan_model(&csr, &ctx->settings.rules, model, &ctx->plan) : aijt_plan_rules(&csr, &ctx->settings.rules, &ctx->plan);
    skeleton = (PetscBool)(!err && GPUBuilds(A, ctx, PETSC_FALSE));
    PetscBool made = PETSC_FALSE; /* the skeleton made on the device, the order left there */
#if defined(PETSC_HAVE_CUDA)
    if (skeleton) PetscCall(MatSeqAIJTunedCUDASkeleton(ctx, &csr, &err, &made));
    if (skeleton && !made) PetscCall(MatSeqAIJTunedCUDAFetchPlan(ctx)); /* what the host's skeleton reads */
#endif
    if (skeleton && !made) err = aijt_layouts_skeleton(ctx->plan, &csr, &ctx->layouts);
    PetscCall(PetscTime(&t1));
    PetscCall(PetscLogEventEnd(MAT_AIJTuned_Plan, A, 0, 0, 0));
    ctx->plan_ms = 1e3 * (t1 - t0); /* the event's time, which PETSc does not print with GPU timing on */
    if (!err && !skeleton) PetscCall(BuildHostSlots(A, ctx, &csr, &ctx->layouts, &err));
    if (err && ctx->plan) PetscCall(DropPlan(ctx));
#if defined(PETSC_HAVE_CUDA)
    if (!skeleton) PetscCall(MatSeqAIJTunedCUDAFreeStructure(ctx)); /* no GPU build reads it */
#endif
    PetscCall(MatAIJTunedCheck(err));
    ctx->nonzero_rows = ctx->plan->features.nrows - ctx->plan->features.empty_rows; /* the planner counted them: no pass over ia again */
  }
  PetscCall(MatSeqAIJTunedRestoreCSR(A, &csr));
  ctx->planned       = ctx->settings;
  ctx->plans_made++;
  ctx->nonzerostate  = A->nonzerostate;
  ctx->state         = state;
  ctx->host_state    = state; /* host-built slots hold these values; a skeleton's none yet */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before a COO assembly gives A's values (aijtunedcoo.c), where its end will plan a new pattern from the structure alone
   (values on the GPU, as MatSetPreallocationCOO leaves them): the GPU planner starts now in its thread, beside the
   assembly's kernel and the rest of MatSetValuesCOO, instead of after that kernel; PlanNow takes its plan
   (PlanBegunBesideCOO).  Between the two the structure does not change: MatSetValuesCOO gives values only, and a
   pattern set by MatSetPreallocationCOO takes no new entry (PETSc makes one an error).  The planner reads the host's
   row offsets while PETSc's first assembly after that preallocation (MatAssemblyEnd_SeqAIJ) writes each of them
   again with the value it holds; those aligned words never change.  What the planner runs beside is the base's COO
   kernel and that assembly's host work, not timed apart (bench/results/2026-11-27-plan-beside-coo). */
PetscErrorCode MatSeqAIJTunedPlanBesideCOO(Mat A)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(MatAIJTunedSettingsRead(A, &ctx->settings));
  if (!ctx->settings.plan_beside || ctx->plan_job || MatSeqAIJTunedPlanCurrent(A, ctx) || !GPUBuilds(A, ctx, PETSC_TRUE)) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_HAVE_CUDA)
  {
    const aijt_model *model;
    aijt_csr          csr;
    PetscBool         started;

    PetscCall(DropPlan(ctx)); /* the old pattern's */
    PetscCall(MatAIJTunedModelGet(&ctx->settings, &model));
    PetscCall(MatSeqAIJTunedGetStructure(A, &csr));
    PetscCall(MatSeqAIJTunedCUDAPlanBesideCOO(A, ctx, &csr, model, &started));
    PetscCall(MatSeqAIJTunedRestoreCSR(A, &csr));
    if (started) {
      ctx->plan_job_pattern  = A->nonzerostate + 1;
      ctx->plan_job_settings = ctx->settings;
      PetscCall(PetscInfo(A, "Planning beside the COO assembly of the values: the GPU planner started in its thread\n"));
    }
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bring the plan and layouts in step with the assembled matrix: O(1) when nothing changed (ctx: A's context,
   which a product has looked up already). */
static PetscErrorCode UpdatePlan(Mat A, Mat_SeqAIJTuned *ctx)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for unassembled matrix");
  if (ctx->base.merged) { /* other data under the same state numbers: plan anew */
    PetscCall(DropPlan(ctx));
    ctx->base.merged = PETSC_FALSE;
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (ctx->state == state && MatSeqAIJTunedPlanCurrent(A, ctx)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PlanNow(A, ctx, state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* UpdatePlan, its context looked up */
PetscErrorCode MatSeqAIJTunedUpdate(Mat A)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(UpdatePlan(A, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_SeqAIJTuned(Mat A, MatAssemblyType mode)
{
  Mat_SeqAIJTuned *ctx;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(ctx->base.ops.assemblyend(A, mode));
  PetscCall(HookOps(A, ctx));
  if (mode == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJTunedWatchDM(A));
#if defined(PETSC_HAVE_DEVICE)
  /* Host and device copies marked equal at an assembly: the host's are the values assembled.  PETSc's MPIAIJ
     MatCreateSubMatrices (through PCGASM's MatCreateSubMatricesMPI too), reused, writes a block's host array
     directly and assembles it, its device copy still marked current: cuSPARSE's ILU then factored the old values
     (SNES ex5's GASM test, bench/results/2026-11-26-subblock-values).  A device copy marked current alone (values
     changed on the GPU) stays so. */
  if (A->offloadmask == PETSC_OFFLOAD_BOTH) PetscCall(MatAIJTunedHostValuesCurrent(A));
#endif
  /* MatAssemblyEnd() raises the object state once more after this returns: the plan is for that state */
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  PetscCall(PlanNow(A, ctx, state + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MatAIJTunedVecAccess MatAIJTunedHostArrays = {VecGetArrayRead, VecGetArray, VecGetArrayWrite, VecRestoreArrayRead, VecRestoreArray, VecRestoreArrayWrite};

PetscErrorCode MatAIJTunedGetVecArrays(const MatAIJTunedVecAccess *on, Vec x, Vec z, Vec y, const PetscScalar **xa, const PetscScalar **za, PetscScalar **ya)
{
  PetscFunctionBegin;
  *za = NULL;
  PetscCall(on->get_read(x, xa));
  if (!z) PetscCall(on->get_write(y, ya));
  else if (z == y) {
    PetscCall(on->get(y, ya));
    *za = *ya;
  } else {
    PetscCall(on->get_read(z, za));
    PetscCall(on->get_write(y, ya));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedRestoreVecArrays(const MatAIJTunedVecAccess *on, Vec x, Vec z, Vec y, const PetscScalar **xa, const PetscScalar **za, PetscScalar **ya)
{
  PetscFunctionBegin;
  if (!z) PetscCall(on->restore_write(y, ya));
  else if (z == y) PetscCall(on->restore(y, ya));
  else {
    PetscCall(on->restore_read(z, za));
    PetscCall(on->restore_write(y, ya));
  }
  PetscCall(on->restore_read(x, xa));
  *za = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether x, z (unless NULL) and y are all CUDA vectors: a kernel on the device can read and write them */
PetscErrorCode MatAIJTunedVecsAreCUDA(Vec x, Vec z, Vec y, PetscBool *cuda)
{
  Vec v[3] = {x, z, y};

  PetscFunctionBegin;
  *cuda = PETSC_TRUE;
  for (int i = 0; i < 3 && *cuda; i++)
    if (v[i]) PetscCall(PetscObjectTypeCompareAny((PetscObject)v[i], cuda, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z: on the device when the vectors live there, else on the host */
static PetscErrorCode Multiply(Mat A, Vec x, Vec z, Vec y)
{
  Mat_SeqAIJTuned   *ctx;
  const PetscScalar *xa, *za;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(UpdatePlan(A, ctx));
#if defined(PETSC_HAVE_CUDA)
  {
    PetscBool gpu, room = PETSC_TRUE;
    PetscCall(MatSeqAIJTunedCUDAUsable(A, ctx, x, z, y, &gpu));
    if (gpu) PetscCall(MatSeqAIJTunedMultCUDA(A, ctx, x, z, y, &room));
    if (gpu && room) PetscFunctionReturn(PETSC_SUCCESS);
    if (!ctx->settings.gpu_strips || !room) { /* the strips off on the GPU, or no room there for them: the base's kernel there, for device vectors */
      PetscCall(MatSeqAIJTunedBaseMultOnDevice(A, x, z, y, &gpu));
      if (gpu) PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
#endif
  if (!ctx->settings.host_strips && ctx->base_host_kernel) {
    if (z) PetscCall(ctx->base.ops.multadd(A, x, z, y));
    else PetscCall(ctx->base.ops.mult(A, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HostSlotsCurrent(A, ctx));
  PetscCall(MatAIJTunedGetVecArrays(&MatAIJTunedHostArrays, x, z, y, &xa, &za, &ya));
  aijt_ref_spmv(ctx->layouts, (const double *)xa, (const double *)za, (double *)ya);
  PetscCall(MatAIJTunedRestoreVecArrays(&MatAIJTunedHostArrays, x, z, y, &xa, &za, &ya));
  PetscCall(PetscLogFlops(2.0 * (PetscLogDouble)ctx->plan->nnz - (z ? 0.0 : (PetscLogDouble)ctx->nonzero_rows)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SeqAIJTuned(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(Multiply(A, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqAIJTuned(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(Multiply(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_SeqAIJTuned(Mat A, AIJTunedOptionItems PetscOptionsObject)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  if (ctx->base.ops.setfromoptions) PetscCall(ctx->base.ops.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatAIJTunedSettingsReadNow(A, &ctx->settings));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedSetSettings(Mat A, const MatAIJTunedSettings *settings)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  ctx->settings = *settings; /* a changed rule set re-plans at the next update */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqAIJTuned(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJTuned  *ctx;
  PetscBool         iascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  if (ctx->base.ops.view) PetscCall(ctx->base.ops.view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) PetscCall(MatSeqAIJTunedViewPlan(A, viewer, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqAIJTuned(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SeqAIJTuned *ctx, *bctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  /* creates a seqaijtuned by type name and copies the data; a device base then converts the copy in place
     to itself (MatDuplicate_SeqAIJCUSPARSE), so take the operations back and restore the name */
  PetscCall(ctx->base.ops.duplicate(A, op, B));
  PetscCall(MatSeqAIJTunedGetContext(*B, &bctx));
  PetscCall(HookOps(*B, bctx));
  PetscCall(PetscObjectChangeTypeName((PetscObject)*B, MATSEQAIJTUNED));
  bctx->settings = ctx->settings;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The state's end, when its container goes (aijtunedcontext.c) */
static PetscErrorCode FreeContext(void *p)
{
  Mat_SeqAIJTuned *ctx = (Mat_SeqAIJTuned *)p;
#if defined(PETSC_HAVE_CUDA)
  const PetscBool on_gpu = (PetscBool)(ctx->dev != NULL);

  PetscFunctionBegin;
  ctx->pool_marked = PETSC_FALSE; /* what the device copies free now is given back */
  if (on_gpu) PetscCall(MatSeqAIJTunedCUDAPoolMark(ctx));
  PetscCall(DropPlan(ctx));
  if (on_gpu) PetscCall(MatSeqAIJTunedCUDAPoolGiveBack(NULL, ctx));
#else
  PetscFunctionBegin;
  PetscCall(DropPlan(ctx));
#endif
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Undo the in-place conversion: the base's operations, type name and composed functions come back, the
   state goes. */
static PetscErrorCode Unconvert(Mat A)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(MatAIJTunedBaseRestore(A, CONTEXT_NAME, CONVERTERS, &ctx->base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An in-place factorization makes the matrix a factor, with nothing left to multiply: it goes back to its base
   first.  (SeqAIJ's merges the factor into the matrix, MatHeaderMerge, which in PETSc 3.18 drops the
   matrix's composed objects and keeps its operations: aijtuned's, without their state, failed at MatDestroy.) */
static PetscErrorCode MatLUFactor_SeqAIJTuned(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(Unconvert(A));
  PetscUseTypeMethod(A, lufactor, row, col, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatILUFactor_SeqAIJTuned(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(Unconvert(A));
  PetscUseTypeMethod(A, ilufactor, row, col, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SeqAIJTuned(Mat A)
{
  PetscBool merging;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedDestroyMerged(A, &merging)); /* the base's data only; the plan goes at the next update */
  if (merging) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Unconvert(A));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* To any type (to seqaij by name, the rest as the convert operation): the matrix goes back to its base, and the base
   converts the rest of the way with its own converters. */
static PetscErrorCode MatConvert_SeqAIJTuned_Any(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedConvertTarget(A, reuse, newmat, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Unconvert(*newmat));
  PetscCall(MatConvert(*newmat, type, MAT_INPLACE_MATRIX, newmat)); /* seqaijcusparse to seqaij, or to MATIS ... */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatConvert_SeqAIJ_SeqAIJTuned(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat              B;
  Mat_SeqAIJTuned *ctx;
  PetscBool        done;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedCheckScalar(A));
  PetscCall(MatAIJTunedConvertTarget(A, reuse, newmat, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  B = *newmat;
  PetscCall(MatAIJTunedGPUBase(&B));
#if defined(PETSC_HAVE_CUDA)
  {
    PetscBool gpu_base;
    PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJCUSPARSE, &gpu_base));
    if (gpu_base) PetscCall(MatAIJTunedCUDACheckKernels()); /* before any change to B: a clear error where the kernels cannot run */
  }
#endif
  PetscCall(MatAIJTunedContextFind(B, CONTEXT_NAME, (void **)&ctx));
  if (ctx) { /* already aijtuned underneath (a base converted it in place): hook again, never wrap twice */
    PetscCall(HookOps(B, ctx));
    PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATSEQAIJTUNED));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscNew(&ctx));
  MatAIJTunedSettingsDefault(&ctx->settings);
  PetscCall(MatAIJTunedBaseRecord(B, &ctx->base));
  PetscCall(PetscStrcmp(ctx->base.type, MATSEQAIJ, &ctx->base_host_kernel));
  PetscCall(MatAIJTunedContextAttach(B, CONTEXT_NAME, &ctx->base, ctx, FreeContext));
  PetscCall(HookOps(B, ctx));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[0], MatConvert_SeqAIJTuned_Any));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[1], MatConvert_SeqAIJ_SeqAIJTuned));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[2], MatConvert_SeqAIJ_SeqAIJTuned));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATSEQAIJTUNED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_SeqAIJTuned(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedCheckNotMatrixFree(B));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatCreate_SeqAIJCUSPARSE(B));
#else
  PetscCall(MatCreate_SeqAIJ(B));
#endif
  PetscCall(MatConvert_SeqAIJ_SeqAIJTuned(B, MATSEQAIJTUNED, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
