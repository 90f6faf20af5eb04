static char help[] = "MatMult and Krylov solves of aijcusparse, sellcuda and aijtuned on one MPI rank per GPU, all formats in\n\
the same job: time per MatMult and where it goes (diagonal block, ghost scatter, off-diagonal block), CG + Jacobi\n\
on the 3-D 7-point Poisson matrix (weak and strong scaling), GMRES(30) + Jacobi on an irregular matrix.\n\
  -weak <n>                : Poisson on an n x n x (n * ranks) grid, n^3 rows per rank (default 160: 4.1M; 0 skips)\n\
  -strong <n>              : Poisson on an n^3 grid in all (default 256: 16.8M rows; 0 skips)\n\
  -irregular <name[:size]> : a generated matrix of bench/gen, built alike on every rank (default rmat:22, 4.2M rows; none skips)\n\
  -types <a,b,...>         : formats (root names), the first is the reference (default aijcusparse,sellcuda,aijtuned;\n\
                             aij,sell,aijtuned with a PETSc without CUDA, which checks the program, not a GPU);\n\
                             aijtuned+scatter is aijtuned with MPIAIJ's scatter instead of its own ghost exchange,\n\
                             aijtuned+staged that exchange through host memory instead of between the GPUs,\n\
                             aijtuned+whole the product whole, the diagonal block's edge rows not apart\n\
  -reps <n>, -warmup <n>   : timed and untimed calls per measurement (default 100 and 10)\n\
  -ksp <bool>              : run the solves (default true)\n\
  -csv <file>              : append a line per problem and format (rank 0 writes; the header when the file is empty)\n\
KSP options through the prefixes poisson_ and irregular_ (defaults: rtol 1e-8, GMRES at most 1000 iterations).\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif
#include "matgen.h"

#if PETSC_VERSION_LT(3, 20, 0)
/* PETSc 3.18 exports it without declaring it */
PETSC_EXTERN PetscErrorCode MatMPISELLGetSeqSELL(Mat, Mat *, Mat *, const PetscInt *[]);
#endif

#define MAX_TYPES 8

/* This rank's rows of a square problem: CSR with global column indices, rows in one contiguous block. */
typedef struct {
  char         name[64], title[256];
  const char  *prefix; /* of the KSP options */
  PetscBool    gmres;
  PetscInt     M, m, rstart;
  PetscInt    *ia, *ja;
  PetscScalar *a;
  PetscInt64   nnz; /* all ranks */
} Problem;

typedef enum {
  PART_MULT,    /* MatMult of the distributed matrix */
  PART_LOCAL,   /* the diagonal block's MatMult alone */
  PART_SCATTER, /* the ghost values into lvec alone */
  PART_OFFDIAG, /* the off-diagonal block's MatMultAdd on lvec alone */
  NPARTS
} Part;

/* A matrix and what its parts run on.  Ad and Ao are A's own blocks (borrowed); on one rank Ad is A. */
typedef struct {
  Mat        A, Ad, Ao;
  Vec        x, y, xd, yd, lvec;
  VecScatter ghosts; /* x -> lvec with the pattern of A's own scatter */
  KSP        ksp;
  Vec        b, u, r;
} Work;

typedef struct {
  PetscBool          ran, solved;
  PetscReal          build_s, us[NPARTS], batch_us; /* NaN: not measured */
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          res, bnorm, solve_s;
} Result;

typedef struct {
  PetscInt        warmup, reps;
  PetscBool       ksp;
  PetscLogDouble *t; /* reps */
  FILE           *csv;
} Settings;

static PetscErrorCode DeviceSynchronize(void)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  PetscCallCUDA(cudaDeviceSynchronize()); /* every stream: sellcuda launches on the legacy default stream */
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A time on this rank that starts with the device idle and all ranks released from one barrier. */
static PetscErrorCode StartClock(MPI_Comm comm, PetscLogDouble *t0)
{
  PetscFunctionBegin;
  PetscCall(DeviceSynchronize());
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds since t0 once this rank's device is idle, as the slowest rank saw them. */
static PetscErrorCode StopClock(MPI_Comm comm, PetscLogDouble t0, PetscReal *s)
{
  PetscLogDouble t1, d;

  PetscFunctionBegin;
  PetscCall(DeviceSynchronize());
  PetscCall(PetscTime(&t1));
  d = t1 - t0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, comm));
  *s = (PetscReal)d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ problems */

/* Rows [start, start + m) of M in contiguous blocks that differ by at most one row. */
static void Split(PetscInt M, PetscMPIInt size, PetscMPIInt rank, PetscInt *start, PetscInt *m)
{
  *m     = M / size + (rank < M % size);
  *start = rank * (M / size) + PetscMin(rank, M % size);
}

static PetscErrorCode ProblemAllocate(Problem *P, PetscInt64 nnz)
{
  PetscFunctionBegin;
  PetscCheck(nnz <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %" PetscInt64_FMT " nonzeros on one rank exceed PetscInt", P->name, nnz);
  PetscCall(PetscMalloc1(P->m + 1, &P->ia));
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), &P->ja));
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), &P->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProblemFree(Problem *P)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(P->ia));
  PetscCall(PetscFree(P->ja));
  PetscCall(PetscFree(P->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The 7-point Poisson matrix of an nx x ny x nz grid (x fastest), the operator's values as in bench/gen
  (-1 off the diagonal, 6 on it), each rank building only its own z-planes: contiguous row blocks whose
  ghosts are one plane below and one above.
*/
static PetscErrorCode PoissonCreate(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscInt nz, Problem *P)
{
  const PetscInt64 plane = (PetscInt64)nx * ny, M = plane * nz;
  PetscMPIInt      size, rank;
  PetscInt         z0, nzl, k = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCheck(nx > 0 && ny > 0 && nz > 0 && M <= PETSC_MAX_INT, comm, PETSC_ERR_ARG_OUTOFRANGE, "Poisson grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " is empty or exceeds PetscInt", nx, ny, nz);
  Split(nz, size, rank, &z0, &nzl);
  P->M      = (PetscInt)M;
  P->m      = (PetscInt)(plane * nzl);
  P->rstart = (PetscInt)(plane * z0);
  P->prefix = "poisson_";
  P->gmres  = PETSC_FALSE;
  PetscCall(ProblemAllocate(P, 7 * (PetscInt64)P->m));
  P->ia[0] = 0;
  for (PetscInt z = z0; z < z0 + nzl; z++)
    for (PetscInt y = 0; y < ny; y++)
      for (PetscInt x = 0; x < nx; x++) {
        const PetscInt i = (PetscInt)((z * ny + y) * (PetscInt64)nx + x);
        const PetscInt cand[7] = {z > 0 ? i - (PetscInt)plane : -1, y > 0 ? i - nx : -1, x > 0 ? i - 1 : -1, i, x < nx - 1 ? i + 1 : -1, y < ny - 1 ? i + nx : -1, z < nz - 1 ? i + (PetscInt)plane : -1};
        for (int c = 0; c < 7; c++) /* increasing columns */
          if (cand[c] >= 0) {
            P->ja[k]  = cand[c];
            P->a[k++] = c == 3 ? 6.0 : -1.0;
          }
        P->ia[i - P->rstart + 1] = k;
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A generated matrix (bench/gen/matgen: fixed seed, so every rank builds the same one), of which each rank
  keeps its block of rows.  Every rank holds the whole matrix while it is generated: rmat:22 (4.2M rows,
  69M nonzeros) takes about 1.5 GB and 10 s per rank.
*/
static PetscErrorCode IrregularCreate(MPI_Comm comm, const char spec[], Problem *P)
{
  char               base[64];
  const char        *colon = strchr(spec, ':');
  long long          size  = 0;
  const matgen_info *info;
  matgen_csr         G;
  matgen_err         err;
  PetscMPIInt        nranks, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &nranks));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscStrncpy(base, spec, colon ? PetscMin((size_t)(colon - spec) + 1, sizeof(base)) : sizeof(base)));
  info = matgen_find(base);
  PetscCheck(info, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "No generated matrix named %s (bench/README.md lists them)", base);
  if (colon) PetscCheck(sscanf(colon + 1, "%lld", &size) == 1 && size > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Bad size in %s: give name:size with size > 0", spec);
  err = matgen_generate(base, (int64_t)size, &G);
  PetscCheck(!err, PETSC_COMM_SELF, err == MATGEN_ERR_MEM ? PETSC_ERR_MEM : PETSC_ERR_ARG_OUTOFRANGE, "Generating %s: %s", spec, matgen_strerror(err));
  PetscCheck(G.nrows == G.ncols && G.nrows <= PETSC_MAX_INT, comm, PETSC_ERR_ARG_SIZ, "%s: the solves need a square matrix within PetscInt", spec);
  P->M      = (PetscInt)G.nrows;
  P->prefix = "irregular_";
  P->gmres  = PETSC_TRUE;
  Split(P->M, nranks, rank, &P->rstart, &P->m);
  PetscCall(ProblemAllocate(P, G.rowptr[P->rstart + P->m] - G.rowptr[P->rstart]));
  for (PetscInt i = 0; i <= P->m; i++) P->ia[i] = (PetscInt)(G.rowptr[P->rstart + i] - G.rowptr[P->rstart]);
  for (PetscInt k = 0; k < P->ia[P->m]; k++) {
    P->ja[k] = (PetscInt)G.col[G.rowptr[P->rstart] + k];
    P->a[k]  = (PetscScalar)G.val[G.rowptr[P->rstart] + k];
  }
  matgen_free(&G);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem's header: sizes, balance, and how much of it couples ranks. */
static PetscErrorCode ProblemDescribe(MPI_Comm comm, Problem *P, PetscReal gen_s)
{
  PetscInt64  loc[3] = {P->ia[P->m], 0, P->m}, sum[3], max[3], min[3];
  PetscMPIInt size;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < P->ia[P->m]; k++) loc[1] += P->ja[k] < P->rstart || P->ja[k] >= P->rstart + P->m;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Allreduce(loc, sum, 3, MPIU_INT64, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(loc, max, 3, MPIU_INT64, MPI_MAX, comm));
  PetscCallMPI(MPI_Allreduce(loc, min, 3, MPIU_INT64, MPI_MIN, comm));
  P->nnz = sum[0];
  PetscCall(PetscPrintf(comm, "\n== %s: %s, %" PetscInt_FMT " rows, %" PetscInt64_FMT " nonzeros on %d ranks (built in %.1f s)\n", P->name, P->title, P->M, P->nnz, size, (double)gen_s));
  PetscCall(PetscPrintf(comm, "   per rank: %" PetscInt64_FMT "-%" PetscInt64_FMT " rows, %" PetscInt64_FMT "-%" PetscInt64_FMT " nonzeros; off-diagonal blocks hold %.2f%% of the nonzeros\n", min[2], max[2], min[0], max[0], 100.0 * (double)sum[1] / (double)PetscMax(sum[0], 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ matrices and their parts */

/*
  A matrix of the given type holding P, filled as an application fills it.  AIJ types get the CSR through
  MatXAIJSetPreallocationCSR (aijtuned plans its blocks in that assembly).  SELL types are preallocated
  per row and get MatSetValues row by row: PETSc's MPIAIJ -> MPISELL converter runs on an assembled
  off-diagonal block whose columns are already compressed, which MPISELL's assembly then reads as global.
*/
static PetscErrorCode CreateMat(MPI_Comm comm, const Problem *P, const char type[], Mat *A)
{
  /* variants of aijtuned: MPIAIJ's scatter in place of its own ghost exchange; that exchange staged through host
     memory; the product whole, its diagonal block's edge rows not apart (mpi/cuda/multparts.c) */
  const struct {
    const char *suffix, *option;
  } variants[] = {
    {"+scatter", "-mat_aijtuned_ghost_exchange"},
    {"+staged", "-mat_aijtuned_ghost_peer"   },
    {"+whole",  "-mat_aijtuned_edge_rows"    },
  };
  MatType     t;
  PetscBool   sell, is = PETSC_FALSE;
  const char *option = NULL;
  char        name[64];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, type, sizeof(name)));
  for (size_t v = 0; v < PETSC_STATIC_ARRAY_LENGTH(variants) && !option; v++) {
    PetscCall(PetscStrendswith(name, variants[v].suffix, &is));
    if (is) {
      name[strlen(name) - strlen(variants[v].suffix)] = 0;
      option                                          = variants[v].option;
    }
  }
  PetscCheck(!strchr(name, '+'), comm, PETSC_ERR_ARG_WRONG, "Unknown variant in -types %s: the variants are <type>+scatter, <type>+staged and <type>+whole", type);
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, P->m, P->m, P->M, P->M));
  PetscCall(MatSetType(*A, name));
  if (option) PetscCall(PetscOptionsSetValue(NULL, option, "0"));
  PetscCall(MatSetFromOptions(*A)); /* -mat_aijtuned_*, -mat_view; aijtuned keeps what it read */
  if (option) PetscCall(PetscOptionsClearValue(NULL, option));
  PetscCall(MatGetType(*A, &t));
  PetscCall(PetscStrbeginswith(t, MATSEQSELL, &sell));
  if (!sell) PetscCall(PetscStrbeginswith(t, MATMPISELL, &sell));
  if (sell) {
    PetscInt *dn, *on, dmax = 0, omax = 0;

    PetscCall(PetscMalloc2(P->m, &dn, P->m, &on));
    for (PetscInt i = 0; i < P->m; i++) {
      dn[i] = on[i] = 0;
      for (PetscInt k = P->ia[i]; k < P->ia[i + 1]; k++) {
        if (P->ja[k] >= P->rstart && P->ja[k] < P->rstart + P->m) dn[i]++;
        else on[i]++;
      }
      dmax = PetscMax(dmax, dn[i]);
      omax = PetscMax(omax, on[i]);
    }
    PetscCall(MatSeqSELLSetPreallocation(*A, dmax, dn));
    PetscCall(MatMPISELLSetPreallocation(*A, dmax, dn, omax, on));
    PetscCall(PetscFree2(dn, on));
    PetscCall(MatSetOption(*A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
    for (PetscInt i = 0; i < P->m; i++) {
      const PetscInt row = P->rstart + i;
      PetscCall(MatSetValues(*A, 1, &row, P->ia[i + 1] - P->ia[i], P->ja + P->ia[i], P->a + P->ia[i], INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  } else {
    PetscCall(MatSeqAIJSetPreallocationCSR(*A, P->ia, P->ja, P->a)); /* one rank: global columns are local ones */
    PetscCall(MatMPIAIJSetPreallocationCSR(*A, P->ia, P->ja, P->a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A's diagonal and off-diagonal blocks; NULL where A is neither MPIAIJ nor MPISELL.  MatMPISELLGetSeqSELL()
  accepts only the exact type mpisell, so a derived SELL type (mpisellcuda: the same structure) goes under
  that name for the call.
*/
static PetscErrorCode GetBlocks(Mat A, Mat *Ad, Mat *Ao)
{
  MatType   type;
  PetscBool aij, sell;
  char      saved[64];

  PetscFunctionBegin;
  *Ad = *Ao = NULL;
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscStrbeginswith(type, MATMPIAIJ, &aij));
  PetscCall(PetscStrbeginswith(type, MATMPISELL, &sell));
  if (aij) PetscCall(MatMPIAIJGetSeqAIJ(A, Ad, Ao, NULL));
  else if (sell) {
    PetscCall(PetscStrncpy(saved, type, sizeof(saved))); /* type is freed by the renaming */
    PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATMPISELL));
    PetscCall(MatMPISELLGetSeqSELL(A, Ad, Ao, NULL));
    PetscCall(PetscObjectChangeTypeName((PetscObject)A, saved));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Vectors for A and its parts: x and y in A's layout, device vectors where PETSc has CUDA, x with
  reproducible values; on several ranks the diagonal block's own x and y (x's local values), lvec and a
  scatter x -> lvec made from MatGetGhosts() as MPIAIJ and MPISELL make their own (MatSetUpMultiply_*:
  the ghosts' global indices into a sequential vector in order).  That scatter is private to MPIAIJ
  (mpiaij.h is not installed), so this one, with the same pattern, stands in for it.
*/
static PetscErrorCode WorkSetUp(const Problem *P, Work *w)
{
  const VecType      vtype = PetscDefined(HAVE_CUDA) ? VECCUDA : VECSTANDARD, stype = PetscDefined(HAVE_CUDA) ? VECSEQCUDA : VECSEQ;
  MPI_Comm           comm  = PetscObjectComm((PetscObject)w->A);
  PetscMPIInt        size;
  PetscScalar       *xa;
  const PetscScalar *xr;
  const PetscInt    *ghosts;
  PetscInt           ng, nao;
  IS                 from;

  PetscFunctionBegin;
  PetscCall(VecCreate(comm, &w->x));
  PetscCall(VecSetSizes(w->x, P->m, P->M));
  PetscCall(VecSetType(w->x, vtype));
  PetscCall(VecDuplicate(w->x, &w->y));
  PetscCall(VecGetArrayWrite(w->x, &xa));
  for (PetscInt i = 0; i < P->m; i++) xa[i] = (PetscScalar)matgen_unit(7, P->rstart + i);
  PetscCall(VecRestoreArrayWrite(w->x, &xa));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) { /* the whole matrix is local: no scatter, no off-diagonal block */
    w->Ad = w->A;
    PetscCall(PetscObjectReference((PetscObject)w->x));
    PetscCall(PetscObjectReference((PetscObject)w->y));
    w->xd = w->x;
    w->yd = w->y;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(GetBlocks(w->A, &w->Ad, &w->Ao));
  if (!w->Ad) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecCreate(PETSC_COMM_SELF, &w->xd));
  PetscCall(VecSetSizes(w->xd, P->m, P->m));
  PetscCall(VecSetType(w->xd, stype));
  PetscCall(VecDuplicate(w->xd, &w->yd));
  PetscCall(VecGetArrayRead(w->x, &xr));
  PetscCall(VecGetArrayWrite(w->xd, &xa));
  PetscCall(PetscArraycpy(xa, xr, P->m));
  PetscCall(VecRestoreArrayWrite(w->xd, &xa));
  PetscCall(VecRestoreArrayRead(w->x, &xr));
  PetscCall(MatGetGhosts(w->A, &ng, &ghosts));
  PetscCall(MatGetLocalSize(w->Ao, NULL, &nao));
  PetscCheck(nao == ng, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The off-diagonal block has %" PetscInt_FMT " columns for %" PetscInt_FMT " ghosts", nao, ng);
  PetscCall(VecCreate(PETSC_COMM_SELF, &w->lvec));
  PetscCall(VecSetSizes(w->lvec, ng, ng));
  PetscCall(VecSetType(w->lvec, stype));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, ng, ghosts, PETSC_COPY_VALUES, &from));
  PetscCall(VecScatterCreate(w->x, from, w->lvec, NULL, &w->ghosts));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees whatever is there, after an error too. */
static PetscErrorCode WorkClear(Work *w)
{
  PetscFunctionBegin;
  PetscCall(KSPDestroy(&w->ksp));
  PetscCall(VecScatterDestroy(&w->ghosts));
  PetscCall(VecDestroy(&w->x));
  PetscCall(VecDestroy(&w->y));
  PetscCall(VecDestroy(&w->xd));
  PetscCall(VecDestroy(&w->yd));
  PetscCall(VecDestroy(&w->lvec));
  PetscCall(VecDestroy(&w->b));
  PetscCall(VecDestroy(&w->u));
  PetscCall(VecDestroy(&w->r));
  PetscCall(MatDestroy(&w->A));
  PetscCall(PetscMemzero(w, sizeof(*w)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool HasPart(const Work *w, Part part)
{
  return (PetscBool)(part == PART_MULT || (part == PART_LOCAL && w->Ad) || (part >= PART_SCATTER && w->Ao));
}

static PetscErrorCode RunPart(Work *w, Part part)
{
  PetscFunctionBegin;
  switch (part) {
  case PART_MULT:
    PetscCall(MatMult(w->A, w->x, w->y));
    break;
  case PART_LOCAL:
    PetscCall(MatMult(w->Ad, w->xd, w->yd));
    break;
  case PART_SCATTER:
    PetscCall(VecScatterBegin(w->ghosts, w->x, w->lvec, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(w->ghosts, w->x, w->lvec, INSERT_VALUES, SCATTER_FORWARD));
    break;
  case PART_OFFDIAG:
    PetscCall(MatMultAdd(w->Ao, w->lvec, w->yd, w->yd));
    break;
  default:
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareDouble(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/*
  Time per call of one part: each call starts with the device idle and the ranks leaving one barrier and
  ends when the rank's device is idle again; a call counts as long as its slowest rank took, and the result
  is the median over the calls.  The synchronizations add the same few microseconds (a launch that calls
  back to back would hide) to every part and format alike; TimeBatch shows the calls back to back.
  Parts are timed alone, so on several ranks local + scatter + off-diagonal exceeds MatMult by the overlap
  of the scatter with the local product.
*/
static PetscErrorCode TimeCalls(MPI_Comm comm, Work *w, Part part, const Settings *s, PetscReal *us)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < s->warmup; i++) PetscCall(RunPart(w, part));
  for (PetscInt i = 0; i < s->reps; i++) {
    PetscLogDouble t0, t1;
    PetscCall(StartClock(comm, &t0));
    PetscCall(RunPart(w, part));
    PetscCall(DeviceSynchronize());
    PetscCall(PetscTime(&t1));
    s->t[i] = t1 - t0;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s->t, (PetscMPIInt)s->reps, MPI_DOUBLE, MPI_MAX, comm));
  qsort(s->t, (size_t)s->reps, sizeof(*s->t), CompareDouble);
  *us = 1e6 * (PetscReal)(s->reps % 2 ? s->t[s->reps / 2] : 0.5 * (s->t[s->reps / 2 - 1] + s->t[s->reps / 2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reps MatMults back to back, as a solver issues them, between one barrier and one synchronization. */
static PetscErrorCode TimeBatch(MPI_Comm comm, Work *w, const Settings *s, PetscReal *us)
{
  PetscLogDouble t0;
  PetscReal      sec;

  PetscFunctionBegin;
  PetscCall(StartClock(comm, &t0));
  for (PetscInt i = 0; i < s->reps; i++) PetscCall(RunPart(w, PART_MULT));
  PetscCall(StopClock(comm, t0, &sec));
  *us = 1e6 * sec / (PetscReal)s->reps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CG (Poisson) or GMRES(30) (irregular) + Jacobi from a zero initial guess, b = A * ones (the row sums,
  the same for every format).  KSPSetUp and a two-iteration solve go first, untimed (work vectors, first
  reductions); the timed solve runs between StartClock and StopClock.  Then the true residual |b - A u|.
*/
static PetscErrorCode Solve(const Problem *P, Work *w, Result *r)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)w->A);
  PC             pc;
  PetscScalar   *ba;
  PetscReal      rtol, abstol, dtol;
  PetscInt       maxit;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(w->x, &w->b));
  PetscCall(VecDuplicate(w->x, &w->u));
  PetscCall(VecDuplicate(w->x, &w->r));
  PetscCall(VecGetArrayWrite(w->b, &ba));
  for (PetscInt i = 0; i < P->m; i++) {
    ba[i] = 0.0;
    for (PetscInt k = P->ia[i]; k < P->ia[i + 1]; k++) ba[i] += P->a[k];
  }
  PetscCall(VecRestoreArrayWrite(w->b, &ba));
  PetscCall(VecNorm(w->b, NORM_2, &r->bnorm));
  PetscCall(KSPCreate(comm, &w->ksp));
  PetscCall(KSPSetOptionsPrefix(w->ksp, P->prefix));
  PetscCall(KSPSetOperators(w->ksp, w->A, w->A));
  PetscCall(KSPGetPC(w->ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetType(w->ksp, P->gmres ? KSPGMRES : KSPCG));
  if (P->gmres) PetscCall(KSPGMRESSetRestart(w->ksp, 30));
  PetscCall(KSPGetTolerances(w->ksp, &rtol, &abstol, &dtol, &maxit));
  PetscCall(KSPSetTolerances(w->ksp, 1e-8, abstol, dtol, P->gmres ? 1000 : maxit)); /* a hard matrix stops instead of taking the run's time */
  PetscCall(KSPSetFromOptions(w->ksp));
  PetscCall(KSPSetUp(w->ksp));

  PetscCall(KSPGetTolerances(w->ksp, &rtol, &abstol, &dtol, &maxit));
  PetscCall(KSPSetTolerances(w->ksp, rtol, abstol, dtol, 2));
  PetscCall(VecSet(w->u, 0.0));
  PetscCall(KSPSolve(w->ksp, w->b, w->u));
  PetscCall(KSPSetTolerances(w->ksp, rtol, abstol, dtol, maxit));

  PetscCall(VecSet(w->u, 0.0));
  PetscCall(StartClock(comm, &t0));
  PetscCall(KSPSolve(w->ksp, w->b, w->u));
  PetscCall(StopClock(comm, t0, &r->solve_s));
  PetscCall(KSPGetIterationNumber(w->ksp, &r->its));
  PetscCall(KSPGetConvergedReason(w->ksp, &r->reason));
  PetscCall(MatMult(w->A, w->u, w->r));
  PetscCall(VecAYPX(w->r, -1.0, w->b));
  PetscCall(VecNorm(w->r, NORM_2, &r->res));
  r->solved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The parts must add up to MatMult, or their times describe something else: the diagonal block's product,
  the scatter and the off-diagonal block's MatMultAdd once more, against this rank's rows of A x.
*/
static PetscErrorCode CheckParts(MPI_Comm comm, Work *w)
{
  const PetscScalar *y, *yd;
  PetscInt           n;
  PetscReal          d[2] = {0, 0};

  PetscFunctionBegin;
  if (!w->Ao) PetscFunctionReturn(PETSC_SUCCESS);
  for (int p = PART_LOCAL; p <= PART_OFFDIAG; p++) PetscCall(RunPart(w, (Part)p));
  PetscCall(RunPart(w, PART_MULT));
  PetscCall(VecGetLocalSize(w->y, &n));
  PetscCall(VecGetArrayRead(w->y, &y));
  PetscCall(VecGetArrayRead(w->yd, &yd));
  for (PetscInt i = 0; i < n; i++) {
    d[0] = PetscMax(d[0], PetscAbsScalar(y[i] - yd[i]));
    d[1] = PetscMax(d[1], PetscAbsScalar(y[i]));
  }
  PetscCall(VecRestoreArrayRead(w->yd, &yd));
  PetscCall(VecRestoreArrayRead(w->y, &y));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, d, 2, MPIU_REAL, MPI_MAX, comm));
  if (!(d[0] <= 1e-10 * d[1])) PetscCall(PetscPrintf(comm, "   WARNING: the parts differ from MatMult by %.3e of max |A x|: their times do not describe this MatMult\n", (double)(d[0] / d[1])));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One format on one problem: build, the parts' times, the solve. */
static PetscErrorCode RunType(MPI_Comm comm, const Problem *P, const char type[], const Settings *s, PetscBool describe, Work *w, Result *r)
{
  PetscLogDouble t0;

  PetscFunctionBegin;
  for (int p = 0; p < NPARTS; p++) r->us[p] = NAN;
  r->batch_us = NAN;
  PetscCall(StartClock(comm, &t0));
  PetscCall(CreateMat(comm, P, type, &w->A));
  PetscCall(StopClock(comm, t0, &r->build_s));
  PetscCall(WorkSetUp(P, w));
  if (describe && w->Ao) {
    PetscInt   nloc;
    PetscInt64 ng, stat[2];
    PetscCall(VecGetSize(w->lvec, &nloc));
    ng = nloc;
    PetscCallMPI(MPI_Allreduce(&ng, &stat[0], 1, MPIU_INT64, MPI_MAX, comm));
    PetscCallMPI(MPI_Allreduce(&ng, &stat[1], 1, MPIU_INT64, MPI_SUM, comm));
    PetscCall(PetscPrintf(comm, "   ghost values per MatMult: %" PetscInt64_FMT " on the busiest rank, %" PetscInt64_FMT " in all (%.1f MB; without CUDA-aware MPI they pass through the host)\n", stat[0], stat[1], 8e-6 * (double)stat[1]));
  }
  for (int p = 0; p < NPARTS; p++)
    if (HasPart(w, (Part)p)) PetscCall(TimeCalls(comm, w, (Part)p, s, &r->us[p]));
  PetscCall(TimeBatch(comm, w, s, &r->batch_us));
  PetscCall(CheckParts(comm, w));
  r->ran = PETSC_TRUE;
  if (s->ksp) PetscCall(Solve(P, w, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ report */

/* v in fmt, or none where it was not measured (NaN) */
static const char *Cell(char buf[], size_t len, const char *fmt, PetscReal v, const char *none)
{
  if (PetscIsInfOrNanReal(v)) snprintf(buf, len, "%s", none);
  else snprintf(buf, len, fmt, (double)v);
  return buf;
}

/* aijtuned (or any format) against the reference: the same iterations, true residuals within 1e-6 relatively. */
static const char *Agreement(const Result *r, const Result *ref, PetscBool is_ref)
{
  PetscReal d;

  if (!r->solved) return "";
  if (is_ref) return "ref";
  if (!ref->solved) return "";
  d = PetscAbsReal(r->res - ref->res) / PetscMax(ref->res, PETSC_SMALL * ref->bnorm);
  return r->its == ref->its && d < 1e-6 ? "MATCH" : "DIFFERS";
}

static PetscErrorCode Report(MPI_Comm comm, const Problem *P, PetscInt ntypes, char *types[], const Result res[], FILE *csv)
{
  const Result *ref = &res[0];
  PetscMPIInt   size;
  char          c[NPARTS + 1][32]; /* the parts, then the batch */

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscPrintf(comm, "%-16s %8s %10s %9s %9s %10s %10s %7s | %6s %-20s %10s %9s %8s  %s\n", "format", "build s", "MatMult us", "batch us", "local us", "scatter us", "offdiag us", "speedup", "its", "reason", "|b - A x|", "solve s", "us/it", "vs reference"));
  for (PetscInt f = 0; f < ntypes; f++) {
    const Result *r = &res[f];
    const char   *agree = Agreement(r, ref, (PetscBool)(f == 0));
    char          speed[32], its[32] = "-", res_s[32] = "-", solve[32] = "-", perit[32] = "-";

    if (!r->ran) {
      PetscCall(PetscPrintf(comm, "%-16s (did not run: see above)\n", types[f]));
      continue;
    }
    for (int p = 0; p < NPARTS; p++) Cell(c[p], sizeof(c[p]), "%.1f", r->us[p], "-");
    Cell(c[NPARTS], sizeof(c[NPARTS]), "%.1f", r->batch_us, "-");
    Cell(speed, sizeof(speed), "%.2f", ref->ran ? ref->us[PART_MULT] / r->us[PART_MULT] : NAN, "-");
    if (r->solved) {
      PetscCall(PetscSNPrintf(its, sizeof(its), "%" PetscInt_FMT, r->its));
      PetscCall(PetscSNPrintf(res_s, sizeof(res_s), "%.4e", (double)r->res));
      PetscCall(PetscSNPrintf(solve, sizeof(solve), "%.4f", (double)r->solve_s));
      PetscCall(PetscSNPrintf(perit, sizeof(perit), "%.1f", 1e6 * (double)r->solve_s / (double)PetscMax(r->its, 1)));
    }
    PetscCall(PetscPrintf(comm, "%-16s %8.2f %10s %9s %9s %10s %10s %7s | %6s %-20s %10s %9s %8s  %s\n", types[f], (double)r->build_s, c[PART_MULT], c[NPARTS], c[PART_LOCAL], c[PART_SCATTER], c[PART_OFFDIAG], speed, its, r->solved ? KSPConvergedReasons[r->reason] : "-", res_s, solve, perit, agree));
    if (csv) {
      /* problem,ranks,rows,nnz,type,mult_us,local_us,scatter_us,offdiag_us,ksp_its,ksp_res,ksp_s,batch_us,ksp_match,build_s */
      for (int p = 0; p < NPARTS; p++) Cell(c[p], sizeof(c[p]), "%.3f", r->us[p], "");
      Cell(c[NPARTS], sizeof(c[NPARTS]), "%.3f", r->batch_us, "");
      PetscCall(PetscFPrintf(comm, csv, "%s,%d,%" PetscInt_FMT ",%" PetscInt64_FMT ",%s,%s,%s,%s,%s,", P->name, size, P->M, P->nnz, types[f], c[PART_MULT], c[PART_LOCAL], c[PART_SCATTER], c[PART_OFFDIAG]));
      if (r->solved) PetscCall(PetscFPrintf(comm, csv, "%" PetscInt_FMT ",%.6e,%.6f,", r->its, (double)r->res, (double)r->solve_s));
      else PetscCall(PetscFPrintf(comm, csv, ",,,"));
      PetscCall(PetscFPrintf(comm, csv, "%s,%s,%.3f\n", c[NPARTS], agree, (double)r->build_s));
    }
  }
  if (csv) (void)fflush(csv); /* a run cut short by a time limit keeps its finished problems (rank 0 alone holds the file) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ the run */

/*
  Each rank's device, as PETSc chose it (PetscDeviceInitialize: by default rank % devices visible to the
  rank, -device_select_cuda <id> forces one), and a warning where two ranks of one host share a GPU.
*/
static PetscErrorCode ShowBinding(MPI_Comm comm)
{
  char        host[64] = "", bus[32] = "-", name[256] = "no CUDA", key[96], *all = NULL, version[MPI_MAX_LIBRARY_VERSION_STRING];
  const char *visible = getenv("CUDA_VISIBLE_DEVICES");
  int         dev = -1, ndev = 0, len;
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscGetHostName(host, sizeof(host)));
#if PetscDefined(HAVE_CUDA)
  {
    struct cudaDeviceProp prop;
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaGetDeviceCount(&ndev));
    PetscCallCUDA(cudaDeviceGetPCIBusId(bus, sizeof(bus), dev));
    PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s, %.1f GiB", prop.name, (double)prop.totalGlobalMem / 1073741824.0));
  }
#endif
  PetscCallMPI(MPI_Get_library_version(version, &len));
  version[strcspn(version, "\n")] = 0;
  PetscCall(PetscPrintf(comm, "%d ranks; MPI: %s\n", size, version));
  PetscCall(PetscSynchronizedPrintf(comm, "rank %d: host %s, CUDA device %d of %d, PCI bus %s, %s, CUDA_VISIBLE_DEVICES=%s\n", rank, host, dev, ndev, bus, name, visible ? visible : "(unset)"));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscCall(PetscSNPrintf(key, sizeof(key), "%s %s", host, bus));
  if (!rank) PetscCall(PetscMalloc1(sizeof(key) * (size_t)size, &all));
  PetscCallMPI(MPI_Gather(key, sizeof(key), MPI_CHAR, all, sizeof(key), MPI_CHAR, 0, comm));
  for (PetscMPIInt i = 0; !rank && i < size; i++)
    for (PetscMPIInt j = 0; j < i; j++)
      if (PetscDefined(HAVE_CUDA) && !strcmp(all + i * sizeof(key), all + j * sizeof(key))) PetscCall(PetscPrintf(PETSC_COMM_SELF, "WARNING: ranks %d and %d share the GPU %s: the times are not one rank per GPU\n", j, i, all + i * sizeof(key)));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every format on one problem; a format that fails leaves the others to run. */
static PetscErrorCode RunProblem(MPI_Comm comm, Problem *P, PetscInt ntypes, char *types[], const PetscBool avail[], const Settings *s)
{
  Result    res[MAX_TYPES];
  PetscBool described = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt f = 0; f < ntypes; f++) {
    Work           w;
    PetscErrorCode ierr;

    PetscCall(PetscMemzero(&w, sizeof(w)));
    PetscCall(PetscMemzero(&res[f], sizeof(res[f])));
    if (!avail[f]) continue;
    ierr = RunType(comm, P, types[f], s, (PetscBool)!described, &w, &res[f]); /* not PetscCall(): see above */
    described = PETSC_TRUE;
    if (ierr) {
#if PetscDefined(HAVE_CUDA)
      (void)cudaGetLastError();
#endif
      PetscCall(PetscPrintf(comm, "   %s stopped by PETSc error %d (its figures are left out)\n", types[f], (int)ierr));
      res[f].ran = res[f].solved = PETSC_FALSE;
    }
    ierr = WorkClear(&w);
    if (ierr) PetscCall(PetscPrintf(comm, "   freeing the %s run failed (PETSc error %d)\n", types[f], (int)ierr));
  }
  PetscCall(Report(comm, P, ntypes, types, res, s->csv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each format once on a small problem: CUDA contexts, libraries and kernels load here, not in the first
   problem's times, and a format this PETSc cannot run (sellcuda) is found and left out with a note. */
static PetscErrorCode WarmUp(MPI_Comm comm, PetscInt ntypes, char *types[], PetscBool avail[])
{
  Problem     P;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&P, sizeof(P)));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PoissonCreate(comm, 16, 16, 16 * size, &P));
  for (PetscInt f = 0; f < ntypes; f++) {
    Work           w;
    PetscErrorCode ierr;
    PetscReal      norm;

    PetscCall(PetscMemzero(&w, sizeof(w)));
    ierr = CreateMat(comm, &P, types[f], &w.A);
    if (!ierr) ierr = WorkSetUp(&P, &w);
    for (int p = 0; p < NPARTS && !ierr; p++)
      if (HasPart(&w, (Part)p)) ierr = RunPart(&w, (Part)p);
    if (!ierr) ierr = VecNorm(w.y, NORM_2, &norm);
    avail[f] = (PetscBool)!ierr;
    if (ierr) {
#if PetscDefined(HAVE_CUDA)
      (void)cudaGetLastError();
#endif
      PetscCall(PetscPrintf(comm, "NOTE: %s is left out: it failed on the warm-up problem (PETSc error %d)\n", types[f], (int)ierr));
    }
    PetscCall(WorkClear(&w));
  }
  PetscCall(ProblemFree(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char           irregular[64] = "rmat:22", csvname[PETSC_MAX_PATH_LEN] = "", *types[MAX_TYPES];
  PetscInt       weak = 160, strong = 256, ntypes = MAX_TYPES;
  PetscBool      set, avail[MAX_TYPES];
  Settings       s = {.warmup = 10, .reps = 100, .ksp = PETSC_TRUE, .t = NULL, .csv = NULL};
  MPI_Comm       comm;
  PetscMPIInt    size, rank;
  PetscLogDouble t0;

  setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a time limit still leaves every finished line */
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-weak", &weak, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-strong", &strong, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-irregular", irregular, sizeof(irregular), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &s.reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &s.warmup, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ksp", &s.ksp, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &ntypes, &set));
  if (!set) {
    const char *def[3] = {PetscDefined(HAVE_CUDA) ? "aijcusparse" : "aij", PetscDefined(HAVE_CUDA) ? "sellcuda" : "sell", "aijtuned"};
    ntypes = 3;
    for (int f = 0; f < 3; f++) PetscCall(PetscStrallocpy(def[f], &types[f]));
  }
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_type", &set));
  PetscCheck(!set, comm, PETSC_ERR_ARG_WRONG, "bench_scaling compares the formats of -types: leave -mat_type out");
  PetscCheck(weak >= 0 && strong >= 0 && s.reps >= 1 && s.warmup >= 0 && ntypes >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "Need -weak, -strong, -warmup >= 0, -reps >= 1 and at least one type");
  PetscCall(PetscMalloc1(s.reps, &s.t));
  if (csvname[0]) {
    PetscCall(PetscFOpen(comm, csvname, "a", &s.csv));
    if (!rank && (fseek(s.csv, 0, SEEK_END) || ftell(s.csv) == 0)) PetscCall(PetscFPrintf(PETSC_COMM_SELF, s.csv, "problem,ranks,rows,nnz,type,mult_us,local_us,scatter_us,offdiag_us,ksp_its,ksp_res,ksp_s,batch_us,ksp_match,build_s\n"));
  }

  PetscCall(ShowBinding(comm));
  PetscCall(PetscPrintf(comm, "times: MatMult and its parts per call, each call between a device synchronization + barrier and a device synchronization, the slowest rank, median of %" PetscInt_FMT " after %" PetscInt_FMT " untimed; batch: %" PetscInt_FMT " calls back to back\n", s.reps, s.warmup, s.reps));
  PetscCall(WarmUp(comm, ntypes, types, avail));
  for (int which = 0; which < 3; which++) {
    Problem   P;
    PetscReal gen_s;

    PetscCall(PetscMemzero(&P, sizeof(P)));
    if ((which == 0 && !weak) || (which == 1 && !strong) || (which == 2 && (!irregular[0] || !strcmp(irregular, "none")))) continue;
    PetscCall(StartClock(comm, &t0));
    if (which == 0) {
      PetscCall(PetscSNPrintf(P.name, sizeof(P.name), "poisson-weak"));
      PetscCall(PetscSNPrintf(P.title, sizeof(P.title), "CG + Jacobi, 3-D 7-point Poisson %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " in z-slabs", weak, weak, weak * size));
      PetscCall(PoissonCreate(comm, weak, weak, weak * size, &P));
    } else if (which == 1) {
      PetscCall(PetscSNPrintf(P.name, sizeof(P.name), "poisson-strong"));
      PetscCall(PetscSNPrintf(P.title, sizeof(P.title), "CG + Jacobi, 3-D 7-point Poisson %" PetscInt_FMT "^3 in z-slabs", strong));
      PetscCall(PoissonCreate(comm, strong, strong, strong, &P));
    } else {
      PetscCall(PetscStrncpy(P.name, irregular, sizeof(P.name)));
      PetscCall(PetscSNPrintf(P.title, sizeof(P.title), "GMRES(30) + Jacobi, %s generated on every rank, rows in contiguous blocks", irregular));
      PetscCall(IrregularCreate(comm, irregular, &P));
    }
    PetscCall(StopClock(comm, t0, &gen_s));
    PetscCall(ProblemDescribe(comm, &P, gen_s));
    PetscCall(RunProblem(comm, &P, ntypes, types, avail, &s));
    PetscCall(ProblemFree(&P));
  }
  if (csvname[0]) PetscCall(PetscFClose(comm, s.csv));
  for (PetscInt f = 0; f < ntypes; f++) PetscCall(PetscFree(types[f]));
  PetscCall(PetscFree(s.t));
  PetscCall(PetscFinalize());
  return 0;
}
