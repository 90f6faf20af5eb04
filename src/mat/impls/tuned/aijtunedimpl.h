/* Shared between the seq and mpi aijtuned types: their settings and the package's events. */
#pragma once

#include <petscmataijtuned.h>
#include <petsc/private/matimpl.h>
#include "aijtunedcompat.h"
#include "plan/aijtplan.h"
#include "plan/aijttune.h"

/* What the options choose; the mpi type pushes its settings to its two blocks. */
typedef struct {
  aijt_rules rules;
  PetscBool  host_strips; /* run MatMult on host vectors through the strips' host reference */
  PetscBool  gpu_strips;  /* run MatMult on CUDA vectors through the strips' kernels (else the base's) */
  PetscBool  gpu_build;   /* with gpu_strips, build the layouts' slots on the GPU from the uploaded CSR */
  PetscBool  gpu_plan;    /* with gpu_build and a model, the model planner's passes over the CSR run on the GPU */
  PetscBool  plan_beside; /* that planner runs in a thread of its own while the values go up, or while a COO
                             assembly gives them on the GPU (kernels/plan_job.cu) */
  PetscBool  dia_codes;   /* with gpu_strips, DIA strips of few distinct values read one-byte codes (kernels/dia_codes.cu) */
  PetscBool  from_options; /* settings were read from the options database (or pushed by a parent) */
  PetscBool  model_planner; /* plan with the performance model (when one is found), else with the rules */
  char       model_file[PETSC_MAX_PATH_LEN]; /* the model to use; "" for the one of this process's GPU */
  PetscBool  tune;       /* time neighbouring launch parameters of each strip during the first GPU products */
  PetscInt   tune_calls; /* products that tuning may time */
  char       tune_cache[PETSC_MAX_PATH_LEN]; /* the tuning cache file; "" for the default place, "none" for no cache */
  PetscBool  ghost_exchange; /* mpi: MatMult exchanges ghosts itself (mpi/ghosts.h), not through MPIAIJ's scatter */
  PetscBool  ghost_peer;     /* mpi: that exchange copies between the GPUs of one node (CUDA IPC) where it can */
  PetscBool  edge_rows;      /* mpi, peer path: the diagonal block's edge rows run with the off-diagonal block on
                                the exchange's stream, beside its other rows (mpi/cuda/multparts.c) */
  PetscReal  pin_mib;        /* page-lock the host's value array for copies of new values from this many MiB
                                (negative: never; seq/cuda/aijtunedpin.c) */
} MatAIJTunedSettings;

typedef struct _n_AIJTunedDevice *AIJTunedDevice; /* device copies of the layouts (seq/cuda/) */

/* The names each type's state is composed on its matrix under (aijtunedcontext.c) */
#define MATSEQAIJTUNED_STATE "Mat_SeqAIJTuned"
#define MATMPIAIJTUNED_STATE "Mat_MPIAIJTuned"

/* What an in-place conversion replaced, to call it and to put it back; and the type's state it belongs to, which
   the matrix holds in a container (aijtunedcontext.c) */
typedef struct MatAIJTunedBase_s {
  struct _MatOps ops; /* the base type's operations, called for everything aijtuned does not change */
  PetscErrorCode (*coo_preallocation)(Mat, PetscCount, PetscInt[], PetscInt[]); /* the base's COO assembly, */
  PetscErrorCode (*coo_values)(Mat, const PetscScalar[], InsertMode);          /* composed on the matrix */
  PetscErrorCode (*store_values)(Mat);    /* MatStoreValues and MatRetrieveValues, composed too; NULL where */
  PetscErrorCode (*retrieve_values)(Mat); /* aijtuned keeps the base's (mpiaijtuned: its blocks are aijtuned) */
  char           type[64];
  void          *ctx;                     /* the state this is part of ... */
  PetscErrorCode (*free_ctx)(void *ctx);  /* ... and how it is freed, when its container goes */
  Mat            owner;                   /* the matrix, as of the last time it found this state */
  PetscBool      merged;                  /* MatHeaderMerge() gave the matrix new data (and a new pattern) */
  struct MatAIJTunedBase_s *next;         /* every state alive, for MatHeaderMerge()'s destroy */
} MatAIJTunedBase;

typedef struct {
  MatAIJTunedSettings settings;
  MatAIJTunedBase     base;
  PetscBool           base_host_kernel; /* the base's MatMult takes host vectors (SeqAIJ; not SeqAIJCUSPARSE) */
  MatAIJTunedSettings planned; /* the settings the plan was made with */
  aijt_plan          *plan;
  aijt_layouts       *layouts;
  PetscObjectState    nonzerostate; /* pattern the plan was made for */
  PetscObjectState    state;        /* values the plan was brought up to (the device's copies follow at their upload) */
  PetscObjectState    host_state;   /* values the host layouts' slots hold, once filled: refreshed when read */
  PetscInt            nonzero_rows;
  PetscInt            plans_made;
  AIJTunedDevice      dev;
  aijt_int           *dev_rowptr, *dev_colidx; /* the CSR's structure on the GPU, from planning to the GPU build */
  PetscBool           structure_borrowed;       /* they are the base's (cuSPARSE's), never freed here */
  aijt_int           *dev_order, *dev_col_pos; /* the plan's order (NULL in natural order) and column order, left
                                                  on the GPU by its planner (plan->order, plan->col_pos NULL until
                                                  a host consumer fetches them); the device strips' rows are
                                                  pieces of dev_order (in natural order: none for DIA, the identity
                                                  in the upload's buffer for others) */
  struct aijt_dev_plan_job *plan_job; /* the GPU planner in its thread, from MatSeqAIJTunedCUDAPlanStart to ...PlanModel, */
  PetscObjectState    plan_job_pattern;  /* or, started before a COO assembly's values (MatSeqAIJTunedPlanBesideCOO), 1 + the */
  MatAIJTunedSettings plan_job_settings; /* pattern it plans and the settings it was started with (0: not so started) */
  double             *dev_values;    /* the CSR's values, uploaded beside that planner for the GPU build to take, */
  PetscObjectState    dev_values_state; /* and the state they are of */
  PetscLogDouble      plan_ms;       /* wall time of the last planning (AIJTunedPlan: the planner and the layouts or their skeleton;
                                        beside the values' upload, what the planner took beyond it) */
  PetscReal           tune_extra_ms; /* GPU time run-time tuning took beyond as many products of the kept
                                        parameters (aijtunedtune.c); 0 without tuning */
  PetscBool           tuning;        /* tuning has started and not ended */
  PetscObjectState    base_pattern;  /* 1 + the pattern the base's device matrix was seen made for (seq/cuda/aijtunedbasevalues.c) */
  PetscObjectState    diag_pattern;  /* 1 + the pattern whose rows all hold their diagonal entry (MatShift on the GPU,
                                        aijtuneddiagonal.c); 0 where none was found so */
  const void         *pinned;        /* the host's value array as registered with CUDA (aijtunedpin.c), NULL if none, */
  size_t              pinned_bytes;  /* its bytes, */
  const void         *pin_refused;   /* and the array whose registration failed last; */
  const void         *pin_candidate; /* an array too small to page-lock at once (aijtunedpin.c), */
  PetscInt            pin_copies;    /* and its copies of new values in a row */
  PetscInt            no_room_plan;  /* 1 + plans_made where the strips found no room on the GPU, at the values */
  PetscObjectState    no_room_state; /* of this state: the base's kernel multiplies until new values or a new plan
                                        (seq/cuda/aijtunedcuda.c); 0: none */
  size_t              pool_idle;     /* the device pool's unused bytes when the setup of a new pattern began, */
  PetscBool           pool_marked;   /* noted (seq/cuda/aijtunedpool.c): its end gives back what it left beyond them */
  size_t              pool_left;     /* bytes freed to the pool since, outside a setup (values no strip reads): the next
                                        mark counts them as the matrix's, not as the pool's own unused memory */
} Mat_SeqAIJTuned;

/* Blocks of two MPI matrices (Y's diagonal and off-diagonal, X's) as they were: object ids and pattern states */
typedef struct {
  PetscObjectId    id[4];
  PetscObjectState state[4];
} MatAIJTunedPatternKey;

typedef struct {
  MatAIJTunedSettings settings;
  MatAIJTunedBase     base;
  PetscErrorCode (*base_preallocation)(Mat, PetscInt, const PetscInt[], PetscInt, const PetscInt[]);
  struct AIJTunedGhosts_s *ghosts; /* MatMult's ghost exchange, made at the first product of each pattern */
  MatAIJTunedPatternKey    axpy_same; /* the blocks MatAXPY last found of one pattern here (mpi/samepattern.c) */
} Mat_MPIAIJTuned;

PETSC_INTERN PetscLogEvent MAT_AIJTuned_Plan, MAT_AIJTuned_Build, MAT_AIJTuned_Refresh, MAT_AIJTuned_Upload, MAT_AIJTuned_Tune, MAT_AIJTuned_Ghosts;

/* The base constructors: exported by libpetsc, declared only in its private headers. */
PETSC_EXTERN PetscErrorCode MatCreate_SeqAIJ(Mat);
PETSC_EXTERN PetscErrorCode MatCreate_MPIAIJ(Mat);

PETSC_INTERN PetscErrorCode MatCreate_SeqAIJTuned(Mat);
PETSC_INTERN PetscErrorCode MatCreate_MPIAIJTuned(Mat);
PETSC_INTERN PetscErrorCode MatConvert_SeqAIJ_SeqAIJTuned(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatConvert_MPIAIJ_MPIAIJTuned(Mat, MatType, MatReuse, Mat *);

PETSC_INTERN void           MatAIJTunedSettingsDefault(MatAIJTunedSettings *);
PETSC_INTERN PetscErrorCode MatAIJTunedSettingsFromOptions(AIJTunedOptionItems, MatAIJTunedSettings *);
PETSC_INTERN PetscErrorCode MatAIJTunedSettingsRead(Mat, MatAIJTunedSettings *);
PETSC_INTERN PetscErrorCode MatAIJTunedSettingsReadNow(Mat, MatAIJTunedSettings *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedSetSettings(Mat, const MatAIJTunedSettings *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedGetContext(Mat, Mat_SeqAIJTuned **);
/* A's operation op hooked: the base's kept in base->ops (unless op is fn already, hooked at an earlier call) and
   fn put in its place; with if_base, none where the base has none */
#define MatAIJTunedHookOp(A, base, op, fn, if_base) \
  do { \
    if ((A)->ops->op != (fn)) (base)->ops.op = (A)->ops->op; \
    (A)->ops->op = (if_base) && !(base)->ops.op ? NULL : (fn); \
  } while (0)
/* The base's operations aijtuned keeps, under the base's name where a debug PETSc checks it (seq/aijtunedbaseops.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedHookBaseOps(Mat, Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedBaseMultOnDevice(Mat, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedUpdate(Mat);
/* Before a COO assembly gives the values (aijtunedcoo.c): the planning the assembly's end would do, begun now where
   it can run beside them (seq/aijtuned.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedPlanBesideCOO(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedGetCSR(Mat, aijt_csr *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedGetStructure(Mat, aijt_csr *);
/* How a product reaches its vectors' arrays: the host's (MatAIJTunedHostArrays) or the device's (MatAIJTunedCUDAArrays,
   seq/cuda/aijtunedparts.c), with PETSc's accessors of the one or the other */
typedef struct {
  PetscErrorCode (*get_read)(Vec, const PetscScalar **);
  PetscErrorCode (*get)(Vec, PetscScalar **);
  PetscErrorCode (*get_write)(Vec, PetscScalar **);
  PetscErrorCode (*restore_read)(Vec, const PetscScalar **);
  PetscErrorCode (*restore)(Vec, PetscScalar **);
  PetscErrorCode (*restore_write)(Vec, PetscScalar **);
} MatAIJTunedVecAccess;
PETSC_INTERN const MatAIJTunedVecAccess MatAIJTunedHostArrays;
/* The arrays of y = A x (z NULL) or y = A x + z: x read, y written, or read and written where z is y (*za is then *ya) */
PETSC_INTERN PetscErrorCode MatAIJTunedGetVecArrays(const MatAIJTunedVecAccess *, Vec, Vec, Vec, const PetscScalar **, const PetscScalar **, PetscScalar **);
PETSC_INTERN PetscErrorCode MatAIJTunedRestoreVecArrays(const MatAIJTunedVecAccess *, Vec, Vec, Vec, const PetscScalar **, const PetscScalar **, PetscScalar **);
PETSC_INTERN PetscErrorCode MatAIJTunedVecsAreCUDA(Vec, Vec, Vec, PetscBool *); /* every vector given (z may be NULL) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedRestoreCSR(Mat, aijt_csr *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedViewPlan(Mat, PetscViewer, PetscBool synchronized);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedPlannedWith(Mat_SeqAIJTuned *, char[], size_t); /* the view's "planned with:" line */
PETSC_INTERN PetscErrorCode MatAIJTunedCheck(aijt_err);
PETSC_INTERN PetscBool      MatAIJTunedSettingsSamePlan(const MatAIJTunedSettings *, const MatAIJTunedSettings *);

/* Whether ctx's plan is that of A as it is now but for its values: made for A's pattern with the current settings */
static inline PetscBool MatSeqAIJTunedPlanCurrent(Mat A, const Mat_SeqAIJTuned *ctx)
{
  return (PetscBool)(ctx->plan && ctx->nonzerostate == A->nonzerostate && MatAIJTunedSettingsSamePlan(&ctx->planned, &ctx->settings));
}
PETSC_INTERN PetscErrorCode MatAIJTunedModelGet(const MatAIJTunedSettings *, const aijt_model **);
PETSC_INTERN PetscErrorCode MatAIJTunedCachePath(const MatAIJTunedSettings *, char[], size_t);
PETSC_INTERN PetscErrorCode MatAIJTunedCacheGet(const char[], const aijt_tune_cache **);
PETSC_INTERN PetscErrorCode MatAIJTunedCacheStore(const char[], const aijt_tune_entry[], PetscInt);
PETSC_INTERN PetscErrorCode MatAIJTunedCacheFlush(void);
PETSC_INTERN PetscErrorCode MatAIJTunedContextAttach(Mat, const char[], MatAIJTunedBase *, void *, PetscErrorCode (*)(void *));
PETSC_INTERN PetscErrorCode MatAIJTunedContextFind(Mat, const char[], void **);
PETSC_INTERN PetscErrorCode MatAIJTunedBaseFind(Mat, MatAIJTunedBase **, PetscBool *);
PETSC_INTERN PetscErrorCode MatAIJTunedContextGet(Mat, const char[], const char[], void **);
PETSC_INTERN PetscErrorCode MatAIJTunedBaseRecord(Mat, MatAIJTunedBase *);
PETSC_INTERN void           MatAIJTunedHookDestroy(Mat, const MatAIJTunedBase *, PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode MatAIJTunedDestroyMerged(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatAIJTunedHostValuesCurrent(Mat);
PETSC_INTERN PetscErrorCode MatAIJTunedHostValuesChanged(Mat);
PETSC_INTERN PetscErrorCode MatAIJTunedHostValuesUp(Mat); /* a seq matrix's */
/* Matrices carrying their base's type name for now (aijtunednames.c), and the names they had; n = 0 to begin.  At
   most a product's three operands and its result, each an MPI matrix with its two blocks. */
typedef struct {
  Mat   mats[12];
  char *names[12];
  int   n;
} MatAIJTunedNames;
PETSC_INTERN PetscErrorCode MatAIJTunedNameAsBase(Mat, MatAIJTunedNames *);
PETSC_INTERN PetscErrorCode MatAIJTunedNameAsBaseAlone(Mat, MatAIJTunedNames *); /* an MPI matrix without its blocks */
PETSC_INTERN PetscErrorCode MatAIJTunedNameAsHostAIJ(Mat, MatAIJTunedNames *); /* seqaij or mpiaij, blocks too */
/* call (a PetscErrorCode expression) with M, and M2 unless NULL or M, under their base's names (rename:
   MatAIJTunedNameAsBase or ...Alone), which come back whatever call did */
#define MatAIJTunedAsBase(M, M2, rename, call) \
  do { \
    MatAIJTunedNames names_ = {.n = 0}; \
    PetscErrorCode   ierr_; \
    PetscCall(rename((M), &names_)); \
    if ((M2) && (M2) != (M)) PetscCall(rename((M2), &names_)); \
    ierr_ = (call); \
    PetscCall(MatAIJTunedNamesRestore(&names_)); \
    PetscCall(ierr_); \
  } while (0)
/* The same in a debug PETSc alone, whose cuSPARSE code checks that name (PetscCheckTypeName); an optimized PETSc
   compiles those checks out, and there nothing is renamed or allocated (seq/aijtunedbaseops.c) */
#define MatAIJTunedDebugAsBase(M, M2, rename, call) \
  do { \
    if (PetscDefined(USE_DEBUG)) MatAIJTunedAsBase(M, M2, rename, call); \
    else PetscCall(call); \
  } while (0)
/* COO assembly through the base's composed functions, under its name in a debug PETSc (aijtunedcoo.c): hooked on A
   after each base call that may compose them, with preallocation MatAIJTunedCOOPreallocation or one that calls it */
PETSC_INTERN PetscErrorCode MatAIJTunedHookCOO(Mat, MatAIJTunedBase *, PetscErrorCode (*preallocation)(Mat, PetscCount, PetscInt[], PetscInt[]));
PETSC_INTERN PetscErrorCode MatAIJTunedCOOPreallocation(Mat, PetscCount, PetscInt[], PetscInt[]);
PETSC_INTERN PetscErrorCode MatAIJTunedRestoreCOO(Mat, const MatAIJTunedBase *);
/* A composed function of A hooked: the base's kept, another put in its place, and given back (aijtunedcontext.c) */
PETSC_INTERN PetscErrorCode MatAIJTunedHookComposed(Mat, const char[], void (**)(void), void (*)(void));
PETSC_INTERN PetscErrorCode MatAIJTunedRestoreComposed(Mat, const char[], void (*)(void));
/* MatStoreValues and MatRetrieveValues of a seqaijtuned matrix through the host's values (seq/aijtunedstore.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedHookStore(Mat, MatAIJTunedBase *);
PETSC_INTERN PetscErrorCode MatAIJTunedRestoreStore(Mat, const MatAIJTunedBase *);
PETSC_INTERN PetscErrorCode MatAIJTunedNamesRestore(MatAIJTunedNames *);
PETSC_INTERN PetscErrorCode MatAIJTunedProductSetFromOptions(Mat);
PETSC_INTERN PetscErrorCode MatAIJTunedFactorRegister(void);
PETSC_INTERN PetscErrorCode MatAIJTunedRecordAttach(PetscObject, const char[], size_t, void **);
PETSC_INTERN PetscErrorCode MatAIJTunedRecordFind(PetscObject, const char[], void **);
PETSC_INTERN PetscErrorCode MatAIJTunedCheckScalar(Mat);
PETSC_INTERN PetscErrorCode MatAIJTunedCheckNotMatrixFree(Mat);
PETSC_INTERN PetscErrorCode MatAIJTunedAllRanks(MPI_Comm, PetscBool *); /* *flag on every rank of comm */
PETSC_INTERN PetscErrorCode MatAIJTunedConvertTarget(Mat, MatReuse, Mat *, PetscBool *);
PETSC_INTERN PetscErrorCode MatAIJTunedGPUBase(Mat *);
PETSC_INTERN PetscErrorCode MatAIJTunedFromBase(Mat *); /* a base type's matrix made aijtuned in place */
PETSC_INTERN PetscErrorCode MatAIJTunedWatchDM(Mat); /* a DM's interpolations aijtuned too (aijtunedinterp.c) */
PETSC_INTERN const char *const MatAIJTunedInterpolationTypes[3]; /* -mat_aijtuned_dm_interpolation */
PETSC_INTERN PetscErrorCode MatAIJTunedBaseRestore(Mat, const char[], const char *const[3], const MatAIJTunedBase *);
PETSC_INTERN PetscErrorCode MatMPIAIJTunedSamePattern(Mat, Mat, MatAIJTunedPatternKey *, PetscBool *);

#if defined(PETSC_HAVE_CUDA)
PETSC_EXTERN PetscErrorCode MatCreate_SeqAIJCUSPARSE(Mat);
PETSC_EXTERN PetscErrorCode MatCreate_MPIAIJCUSPARSE(Mat);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAUsable(Mat, Mat_SeqAIJTuned *, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedMultCUDA(Mat, Mat_SeqAIJTuned *, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAFree(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAStripNote(Mat_SeqAIJTuned *, int, char[], size_t);
PETSC_INTERN size_t         MatSeqAIJTunedCUDABytes(const Mat_SeqAIJTuned *);
PETSC_INTERN PetscBool      MatSeqAIJTunedCUDANoRoom(const Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatAIJTunedCUDADeviceName(char[], size_t);
PETSC_INTERN PetscErrorCode MatAIJTunedCUDACheckKernels(void); /* this GPU runs aijtuned's kernels, or PETSC_ERR_SUP_SYS */
PETSC_INTERN void           MatAIJTunedCUDAStageFree(void);
PETSC_INTERN PetscBool      MatSeqAIJTunedCUDABuilds(Mat, Mat_SeqAIJTuned *);
PETSC_INTERN PetscBool      MatSeqAIJTunedCUDABuildsFromDeviceValues(Mat, Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPlanStart(Mat, Mat_SeqAIJTuned *, const aijt_csr *, const aijt_model *, PetscObjectState, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPlanBesideCOO(Mat, Mat_SeqAIJTuned *, const aijt_csr *, const aijt_model *, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPlanModel(Mat, Mat_SeqAIJTuned *, const aijt_csr *, const aijt_model *, aijt_err *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAFreeStructure(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDASkeleton(Mat_SeqAIJTuned *, const aijt_csr *, aijt_err *, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAFetchPlan(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAFreePlan(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAHoldsMatrix(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDACurrent(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAScaleDeferrable(Mat, PetscScalar, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAScale(Mat, Mat_SeqAIJTuned *, PetscScalar);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAShift(Mat, Mat_SeqAIJTuned *, PetscScalar, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAShiftable(Mat, Mat_SeqAIJTuned *, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAGetDiagonal(Mat, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAZeroEntries(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDABaseValuesUp(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPin(Mat, Mat_SeqAIJTuned *, const void *, size_t, PetscBool);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAUnpin(Mat, Mat_SeqAIJTuned *);
/* What a setup, or the matrix's end, frees on the device given back to it, not kept in PETSc's memory pool
   (seq/cuda/aijtunedpool.c): the pool's unused bytes noted at the start, and the pool trimmed back to them */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPoolMark(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPoolGiveBack(Mat, Mat_SeqAIJTuned *);
#endif
