/* A DM's interpolations on the GPU under -dm_mat_type aijtuned.

   A DMDA of several fields interpolates through a MAIJ matrix around an AIJ of the DM's matrix type.  PETSc's
   MatCreateMAIJ makes that an AIJ on the GPU only when the AIJ has one of aijcusparse's names; an aijtuned one
   stayed a host MAIJ, and each of PCMG's restrictions and interpolations copied its vectors to the host and back:
   SNES ex19 (4 fields) with multigrid ran at 0.19x aijcusparse's time (bench/results/2026-11-26-tutorials).

   Here a DMDA that an aijtuned matrix meets at its assembly (MatGetDM: DMCreateMatrix's), and every DMDA coarsened or
   refined from one (PCMG's levels), makes its interpolations through CreateInterpolation below: a MAIJ around an
   aijtuned AIJ becomes one aijtuned matrix of all the fields, as MatCreateMAIJ does for aijcusparse.  With a host
   base (no CUDA), or the DM's host vectors, nothing changes: there the MAIJ's own product, which reads each entry
   once for all fields, is the faster one.

   -mat_aijtuned_dm_interpolation picks what such a MAIJ becomes: aijtuned (the default), base (the base type,
   aijcusparse, as under -dm_mat_type aijcusparse) or maij (left as PETSc made it). */
#include "aijtunedimpl.h"
#include <petscdmda.h>
#include <petsc/private/dmimpl.h>

const char *const MatAIJTunedInterpolationTypes[3] = {"aijtuned", "base", "maij"};

#if defined(PETSC_HAVE_CUDA)
/* The DM's own createinterpolation, composed on it when CreateInterpolation takes its place */
static const char ORIGINAL[] = "MatAIJTunedDMCreateInterpolation_C";

static PetscErrorCode Watch(DM);

static PetscErrorCode CreateInterpolation(DM dmc, DM dmf, Mat *mat, Vec *vec)
{
  PetscErrorCode (*original)(DM, DM, Mat *, Vec *) = NULL;
  Mat       inner, B;
  PetscBool maij, tuned = PETSC_FALSE;
  PetscInt  dof, as = 0; /* MatAIJTunedInterpolationTypes[as] */

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)dmc, ORIGINAL, &original));
  PetscCheck(original, PetscObjectComm((PetscObject)dmc), PETSC_ERR_PLIB, "aijtuned: a DM's interpolation taken over without its own");
  PetscCall((*original)(dmc, dmf, mat, vec)); /* vec as given: SNESVI's own (a DMDA's under a VI solve) sets *vec */
  PetscCall(PetscObjectTypeCompareAny((PetscObject)*mat, &maij, MATSEQMAIJ, MATMPIMAIJ, ""));
  if (maij) { /* with the DM's host vectors the MAIJ's own host product is the faster, as without CUDA */
    VecType vtype;
    char   *cuda;
    PetscCall(DMGetVecType(dmc, &vtype));
    PetscCall(PetscStrstr(vtype, "cuda", &cuda));
    maij = (PetscBool)(cuda != NULL);
  }
  if (maij) {
    PetscCall(MatMAIJGetAIJ(*mat, &inner));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)inner, &tuned, MATSEQAIJTUNED, MATMPIAIJTUNED, ""));
    PetscCall(PetscOptionsGetEList(((PetscObject)dmc)->options, NULL, "-mat_aijtuned_dm_interpolation", MatAIJTunedInterpolationTypes, 3, &as, NULL));
  }
  if (maij && tuned && as != 2) {
    PetscCall(MatGetBlockSize(*mat, &dof));
    PetscCall(MatConvert(*mat, MATAIJ, MAT_INITIAL_MATRIX, &B)); /* the MAIJ's own converter: one row per field */
    PetscCall(MatConvert(B, as ? MATAIJCUSPARSE : MATAIJTUNED, MAT_INPLACE_MATRIX, &B));
    PetscCall(PetscInfo(B, "A DM's interpolation of %" PetscInt_FMT " fields made %s instead of a host MAIJ\n", dof, as ? MATAIJCUSPARSE : MATAIJTUNED));
    PetscCall(MatDestroy(mat));
    *mat = B;
    /* the scale again, from the matrix on the GPU, as a DMDA makes it (DMCreateInterpolationScale).  Left as made
       from the host MAIJ, the GPU matrix's first upload moved from PCSetUp into the first KSPSolve, 15 ms of SNES
       ex19's (bench/results/2026-11-27-dm-interp/flame) */
    if (vec && *vec) {
      PetscCall(VecDestroy(vec));
      PetscCall(DMCreateInterpolationScale(dmc, dmf, *mat, vec));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCMG's coarser levels (DMCoarsen) and finer ones (DMRefine) interpolate through CreateInterpolation too */
static PetscErrorCode Coarsened(DM fine, DM coarse, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Watch(coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Refined(DM coarse, DM fine, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(Watch(fine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMDAs alone, whose interpolation's scale is DMCreateInterpolationScale's (CreateInterpolation makes it again);
   and once a DM: SNESVI's solvers put their own createinterpolation in place of the DM's and back at each step, and
   a second take-over while theirs is in place would compose theirs, which calls ours, as ours: a loop */
static PetscErrorCode Watch(DM dm)
{
  PetscErrorCode (*taken)(DM, DM, Mat *, Vec *) = NULL;
  PetscBool da;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &da));
  if (!da) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQueryFunction((PetscObject)dm, ORIGINAL, &taken));
  if (!taken && dm->ops->createinterpolation && dm->ops->createinterpolation != CreateInterpolation) {
    PetscCall(PetscObjectComposeFunction((PetscObject)dm, ORIGINAL, dm->ops->createinterpolation));
    dm->ops->createinterpolation = CreateInterpolation;
  }
  PetscCall(DMCoarsenHookAdd(dm, Coarsened, NULL, NULL)); /* once: PETSc skips a hook it holds */
  PetscCall(DMRefineHookAdd(dm, Refined, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* A's DM, if it has one, and the DMs made from it from now on, interpolate through aijtuned matrices (CUDA only) */
PetscErrorCode MatAIJTunedWatchDM(Mat A)
{
  DM dm;

  PetscFunctionBegin;
  PetscCall(MatGetDM(A, &dm));
#if defined(PETSC_HAVE_CUDA)
  if (dm) PetscCall(Watch(dm));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
