/* Registration: the matrix types, the root name, the events, and the dynamic-library entry point. */
#include "aijtunedimpl.h"

PetscLogEvent MAT_AIJTuned_Plan, MAT_AIJTuned_Build, MAT_AIJTuned_Refresh, MAT_AIJTuned_Upload, MAT_AIJTuned_Tune, MAT_AIJTuned_Ghosts;

static PetscBool initialized = PETSC_FALSE;

static PetscErrorCode MatAIJTunedFinalizePackage(void)
{
  PetscFunctionBegin;
  initialized = PETSC_FALSE;
  aijt_counts_release(); /* the planners' count arrays, kept between plannings */
#if defined(PETSC_HAVE_CUDA)
  MatAIJTunedCUDAStageFree();
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatAIJTunedInitializePackage - Registers the aijtuned matrix types (`MATAIJTUNED`, `MATSEQAIJTUNED`,
  `MATMPIAIJTUNED`) and their log events.  Safe to call more than once.

  Not Collective

  Note:
  A program linked with libaijtuned calls this after `PetscInitialize()`; an unmodified program gets
  the same with `-dll_append <dir>/libaijtuned.so`, which calls `PetscDLLibraryRegister_aijtuned()`.

  Level: beginner

.seealso: `MATAIJTUNED`
@*/
PetscErrorCode MatAIJTunedInitializePackage(void)
{
  PetscClassId classid;

  PetscFunctionBegin;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(MatInitializePackage());
  PetscCall(MatRegister(MATSEQAIJTUNED, MatCreate_SeqAIJTuned));
  PetscCall(MatRegister(MATMPIAIJTUNED, MatCreate_MPIAIJTuned));
  PetscCall(MatRegisterRootName(MATAIJTUNED, MATSEQAIJTUNED, MATMPIAIJTUNED));
  PetscCall(MatAIJTunedFactorRegister()); /* cuSPARSE's factorizations, as aijcusparse has them */
  PetscCall(PetscClassIdRegister("AIJTuned", &classid));
  PetscCall(PetscLogEventRegister("AIJTunedPlan", MAT_CLASSID, &MAT_AIJTuned_Plan));
  PetscCall(PetscLogEventRegister("AIJTunedBuild", MAT_CLASSID, &MAT_AIJTuned_Build));
  PetscCall(PetscLogEventRegister("AIJTunedRefresh", MAT_CLASSID, &MAT_AIJTuned_Refresh));
  PetscCall(PetscLogEventRegister("AIJTunedUpload", MAT_CLASSID, &MAT_AIJTuned_Upload));
  PetscCall(PetscLogEventRegister("AIJTunedTune", MAT_CLASSID, &MAT_AIJTuned_Tune));
  PetscCall(PetscLogEventRegister("AIJTunedGhosts", MAT_CLASSID, &MAT_AIJTuned_Ghosts));
  PetscCall(PetscRegisterFinalize(MatAIJTunedFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by PETSc when the library is loaded with -dll_append / -dll_prepend. */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_aijtuned(void)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
