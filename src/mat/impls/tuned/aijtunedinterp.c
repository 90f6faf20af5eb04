/* A DM's interpolations on the GPU under -dm_mat_type aijtuned.

   A DMDA of several fields interpolates through a MAIJ matrix around an AIJ of the DM's matrix type.  PETSc's
   MatCreateMAIJ makes that an AIJ on the GPU only when the AIJ has one of aijcusparse's names; an aijtuned one
   stayed a host MAIJ, and each of PCMG's restrictions and interpolations copied its vectors to the host and back:
   SNES ex19 (4 fields) with multigrid ran at 0.19x aijcusparse's time (bench/results/2026-11-26-tutorials).

   Here a DMDA that an aijtuned matrix meets at its assembly (MatGetDM: DMCreateMatrix's), and every DMDA coarsened or
   refined from one (PCMG's levels), makes its interpolations through CreateInterpolation below.  For several fields
   and CUDA vectors it makes them as under -dm_mat_type aijcusparse: PETSc converts the MAIJ to aijcusparse and makes
   the interpolation's scale with it, on the GPU; that matrix then becomes aijtuned in place, its values where they
   are.  (A first version converted the host MAIJ afterwards: its aijtuned AIJ was planned at its assembly for
   nothing, and the scale, made from the host MAIJ, copied CUDA vectors to the host and back,
   bench/results/2026-11-27-dm-interp.)  With a host base (no CUDA), or the DM's host vectors, nothing changes:
   there the MAIJ's own product, which reads each entry once for all fields, is the faster one.

   -mat_aijtuned_dm_interpolation picks what such an interpolation becomes: aijtuned (the default), base (the base
   type, aijcusparse) or maij (PETSc's host MAIJ, as before). */
#include "aijtunedimpl.h"
#include <petscdmda.h>
#include <petsc/private/dmimpl.h>

const char *const MatAIJTunedInterpolationTypes[3] = {"aijtuned", "base", "maij"};

#if defined(PETSC_HAVE_CUDA)
/* The DM's own createinterpolation, composed on it when CreateInterpolation takes its place */
static const char ORIGINAL[] = "MatAIJTunedDMCreateInterpolation_C";

static PetscErrorCode Watch(DM);

/* The base's name for each of aijtuned's (NULL for any other type): -dm_mat_type seqaijtuned makes its
   interpolations as -dm_mat_type seqaijcusparse does */
static PetscErrorCode BaseName(MatType mtype, const char **cusparse)
{
  static const char *const tuned[3] = {MATAIJTUNED, MATSEQAIJTUNED, MATMPIAIJTUNED}, *const base[3] = {MATAIJCUSPARSE, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE};
  PetscBool                same;

  PetscFunctionBegin;
  *cusparse = NULL;
  for (int i = 0; i < 3 && !*cusparse; i++) {
    PetscCall(PetscStrcmp(mtype, tuned[i], &same));
    if (same) *cusparse = base[i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateInterpolation(DM dmc, DM dmf, Mat *mat, Vec *vec)
{
  PetscErrorCode (*original)(DM, DM, Mat *, Vec *) = NULL;
  PetscErrorCode ierr;
  MatType        mtype;
  VecType        vtype;
  const char    *cusparse;
  char          *cuda, *saved = NULL;
  PetscBool      tuned, swap, base;
  PetscInt       dof, as = 0; /* MatAIJTunedInterpolationTypes[as] */

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)dmc, ORIGINAL, &original));
  PetscCheck(original, PetscObjectComm((PetscObject)dmc), PETSC_ERR_PLIB, "aijtuned: a DM's interpolation taken over without its own");
  PetscCall(PetscOptionsGetEList(((PetscObject)dmc)->options, NULL, "-mat_aijtuned_dm_interpolation", MatAIJTunedInterpolationTypes, 3, &as, NULL));
  PetscCall(DMGetMatType(dmc, &mtype));
  PetscCall(BaseName(mtype, &cusparse));
  tuned = (PetscBool)(cusparse != NULL);
  PetscCall(DMGetVecType(dmc, &vtype));
  PetscCall(PetscStrstr(vtype, "cuda", &cuda));
  PetscCall(DMDAGetDof(dmc, &dof));
  /* with the DM's host vectors the MAIJ's own host product is the faster, as without CUDA */
  swap = (PetscBool)(tuned && cuda && dof > 1 && as != 2);
  if (swap) { /* the DMDA makes the interpolation, and its scale, as under -dm_mat_type aijcusparse */
    PetscCall(PetscStrallocpy(mtype, &saved));
    PetscCall(DMSetMatType(dmc, cusparse));
  }
  ierr = (*original)(dmc, dmf, mat, vec);
  if (swap) {
    PetscCall(DMSetMatType(dmc, saved));
    PetscCall(PetscFree(saved));
  }
  PetscCall(ierr);
  if (!swap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)*mat, &base, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  if (base && as == 0) PetscCall(MatAIJTunedFromBase(mat)); /* in place, its values where they are */
  if (base) PetscCall(PetscInfo(*mat, "A DM's interpolation of %" PetscInt_FMT " fields made %s instead of a host MAIJ\n", dof, as ? MATAIJCUSPARSE : MATAIJTUNED));
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

/* DMDAs alone (CreateInterpolation sets their matrix type for the call); and once a DM: SNESVI's solvers put their
   own createinterpolation in place of the DM's and back at each step, and a second take-over while theirs is in
   place would compose theirs, which calls ours, as ours: a loop */
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
