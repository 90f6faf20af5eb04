/* What a program can ask about the plans of an aijtuned matrix. */
#include "aijtunedimpl.h"

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
  Mat             blocks[2] = {A, NULL};
  PetscBool       mpi;
  const PetscInt *garray;
  PetscInt        s = 0, p = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJTUNED, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++) {
    Mat_SeqAIJTuned *ctx;
    if (!blocks[b]) continue;
    PetscCall(MatSeqAIJTunedUpdate(blocks[b]));
    PetscCall(MatSeqAIJTunedGetContext(blocks[b], &ctx));
    s += ctx->plan->nstrips;
    p += ctx->plans_made;
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
            (or, when the GPU builds them, their skeleton), the `AIJTunedPlan` event (NULL if not wanted)
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
  Mat             blocks[2] = {A, NULL};
  PetscBool       mpi;
  const PetscInt *garray;
  PetscReal       p = 0, t = 0;
  PetscBool       busy = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJTUNED, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++) {
    Mat_SeqAIJTuned *ctx;
    if (!blocks[b]) continue;
    PetscCall(MatSeqAIJTunedUpdate(blocks[b]));
    PetscCall(MatSeqAIJTunedGetContext(blocks[b], &ctx));
    p += (PetscReal)ctx->plan_ms;
    t += ctx->tune_extra_ms;
    busy = (PetscBool)(busy || ctx->tuning);
  }
  if (plan_ms) *plan_ms = p;
  if (tune_ms) *tune_ms = t;
  if (tuning) *tuning = busy;
  PetscFunctionReturn(PETSC_SUCCESS);
}
