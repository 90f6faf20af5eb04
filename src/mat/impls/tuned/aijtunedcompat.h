/* The few spellings that differ between the PETSc versions aijtuned builds against (3.18 to 3.24). */
#pragma once

#include <petscversion.h>

#include <petscmataijtuned.h> /* PETSC_SUCCESS for 3.18 */

/* PetscOptionItems became a pointer type in 3.23 */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *AIJTunedOptionItems;
#else
typedef PetscOptionItems AIJTunedOptionItems;
#endif
