/* Factorizations of seqaijtuned matrices by cuSPARSE (MATSOLVERCUSPARSE: LU, ILU, Cholesky, ICC), as for
   aijcusparse.

   PETSc finds a factorization by the matrix's type name, or a type it begins with: seqaijtuned found PETSc's own
   (host) factorizations of seqaij, but not cuSPARSE's, registered for seqaijcusparse alone ("MatSolverType cusparse
   does not support matrix type seqaijtuned", mat/tests ex125, bench/results/2026-11-26-gpu-sweep).  Here
   cuSPARSE's factorizations are registered for seqaijtuned too, and the default stays PETSc's own
   (MatAIJTunedFactorRegister).  The factor is cuSPARSE's own (seqaijcusparse, solved on the GPU), made from the
   matrix's base data, with the matrix under its base's name during the symbolic and numeric phases, whose GPU paths
   check it. */
#include "aijtunedimpl.h"

#if defined(PETSC_HAVE_CUDA)
  #define FACTOR_OPS "MatAIJTunedFactorOps"

/* The base's phases of one factor, the symbolic ones replaced on it by those below */
typedef struct {
  PetscErrorCode (*lu)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*ilu)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*cholesky)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*icc)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*lu_numeric)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*cholesky_numeric)(Mat, Mat, const MatFactorInfo *);
} FactorOps;

static PetscErrorCode FactorOpsGet(Mat F, FactorOps **ops)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedRecordFind((PetscObject)F, FACTOR_OPS, (void **)ops));
  PetscCheck(*ops, PetscObjectComm((PetscObject)F), PETSC_ERR_PLIB, "aijtuned: the factor has no base's phases");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The numeric phases: the base's, with A under its base's name */
static PetscErrorCode NumericAsBase(Mat F, Mat A, const MatFactorInfo *info, PetscErrorCode (*numeric)(Mat, Mat, const MatFactorInfo *))
{
  MatAIJTunedNames names = {.n = 0};
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedNameAsBase(A, &names));
  ierr = (*numeric)(F, A, info);
  PetscCall(MatAIJTunedNamesRestore(&names));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LUNumeric_AsBase(Mat F, Mat A, const MatFactorInfo *info)
{
  FactorOps *ops;

  PetscFunctionBegin;
  PetscCall(FactorOpsGet(F, &ops));
  PetscCall(NumericAsBase(F, A, info, ops->lu_numeric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CholeskyNumeric_AsBase(Mat F, Mat A, const MatFactorInfo *info)
{
  FactorOps *ops;

  PetscFunctionBegin;
  PetscCall(FactorOpsGet(F, &ops));
  PetscCall(NumericAsBase(F, A, info, ops->cholesky_numeric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a symbolic phase: the numeric phase it set, kept, and wrapped */
static PetscErrorCode WrapNumeric(Mat F, FactorOps *ops)
{
  PetscFunctionBegin;
  if (F->ops->lufactornumeric && F->ops->lufactornumeric != LUNumeric_AsBase) {
    ops->lu_numeric         = F->ops->lufactornumeric;
    F->ops->lufactornumeric = LUNumeric_AsBase;
  }
  if (F->ops->choleskyfactornumeric && F->ops->choleskyfactornumeric != CholeskyNumeric_AsBase) {
    ops->cholesky_numeric         = F->ops->choleskyfactornumeric;
    F->ops->choleskyfactornumeric = CholeskyNumeric_AsBase;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The symbolic phases: the base's, with A under its base's name, then the numeric phase they set wrapped */
  #define SYMBOLIC_AS_BASE(slot, ...) \
    { \
      FactorOps       *ops; \
      MatAIJTunedNames names = {.n = 0}; \
      PetscErrorCode   ierr; \
      PetscFunctionBegin; \
      PetscCall(FactorOpsGet(F, &ops)); \
      PetscCall(MatAIJTunedNameAsBase(A, &names)); \
      ierr = (*ops->slot)(F, A, __VA_ARGS__); \
      PetscCall(MatAIJTunedNamesRestore(&names)); \
      PetscCall(ierr); \
      PetscCall(WrapNumeric(F, ops)); \
      PetscFunctionReturn(PETSC_SUCCESS); \
    }

static PetscErrorCode LUSymbolic_AsBase(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info) SYMBOLIC_AS_BASE(lu, r, c, info)
static PetscErrorCode ILUSymbolic_AsBase(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info) SYMBOLIC_AS_BASE(ilu, r, c, info)
static PetscErrorCode CholeskySymbolic_AsBase(Mat F, Mat A, IS p, const MatFactorInfo *info) SYMBOLIC_AS_BASE(cholesky, p, info)
static PetscErrorCode ICCSymbolic_AsBase(Mat F, Mat A, IS p, const MatFactorInfo *info) SYMBOLIC_AS_BASE(icc, p, info)

/* cuSPARSE's factor of A, with its symbolic phases wrapped */
static PetscErrorCode GetFactor_CUSPARSE(Mat A, MatFactorType ftype, Mat *F)
{
  PetscErrorCode (*create)(Mat, MatFactorType, Mat *) = NULL;
  MatAIJTunedBase *base;
  PetscBool        seq, cusparse;
  FactorOps       *ops;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedBaseFind(A, &base, &seq));
  PetscCheck(base && seq, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Not a seqaijtuned matrix");
  PetscCall(PetscStrcmp(base->type, MATSEQAIJCUSPARSE, &cusparse));
  PetscCheck(cusparse, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatSolverType %s needs a seqaijtuned matrix of base %s; this one's base is %s", MATSOLVERCUSPARSE, MATSEQAIJCUSPARSE, base->type);
  PetscCall(MatSolverTypeGet(MATSOLVERCUSPARSE, MATSEQAIJCUSPARSE, ftype, NULL, NULL, &create));
  PetscCheck(create, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatSolverType %s has no %s factorization", MATSOLVERCUSPARSE, MatFactorTypes[ftype]);
  PetscCall((*create)(A, ftype, F));
  PetscCall(MatAIJTunedRecordAttach((PetscObject)*F, FACTOR_OPS, sizeof(*ops), (void **)&ops));
  ops->lu       = (*F)->ops->lufactorsymbolic;
  ops->ilu      = (*F)->ops->ilufactorsymbolic;
  ops->cholesky = (*F)->ops->choleskyfactorsymbolic;
  ops->icc      = (*F)->ops->iccfactorsymbolic;
  if (ops->lu) (*F)->ops->lufactorsymbolic = LUSymbolic_AsBase;
  if (ops->ilu) (*F)->ops->ilufactorsymbolic = ILUSymbolic_AsBase;
  if (ops->cholesky) (*F)->ops->choleskyfactorsymbolic = CholeskySymbolic_AsBase;
  if (ops->icc) (*F)->ops->iccfactorsymbolic = ICCSymbolic_AsBase;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* cuSPARSE's factorizations for seqaijtuned, on CUDA builds, when asked for by name (-pc_factor_mat_solver_type
   cusparse).  With no solver named PETSc takes the first one registered under the matrix's own type name, and only
   then one under a name it begins with: PETSc's own, of seqaij, is registered under seqaijtuned's name first, so
   that it stays the default, as it was.  cuSPARSE's factors (seqaijcusparse) need CUDA vectors: with host vectors
   their MatSolve gives wrong results without an error, as aijcusparse's do (ksp/ksp/tutorials ex2's tests in the
   suite, run with host vectors, diverged when cuSPARSE's was the default). */
PetscErrorCode MatAIJTunedFactorRegister(void)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  const MatFactorType types[] = {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC};
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(types); i++) {
    PetscErrorCode (*host)(Mat, MatFactorType, Mat *) = NULL;
    PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, types[i], NULL, NULL, &host));
    if (host) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQAIJTUNED, types[i], host));
    PetscCall(MatSolverTypeRegister(MATSOLVERCUSPARSE, MATSEQAIJTUNED, types[i], GetFactor_CUSPARSE));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
