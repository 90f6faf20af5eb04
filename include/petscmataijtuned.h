/* aijtuned: a PETSc matrix type whose MatMult runs each row strip in its best storage format. */
#pragma once

#include <petscmat.h>

/* PETSc 3.18 (Debian's) predates PETSC_SUCCESS; aijtuned's code and examples use the newer spelling. */
#if PETSC_VERSION_LT(3, 19, 0) && !defined(PETSC_SUCCESS)
  #define PETSC_SUCCESS 0
#endif

/*MC
   MATAIJTUNED - "aijtuned" - AIJ whose MatMult runs a plan of row strips, each in its own format.

   A root name: `MATSEQAIJTUNED` on one rank, `MATMPIAIJTUNED` (MPIAIJ whose diagonal and off-diagonal
   blocks are `MATSEQAIJTUNED`) on several.  Every operation other than MatMult and MatMultAdd is AIJ's.

   Options Database Keys:
+  -mat_type aijtuned                 - use this type
.  -mat_aijtuned_planner <model>      - plan with the calibrated performance model (the rules where there is none), or with the rules
.  -mat_aijtuned_model <file>         - the model file (default: this GPU's in the models directory, or the nearest)
.  -mat_aijtuned_tune <false>         - tune each strip's threads, lanes (STREAM) or blocks per row on the GPU during the first products
.  -mat_aijtuned_tune_calls <6>       - products tuning may time
.  -mat_aijtuned_formats <csr,long,ell,sell,coo,dia,panel,stream> - layouts the planner may choose
.  -mat_aijtuned_sort <true>          - order rows by decreasing length before cutting strips
.  -mat_aijtuned_host_strips <false>  - with host vectors, run MatMult through the strips' host reference
.  -mat_aijtuned_long_row <512>       - rows with at least this many entries are long (seed 003's T_LONG)
.  -mat_aijtuned_min_strip_rows <128> - smaller strips join a neighbour (unless they hold 32 times as many entries)
.  -mat_aijtuned_min_strip_share <0.01> - a strip needs at least this fraction of the matrix's entries
.  -mat_aijtuned_ell_max_pad <0.1>    - ELL for strips whose padding is at most this fraction of entries
.  -mat_aijtuned_sell_max_len <16>    - SELL (and ELL) for strips whose longest row has at most this many entries
.  -mat_aijtuned_sell_big_rows <65536> - SELL also for rows up to 8 times sell_max_len in strips of at least this many rows
.  -mat_aijtuned_sell_chunk <32>      - rows per SELL slice (C)
.  -mat_aijtuned_sell_sigma <256>     - SELL sorting window for plans in natural order (sigma)
-  -mat_aijtuned_dia_min_fill <0.75>  - DIA (the whole matrix, at most 32 diagonals) when entries fill this share of the diagonals
-  -mat_aijtuned_panel_min_len <8>    - PANEL (the whole matrix in column panels, x of at least 4 panels) when rows hold this many entries per panel

   Level: beginner

.seealso: `MatAIJTunedInitializePackage()`, `MATAIJ`, `MATAIJCUSPARSE`
M*/
#define MATAIJTUNED    "aijtuned"
#define MATSEQAIJTUNED "seqaijtuned"
#define MATMPIAIJTUNED "mpiaijtuned"

/* Registers the types; a program linked with libaijtuned calls it once after PetscInitialize(). */
PETSC_EXTERN PetscErrorCode MatAIJTunedInitializePackage(void);

/* Reads a Matrix Market coordinate file (.mtx or .mtx.gz) into a new assembled matrix of the given type. */
PETSC_EXTERN PetscErrorCode MatAIJTunedLoadMatrixMarket(MPI_Comm, const char[], MatType, Mat *);

/* This rank's strips in the current plan(s), and how many plans were made since the matrix was created
   (a values-only re-assembly keeps the plan; a changed pattern makes a new one). */
PETSC_EXTERN PetscErrorCode MatAIJTunedGetPlanStats(Mat, PetscInt *, PetscInt *);
/* What this rank's last set-up cost: the wall time of planning (ms), the GPU time that run-time tuning
   took beyond as many products of the parameters it kept (ms), and whether tuning is still going on. */
PETSC_EXTERN PetscErrorCode MatAIJTunedGetSetupTimes(Mat, PetscReal *, PetscReal *, PetscBool *);
