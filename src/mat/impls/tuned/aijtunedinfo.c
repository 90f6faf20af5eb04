/* What a program can ask about the plans of an aijtuned matrix. */
#include "aijtunedimpl.h"

/* The contexts of this rank's blocks (one for seqaijtuned; the diagonal and off-diagonal blocks for
   mpiaijtuned, the second NULL where there is none), their plans current. */
static PetscErrorCode LocalBlocks(Mat A, Mat_SeqAIJTuned *ctx[2])
{
  Mat             blocks[2] = {A, NULL};
  PetscBool       mpi;
  const PetscInt *garray;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJTUNED, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++) {
    ctx[b] = NULL;
    if (!blocks[b]) continue;
    PetscCall(MatSeqAIJTunedUpdate(blocks[b]));
    PetscCall(MatSeqAIJTunedGetContext(blocks[b], &ctx[b]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatAIJTunedGetPlanStats - Strips in this rank's current plans and the number of plans made so far

  Not Collective

  Input Parameter:
. A - a `MATSEQAIJTUNED` or `MATMPIAIJTUNED` matrix (for the latter, its two local blocks are summed)

  Output Parameters:
+ nstrips - strips of the current plans (NULL if not wanted)
- nplans  - plans made since the matrix was created (NULL if not wanted)

  Level: intermediate

.seealso: `MATAIJTUNED`
@*/
PetscErrorCode MatAIJTunedGetPlanStats(Mat A, PetscInt *nstrips, PetscInt *nplans)
{
  Mat_SeqAIJTuned *ctx[2];
  PetscInt         s = 0, p = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(LocalBlocks(A, ctx));
  for (int b = 0; b < 2; b++) {
    if (!ctx[b]) continue;
    s += ctx[b]->plan->nstrips;
    p += ctx[b]->plans_made;
  }
  if (nstrips) *nstrips = s;
  if (nplans) *nplans = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatAIJTunedGetSetupTimes - What this rank's last planning and run-time tuning cost

  Not Collective

  Input Parameter:
. A - a `MATSEQAIJTUNED` or `MATMPIAIJTUNED` matrix (for the latter, its two local blocks are summed)

  Output Parameters:
+ plan_ms - wall time of the last planning of the current pattern, in ms: the planner and the layouts
            (or, when the GPU builds them, their skeleton), the `AIJTunedPlan` event (NULL if not wanted).
            With the GPU planner beside the values' upload (`-mat_aijtuned_plan_beside_upload`), the planner
            counts only for what it outlasted that copy
. tune_ms - GPU time that run-time tuning took beyond as many products with the parameters it kept, in
            ms, from its own CUDA events: 0 when nothing was tuned (tuning off, no GPU product yet, every
            strip found in the tuning cache); below 0 when a candidate ran faster than the kept
            parameters without beating them by the tuner's margin (NULL if not wanted)
- tuning  - whether tuning is still going on (`tune_ms` counts what has ended) (NULL if not wanted)

  Level: intermediate

  Note:
  Divided by the time of one product, these are planning and tuning in MatMult-equivalents.

.seealso: `MATAIJTUNED`, `MatAIJTunedGetPlanStats()`
@*/
PetscErrorCode MatAIJTunedGetSetupTimes(Mat A, PetscReal *plan_ms, PetscReal *tune_ms, PetscBool *tuning)
{
  Mat_SeqAIJTuned *ctx[2];
  PetscReal        p = 0, t = 0;
  PetscBool        busy = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(LocalBlocks(A, ctx));
  for (int b = 0; b < 2; b++) {
    if (!ctx[b]) continue;
    p += (PetscReal)ctx[b]->plan_ms;
    t += ctx[b]->tune_extra_ms;
    busy = (PetscBool)(busy || ctx[b]->tuning);
  }
  if (plan_ms) *plan_ms = p;
  if (tune_ms) *tune_ms = t;
  if (tuning) *tuning = busy;
  PetscFunctionReturn(PETSC_SUCCESS);
}
