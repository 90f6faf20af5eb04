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
