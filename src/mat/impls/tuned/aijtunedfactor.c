/* Factorizations of seqaijtuned matrices by cuSPARSE (MATSOLVERCUSPARSE: LU, ILU, Cholesky, ICC), as for
   aijcusparse.

   PETSc finds a factorization by the matrix's type name, or a type it begins with: seqaijtuned found PETSc's own
   (host) factorizations of seqaij, but not cuSPARSE's, registered for seqaijcusparse alone ("MatSolverType cusparse
   does not support matrix type seqaijtuned", mat/tests ex125, bench/results/2026-11-26-gpu-sweep).  Here
   cuSPARSE's factorizations are registered for seqaijtuned too, LU and ILU as the default, as they are for
   aijcusparse (MatAIJTunedFactorRegister).  The factor is cuSPARSE's own (seqaijcusparse, solved on the GPU), made from the
   matrix's base data, with the matrix under its base's name during the symbolic and numeric phases, whose GPU paths
   check it.  Its solves are wrapped so that host vectors get the right answer too (SolveOnDevice). */
#include "aijtunedimpl.h"

#if defined(PETSC_HAVE_CUDA)
  #define FACTOR_OPS  "MatAIJTunedFactorOps"
  #define FACTOR_ROW  "MatAIJTunedFactorRow" /* an LU's or ILU's orderings, for its twin */
  #define FACTOR_COL  "MatAIJTunedFactorCol"
  #define FACTOR_TWIN "MatAIJTunedFactorTwin"

/* The base's phases of one factor, the symbolic ones replaced on it by those below */
typedef struct {
  PetscErrorCode (*lu)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*ilu)(Mat, Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*cholesky)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*icc)(Mat, Mat, IS, const MatFactorInfo *);
  PetscErrorCode (*lu_numeric)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*cholesky_numeric)(Mat, Mat, const MatFactorInfo *);
  PetscErrorCode (*solve)(Mat, Vec, Vec);
  PetscErrorCode (*solve_transpose)(Mat, Vec, Vec);
  MatFactorInfo info;                /* an LU's or ILU's symbolic phase's, for its twin (RebuildTwin) */
  PetscBool     transposed_analysed; /* an LU or ILU solved transposed since its symbolic phase */
} FactorOps;

static PetscErrorCode FactorOpsGet(Mat F, FactorOps **ops)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedRecordFind((PetscObject)F, FACTOR_OPS, (void **)ops));
  PetscCheck(*ops, PetscObjectComm((PetscObject)F), PETSC_ERR_PLIB, "aijtuned: the factor has no base's phases");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether F is an LU or ILU factor (the others: Cholesky, ICC) */
static PetscBool IsLU(Mat F)
{
  return (PetscBool)(F->factortype == MAT_FACTOR_LU || F->factortype == MAT_FACTOR_ILU);
}

/* to's values = from's, of two vectors of one size and either kind (host or CUDA) */
static PetscErrorCode CopyValues(Vec from, Vec to)
{
  const PetscScalar *f;
  PetscScalar       *t;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &f));
  PetscCall(VecGetArrayWrite(to, &t));
  PetscCall(PetscArraycpy(t, f, n));
  PetscCall(VecRestoreArrayWrite(to, &t));
  PetscCall(VecRestoreArrayRead(from, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v itself where it is a CUDA vector, else the factor's CUDA work vector of that name (made once, kept on F),
   with v's values if copy_in.  cuSPARSE's solves take the device array of a CUDA vector without checking its type:
   a host vector's gave wrong values without an error (PETSc's optimized builds; aijcusparse's factors do so). */
static PetscErrorCode DeviceVec(Mat F, Vec v, const char name[], PetscBool copy_in, Vec *d)
{
  PetscBool cuda;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  if (cuda) {
    *d = v;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectQuery((PetscObject)F, name, (PetscObject *)d));
  if (!*d) {
    Vec w;
    PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, F->rmap->n, &w));
    PetscCall(PetscObjectCompose((PetscObject)F, name, (PetscObject)w));
    PetscCall(VecDestroy(&w)); /* F holds it */
    PetscCall(PetscObjectQuery((PetscObject)F, name, (PetscObject *)d));
  }
  if (copy_in) PetscCall(CopyValues(v, *d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's solve with CUDA vectors; a host vector's values go through a work vector */
static PetscErrorCode SolveOnDevice(Mat F, Vec b, Vec x, PetscErrorCode (*solve)(Mat, Vec, Vec))
{
  Vec db, dx;

  PetscFunctionBegin;
  PetscCall(DeviceVec(F, b, "MatAIJTunedSolveB", PETSC_TRUE, &db));
  PetscCall(DeviceVec(F, x, "MatAIJTunedSolveX", PETSC_FALSE, &dx));
  PetscCall((*solve)(F, db, dx));
  if (dx != x) PetscCall(CopyValues(dx, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve_OnDevice(Mat F, Vec b, Vec x)
{
  FactorOps *ops;

  PetscFunctionBegin;
  PetscCall(FactorOpsGet(F, &ops));
  PetscCall(SolveOnDevice(F, b, x, ops->solve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A transposed solve of an LU or ILU refactored after one goes to its twin (RebuildTwin) */
static PetscErrorCode SolveTranspose_OnDevice(Mat F, Vec b, Vec x)
{
  FactorOps *ops;
  Mat        twin;

  PetscFunctionBegin;
  PetscCall(FactorOpsGet(F, &ops));
  PetscCall(PetscObjectQuery((PetscObject)F, FACTOR_TWIN, (PetscObject *)&twin));
  if (twin) PetscCall(MatSolveTranspose(twin, b, x));
  else {
    ops->transposed_analysed = IsLU(F);
    PetscCall(SolveOnDevice(F, b, x, ops->solve_transpose));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Numeric_AsBase(Mat, Mat, const MatFactorInfo *);

/* After a phase of the base's: the numeric phases and solves it set, kept, and wrapped (a symbolic phase sets the
   numeric one, and either may set the solves) */
static PetscErrorCode WrapPhases(Mat F, FactorOps *ops)
{
  PetscFunctionBegin;
  #define WRAP(slot, kept, wrapper) \
    if (F->ops->slot && F->ops->slot != wrapper) { \
      ops->kept     = F->ops->slot; \
      F->ops->slot = wrapper; \
    }
  WRAP(lufactornumeric, lu_numeric, Numeric_AsBase)
  WRAP(choleskyfactornumeric, cholesky_numeric, Numeric_AsBase)
  WRAP(solve, solve, Solve_OnDevice)
  WRAP(solvetranspose, solve_transpose, SolveTranspose_OnDevice)
  #undef WRAP
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The body of a phase of F of matrix A: the base's phase 'call' (of ops, F's FactorOps), with A under its base's
   name, then the numeric phase and solves it set wrapped */
  #define AS_BASE(call) \
    { \
      FactorOps *ops; \
      PetscFunctionBegin; \
      PetscCall(FactorOpsGet(F, &ops)); \
      MatAIJTunedAsBase(A, NULL, MatAIJTunedNameAsBase, call); \
      PetscCall(WrapPhases(F, ops)); \
      PetscFunctionReturn(PETSC_SUCCESS); \
    }

/* Either numeric phase (LU's serves ILU, Cholesky's ICC) */
static PetscErrorCode Numeric_Base(Mat F, Mat A, const MatFactorInfo *info) AS_BASE((IsLU(F) ? ops->lu_numeric : ops->cholesky_numeric)(F, A, info))

/* A fresh factor of A's values, made as F was, for F's transposed solves.  PETSc 3.24's cuSPARSE LU and ILU analyse
   their transposed solves once: a numeric phase with new values (with CUDA 12.1.1 or later) updates the
   untransposed solves alone, and later transposed solves used the old factor without an error (ops.c's check,
   bench/results/2026-11-26-cusparse-default).  Only factors solved transposed pay for the twin. */
static PetscErrorCode RebuildTwin(Mat F, Mat A, FactorOps *ops)
{
  Mat twin;
  IS  row, col;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)F, FACTOR_ROW, (PetscObject *)&row));
  PetscCall(PetscObjectQuery((PetscObject)F, FACTOR_COL, (PetscObject *)&col));
  PetscCall(MatGetFactor(A, MATSOLVERCUSPARSE, F->factortype, &twin));
  if (F->factortype == MAT_FACTOR_ILU) PetscCall(MatILUFactorSymbolic(twin, A, row, col, &ops->info));
  else PetscCall(MatLUFactorSymbolic(twin, A, row, col, &ops->info));
  PetscCall(MatLUFactorNumeric(twin, A, &ops->info));
  PetscCall(PetscObjectCompose((PetscObject)F, FACTOR_TWIN, (PetscObject)twin));
  PetscCall(MatDestroy(&twin)); /* F holds it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Either numeric phase (LU's serves ILU, Cholesky's ICC): the base's, then an LU's or ILU's twin made anew once it
   has been solved transposed */
static PetscErrorCode Numeric_AsBase(Mat F, Mat A, const MatFactorInfo *info)
{
  FactorOps *ops;

  PetscFunctionBegin;
  PetscCall(Numeric_Base(F, A, info));
  PetscCall(FactorOpsGet(F, &ops));
  if (ops->transposed_analysed) PetscCall(RebuildTwin(F, A, ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The symbolic phases */
static PetscErrorCode LUSymbolic_Base(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info) AS_BASE(ops->lu(F, A, r, c, info))
static PetscErrorCode ILUSymbolic_Base(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info) AS_BASE(ops->ilu(F, A, r, c, info))

/* An LU's or ILU's symbolic phase, its arguments kept for a twin (RebuildTwin), none made yet */
static PetscErrorCode KeepSymbolicArgs(Mat F, IS r, IS c, const MatFactorInfo *info)
{
  FactorOps *ops;

  PetscFunctionBegin;
  PetscCall(FactorOpsGet(F, &ops));
  ops->info                = *info;
  ops->transposed_analysed = PETSC_FALSE;
  PetscCall(PetscObjectCompose((PetscObject)F, FACTOR_ROW, (PetscObject)r));
  PetscCall(PetscObjectCompose((PetscObject)F, FACTOR_COL, (PetscObject)c));
  PetscCall(PetscObjectCompose((PetscObject)F, FACTOR_TWIN, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LUSymbolic_AsBase(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(KeepSymbolicArgs(F, r, c, info));
  PetscCall(LUSymbolic_Base(F, A, r, c, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ILUSymbolic_AsBase(Mat F, Mat A, IS r, IS c, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(KeepSymbolicArgs(F, r, c, info));
  PetscCall(ILUSymbolic_Base(F, A, r, c, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode CholeskySymbolic_AsBase(Mat F, Mat A, IS p, const MatFactorInfo *info) AS_BASE(ops->cholesky(F, A, p, info))
static PetscErrorCode ICCSymbolic_AsBase(Mat F, Mat A, IS p, const MatFactorInfo *info) AS_BASE(ops->icc(F, A, p, info))

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
  if (!cusparse) { /* a host base (a host AIJ converted before its assembly): PETSc's own factor, on the host */
    PetscCall(PetscInfo(A, "seqaijtuned on a %s base: PETSc's own %s factorization instead of %s's\n", base->type, MatFactorTypes[ftype], MATSOLVERCUSPARSE));
    PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, ftype, NULL, NULL, &create));
    PetscCheck(create, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatSolverType %s has no %s factorization", MATSOLVERPETSC, MatFactorTypes[ftype]);
    PetscCall((*create)(A, ftype, F));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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

/* cuSPARSE's factorizations for seqaijtuned on CUDA builds; LU's and ILU's the default, as for aijcusparse.  With
   no solver named PETSc takes the first one registered under the matrix's own type name, and only then one under a
   name it begins with (PETSc's own, of seqaij, which -pc_factor_mat_solver_type petsc finds).
   - LU and ILU: until cuSPARSE's solves took host vectors (SolveOnDevice), PETSc's own was registered here first,
     to stay the default (the suite's KSP ex2 tests, with host vectors, diverged under cuSPARSE's).  With CUDA
     vectors, GMRES + ILU(0) ran 1.44x slower on the host's (bench/results/2026-11-26-gpu-sweep/final/ilu.txt).
   - Cholesky and ICC stay PETSc's own by default: cuSPARSE's factors have no forward and backward solves
     (symmetric preconditioning: -ksp_pc_side symmetric) and no inertia, which PETSc's give. */
PetscErrorCode MatAIJTunedFactorRegister(void)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  const MatFactorType host_first[] = {MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC}, types[] = {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC};
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(host_first); i++) {
    PetscErrorCode (*host)(Mat, MatFactorType, Mat *) = NULL;
    PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, host_first[i], NULL, NULL, &host));
    if (host) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQAIJTUNED, host_first[i], host));
  }
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(types); i++) PetscCall(MatSolverTypeRegister(MATSOLVERCUSPARSE, MATSEQAIJTUNED, types[i], GetFactor_CUSPARSE));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
