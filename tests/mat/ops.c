static char help[] = "aijtuned behaves as AIJ for every operation, keeps its plan when only values change and re-plans\n\
when the pattern changes.  Each check compares an aijtuned matrix with an AIJ twin.\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet: the state a preconditioner's set-up compares */
#include "../common/testreport.h"
#include <unistd.h> /* getpid: the binary file's name */

/* A variable-width band with a few long rows, the same on any number of ranks. */
static PetscErrorCode Fill(Mat A, PetscScalar scale, PetscBool extra)
{
  PetscInt M, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt w = i % 50 == 0 ? 60 : 1 + i % 4;
    for (PetscInt j = PetscMax(0, i - w); j <= PetscMin(M - 1, i + w); j++) PetscCall(MatSetValue(A, i, j, scale * (i == j ? 10.0 : 1.0 / (1.0 + i + j)), INSERT_VALUES));
    if (extra) PetscCall(MatSetValue(A, i, PetscMin(rend - 1, i + 5), 0.5, INSERT_VALUES)); /* new entries in this rank's diagonal block */
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, PetscInt M, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, M));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 130, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 130, NULL, 130, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M's rows of a symmetric, diagonally dominant tridiagonal matrix (4 + i on the diagonal, -1 beside it), assembled;
   row skip without its diagonal entry (-1: none) */
static PetscErrorCode FillTridiagonal(Mat M, PetscInt skip)
{
  PetscInt lo, hi, N;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(M, &lo, &hi));
  PetscCall(MatGetSize(M, &N, NULL));
  for (PetscInt i = lo; i < hi; i++) {
    if (i != skip) PetscCall(MatSetValue(M, i, i, 4.0 + i, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(M, i, i - 1, -1.0, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(M, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On this rank alone: that tridiagonal matrix of n rows, as AIJ (S) and aijtuned (St) */
static PetscErrorCode Tridiagonal(PetscInt n, Mat *S, Mat *St)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, S));
  PetscCall(FillTridiagonal(*S, -1));
  PetscCall(MatSetOption(*S, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatConvert(*S, MATAIJTUNED, MAT_INITIAL_MATRIX, St));
  PetscCall(MatSetOption(*St, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A x, A x + y and A^T x of two matrices agree to rounding; each matrix works on its own vector type */
static PetscErrorCode SameProducts(Mat A, Mat B, PetscBool *same)
{
  Vec       xa, ya, xb, yb, ta, sa, tb, sb;
  PetscReal d, scale, worst = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(MatCreateVecs(B, &xb, &yb));
  PetscCall(MatCreateVecs(A, &sa, &ta));
  PetscCall(MatCreateVecs(B, &sb, &tb));
  PetscCall(VecSetRandom(xa, NULL));
  PetscCall(VecCopy(xa, xb));
  PetscCall(VecSetRandom(ta, NULL));
  PetscCall(VecCopy(ta, tb));
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(B, xb, yb));
  PetscCall(MaxDiff(ya, yb, &d, &scale));
  worst = PetscMax(worst, d / scale);
  PetscCall(MatMultAdd(A, xa, ya, ya));
  PetscCall(MatMultAdd(B, xb, yb, yb));
  PetscCall(MaxDiff(ya, yb, &d, &scale));
  worst = PetscMax(worst, d / scale);
  PetscCall(MatMultTranspose(A, ta, sa));
  PetscCall(MatMultTranspose(B, tb, sb));
  PetscCall(MaxDiff(sa, sb, &d, &scale));
  worst = PetscMax(worst, d / scale);
  *same = (PetscBool)(worst <= 1e-12);
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&yb));
  PetscCall(VecDestroy(&ta));
  PetscCall(VecDestroy(&sa));
  PetscCall(VecDestroy(&tb));
  PetscCall(VecDestroy(&sb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A host vector (PETSc's standard type) with the layout of M's rows (rows) or columns */
static PetscErrorCode HostVec(Mat M, PetscBool rows, Vec *v)
{
  PetscInt m, n;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(M, &m, &n));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)M), v));
  PetscCall(VecSetSizes(*v, rows ? m : n, PETSC_DETERMINE));
  PetscCall(VecSetType(*v, VECSTANDARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A x, A x + z, A x + y in place, A^T x, A^T x + z and A^T x + y in place of two matrices on host vectors agree to
   rounding.  On a CUDA build the base's kernel reads device arrays only: aijtuned takes host vectors on the host. */
static PetscErrorCode SameProductsOnHostVectors(Mat A, Mat B, PetscBool *same)
{
  Vec       x, u, z, w, ya, yb, sa, sb;
  PetscReal d, scale, worst = 0;

  PetscFunctionBeginUser;
  PetscCall(HostVec(A, PETSC_FALSE, &x));
  PetscCall(HostVec(A, PETSC_TRUE, &u));
  PetscCall(HostVec(A, PETSC_TRUE, &z));
  PetscCall(HostVec(A, PETSC_FALSE, &w));
  PetscCall(VecDuplicate(z, &ya));
  PetscCall(VecDuplicate(z, &yb));
  PetscCall(VecDuplicate(w, &sa));
  PetscCall(VecDuplicate(w, &sb));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(VecSetRandom(u, NULL));
  PetscCall(VecSetRandom(z, NULL));
  PetscCall(VecSetRandom(w, NULL));
  for (int op = 0; op < 6; op++) {
    Vec ra = op < 3 ? ya : sa, rb = op < 3 ? yb : sb;
    if (op % 3 == 2) { /* in place: the result starts as the added vector */
      PetscCall(VecCopy(op < 3 ? z : w, ra));
      PetscCall(VecCopy(op < 3 ? z : w, rb));
    }
    switch (op) {
    case 0:
      PetscCall(MatMult(A, x, ya));
      PetscCall(MatMult(B, x, yb));
      break;
    case 1:
      PetscCall(MatMultAdd(A, x, z, ya));
      PetscCall(MatMultAdd(B, x, z, yb));
      break;
    case 2:
      PetscCall(MatMultAdd(A, x, ya, ya));
      PetscCall(MatMultAdd(B, x, yb, yb));
      break;
    case 3:
      PetscCall(MatMultTranspose(A, u, sa));
      PetscCall(MatMultTranspose(B, u, sb));
      break;
    case 4:
      PetscCall(MatMultTransposeAdd(A, u, w, sa));
      PetscCall(MatMultTransposeAdd(B, u, w, sb));
      break;
    default:
      PetscCall(MatMultTransposeAdd(A, u, sa, sa));
      PetscCall(MatMultTransposeAdd(B, u, sb, sb));
    }
    PetscCall(MaxDiff(ra, rb, &d, &scale));
    if (d > 1e-12 * scale) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  host vectors, product %d: difference %g of %g\n", op, (double)d, (double)scale));
    worst = PetscMax(worst, d / scale);
  }
  *same = (PetscBool)(worst <= 1e-12);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yb));
  PetscCall(VecDestroy(&sa));
  PetscCall(VecDestroy(&sb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatGetDiagonal of A and of B equal, bit for bit, each into a vector of its own type (a CUDA vector for a GPU
   type: aijtuned then reads its diagonal on the GPU where its values are there) */
static PetscErrorCode SameDiagonals(Mat A, Mat B, PetscBool *same)
{
  Vec da, db;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, NULL, &da));
  PetscCall(MatCreateVecs(B, NULL, &db));
  PetscCall(MatGetDiagonal(A, da));
  PetscCall(MatGetDiagonal(B, db));
  PetscCall(VecEqual(da, db, same));
  PetscCall(VecDestroy(&da));
  PetscCall(VecDestroy(&db));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A block's products equal those of its host AIJ copy (MatConvert reads the host arrays) */
static PetscErrorCode BlockProductOk(Mat sub, PetscBool *ok)
{
  Mat       H;
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(sub, MATSEQAIJ, MAT_INITIAL_MATRIX, &H));
  PetscCall(SameProducts(H, sub, &same));
  if (!same) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  a block's products differ from its host copy's\n"));
  *ok = (PetscBool)(*ok && same);
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AllRanks(PetscBool *flag)
{
  PetscInt all = *flag ? 1 : 0; /* PetscBool's MPI type differs between PETSc versions */

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
  *flag = all ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IsType(Mat A, const char *seq, const char *mpi, PetscBool *ok)
{
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, size == 1 ? seq : mpi, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B is of type seq (one rank) or mpi (several) and multiplies as A does */
static PetscErrorCode TypeAndProducts(Mat A, Mat B, const char *seq, const char *mpi, PetscBool *ok)
{
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(IsType(B, seq, mpi, ok));
  PetscCall(SameProducts(A, B, &same));
  *ok = (PetscBool)(*ok && same);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A, T, D, C;
  Vec         d1, d2, l, r;
  PetscInt    M = 400, rstart, rend;
  PetscBool   ok;
  PetscInt    plans_before, plans_after, nstrips;
  PetscReal   err;
  PetscViewer viewer;
  char        binfile[64];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_host_strips", "1")); /* every product runs through the layouts */
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_min_strip_rows", "16"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_min_strip_share", "0"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_long_row", "64"));
  PetscCall(Create(MATAIJ, M, &A));
  PetscCall(Create(MATAIJTUNED, M, &T));
  PetscCall(Fill(A, 1.0, PETSC_FALSE));
  PetscCall(Fill(T, 1.0, PETSC_FALSE));
  PetscCall(IsType(T, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
  PetscCall(Report("root name aijtuned gives seqaijtuned / mpiaijtuned", ok));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatMult, MatMultAdd, MatMultTranspose", ok));
  { /* new values before the first product: those the first assembly uploaded beside the GPU planner are stale (the
       upload goes beside it from 1 MiB of values: about 4 MB here, over 1 MiB on each of 3 ranks) */
    Mat Ae, Te;
    PetscCall(Create(MATAIJ, 60000, &Ae));
    PetscCall(Create(MATAIJTUNED, 60000, &Te));
    PetscCall(Fill(Ae, 1.0, PETSC_FALSE));
    PetscCall(Fill(Te, 1.0, PETSC_FALSE));
    PetscCall(Fill(Ae, -4.0, PETSC_FALSE));
    PetscCall(Fill(Te, -4.0, PETSC_FALSE));
    PetscCall(SameProducts(Ae, Te, &ok));
    PetscCall(Report("new values before the first product", ok));
    PetscCall(MatDestroy(&Ae));
    PetscCall(MatDestroy(&Te));
  }
  { /* MatStoreValues and MatRetrieveValues, SNES's way to keep a Jacobian's linear part (PETSc's manual page): both
       read and write the host's value array directly, where the matrix's values may be newer on the GPU, and
       MatRetrieveValues changes no state.  Values are stored after products (values on both sides) and after a
       MatScale and MatShift (on the GPU alone there); each is retrieved, then multiplied with and without an assembly */
    Mat       Ae, Te;
    PetscBool all = PETSC_TRUE;
    PetscCall(Create(MATAIJ, M, &Ae));
    PetscCall(Create(MATAIJTUNED, M, &Te));
    for (int k = 0; k < 2; k++) {
      Mat X = k ? Te : Ae;
      PetscCall(Fill(X, 1.0, PETSC_FALSE));
      PetscCall(MatSetOption(X, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
      PetscCall(MatStoreValues(X));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    for (int k = 0; k < 2; k++) PetscCall(MatScale(k ? Te : Ae, 3.0));
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    for (int k = 0; k < 2; k++) {
      Mat X = k ? Te : Ae;
      PetscCall(MatRetrieveValues(X));
      PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    PetscCall(Report("MatStoreValues, MatScale, MatRetrieveValues, assembly", all));
    all = PETSC_TRUE;
    for (int k = 0; k < 2; k++) {
      Mat X = k ? Te : Ae;
      PetscCall(MatScale(X, -2.0));
      PetscCall(MatShift(X, 1.5));
      PetscCall(MatStoreValues(X)); /* the values of the scale and shift */
      PetscCall(MatScale(X, 4.0));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    for (int k = 0; k < 2; k++) PetscCall(MatRetrieveValues(k ? Te : Ae));
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    PetscCall(Report("MatStoreValues after MatScale and MatShift, MatRetrieveValues alone", all));
    all = PETSC_TRUE;
    for (int k = 0; k < 2; k++) { /* retrieved, then new values set as SNES's Jacobian would */
      Mat      X = k ? Te : Ae;
      PetscInt rs, re;
      PetscCall(MatRetrieveValues(X));
      PetscCall(MatGetOwnershipRange(X, &rs, &re));
      for (PetscInt i = rs; i < re; i += 7) PetscCall(MatSetValue(X, i, i, 0.25 * (PetscScalar)i, ADD_VALUES));
      PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    all = (PetscBool)(all && ok);
    PetscCall(Report("MatRetrieveValues, MatSetValues, assembly", all));
    /* back to the base type in place: its own store and retrieve again.  On a CUDA build PETSc converts the
       seqaijcusparse base to seqaij through a new matrix (it has no converter between them), which has the options
       set again, as with aijcusparse */
    PetscCall(MatConvert(Te, MATAIJ, MAT_INPLACE_MATRIX, &Te));
    for (int k = 0; k < 2; k++) {
      Mat X = k ? Te : Ae;
      PetscCall(MatSetOption(X, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
      PetscCall(MatScale(X, 0.5));
      PetscCall(MatStoreValues(X));
      PetscCall(MatScale(X, 3.0));
      PetscCall(MatRetrieveValues(X));
      PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    PetscCall(IsType(Te, MATSEQAIJ, MATMPIAIJ, &all));
    PetscCall(Report("MatConvert to aij in place, then its store and retrieve", (PetscBool)(ok && all)));
    PetscCall(MatDestroy(&Ae));
    PetscCall(MatDestroy(&Te));
  }
  { /* operations of SeqAIJ that read the host's value array directly, after values changed on the GPU alone (a CUDA
       base's MatScale): MatGetColumnNorms, and MatEliminateZeros, which compacts the arrays it reads */
    Mat        Ae, Te;
    PetscInt   N, rs, re;
    PetscReal *na, *nt;
    PetscCall(Create(MATAIJ, M, &Ae));
    PetscCall(Create(MATAIJTUNED, M, &Te));
    for (int k = 0; k < 2; k++) { /* explicit zeros: every fifth row's entry left of the diagonal */
      Mat X = k ? Te : Ae;
      PetscCall(Fill(X, 1.0, PETSC_FALSE));
      PetscCall(MatGetOwnershipRange(X, &rs, &re));
      for (PetscInt i = PetscMax(rs, 1); i < re; i++)
        if (i % 5 == 0) PetscCall(MatSetValue(X, i, i - 1, 0.0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    for (int k = 0; k < 2; k++) PetscCall(MatScale(k ? Te : Ae, 2.0));
    PetscCall(MatGetSize(Ae, NULL, &N));
    PetscCall(PetscMalloc2(N, &na, N, &nt));
    PetscCall(MatGetColumnNorms(Ae, NORM_1, na));
    PetscCall(MatGetColumnNorms(Te, NORM_1, nt));
    for (PetscInt j = 0; j < N && ok; j++) ok = (PetscBool)(PetscAbsReal(na[j] - nt[j]) <= 1e-14 * PetscAbsReal(na[j]));
    PetscCall(PetscFree2(na, nt));
    PetscCall(AllRanks(&ok));
    PetscCall(Report("MatScale, MatGetColumnNorms", ok));
  #if PETSC_VERSION_GE(3, 21, 0) /* its form since; PETSc 3.18 has none */
    PetscCall(MatScale(Ae, 1.5));
    PetscCall(MatScale(Te, 1.5));
    PetscCall(MatEliminateZeros(Ae, PETSC_FALSE));
    PetscCall(MatEliminateZeros(Te, PETSC_FALSE));
    PetscCall(SameProducts(Ae, Te, &ok));
    PetscCall(Report("MatScale, MatEliminateZeros", ok)); /* not in ops_0.out: CI's PETSc is 3.18 */
  #endif
    PetscCall(MatDestroy(&Ae));
    PetscCall(MatDestroy(&Te));
  }
#if PETSC_VERSION_GE(3, 24, 0) /* MatCreateGraph's arguments as PETSc 3.24 has them (3.18's had fewer); not in ops_0.out */
  { /* MatCreateGraph (PCGAMG's strength graph) sums 2 x 2 blocks' values from the host's array directly after a MatScale
       on the GPU; its check of the blocks reads every row through MatGetRow first, which brings them down */
    Mat      Ae, Te, Ga, Gt;
    PetscInt rs, re, nb = M / 2;
    for (int k = 0; k < 2; k++) {
      Mat *X = k ? &Te : &Ae;
      PetscCall(MatCreate(PETSC_COMM_WORLD, X));
      PetscCall(MatSetSizes(*X, PETSC_DECIDE, PETSC_DECIDE, M, M));
      PetscCall(MatSetBlockSize(*X, 2));
      PetscCall(MatSetType(*X, k ? MATAIJTUNED : MATAIJ));
      PetscCall(MatSeqAIJSetPreallocation(*X, 10, NULL));
      PetscCall(MatMPIAIJSetPreallocation(*X, 10, NULL, 10, NULL));
      PetscCall(MatGetOwnershipRange(*X, &rs, &re));
      for (PetscInt i = rs; i < re; i++) /* dense 2 x 2 blocks in a band of 5 block columns */
        for (PetscInt J = PetscMax(0, i / 2 - 2); J <= PetscMin(nb - 1, i / 2 + 2); J++)
          for (PetscInt c = 2 * J; c < 2 * J + 2; c++) PetscCall(MatSetValue(*X, i, c, i == c ? 8.0 : 1.0 / (1.0 + i + 2 * c), INSERT_VALUES));
      PetscCall(MatAssemblyBegin(*X, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(*X, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(SameProducts(Ae, Te, &ok));
    for (int k = 0; k < 2; k++) PetscCall(MatScale(k ? Te : Ae, 3.0));
    PetscCall(MatCreateGraph(Ae, PETSC_FALSE, PETSC_FALSE, -1.0, 0, NULL, &Ga));
    PetscCall(MatCreateGraph(Te, PETSC_FALSE, PETSC_FALSE, -1.0, 0, NULL, &Gt));
    { /* the graphs' products (each of its own type) */
      PetscBool same;
      PetscCall(SameProducts(Ga, Gt, &same));
      ok = (PetscBool)(ok && same);
    }
    PetscCall(Report("MatScale, MatCreateGraph of 2 x 2 blocks", ok));
    PetscCall(MatDestroy(&Ga));
    PetscCall(MatDestroy(&Gt));
    PetscCall(MatDestroy(&Ae));
    PetscCall(MatDestroy(&Te));
  }
#endif
  PetscCall(SameProductsOnHostVectors(A, T, &ok));
  PetscCall(Report("the same products on host vectors, transposes added", ok));

  { /* MatGetRow, MatGetDiagonal */
    PetscCall(MatGetOwnershipRange(T, &rstart, &rend));
    ok = PETSC_TRUE;
    for (PetscInt i = rstart; i < rend; i++) {
      PetscInt           na, nt;
      const PetscInt    *ca, *ct;
      const PetscScalar *va, *vt;
      PetscCall(MatGetRow(A, i, &na, &ca, &va));
      PetscCall(MatGetRow(T, i, &nt, &ct, &vt));
      ok = (PetscBool)(ok && na == nt);
      for (PetscInt k = 0; ok && k < na; k++) ok = (PetscBool)(ca[k] == ct[k] && va[k] == vt[k]);
      PetscCall(MatRestoreRow(T, i, &nt, &ct, &vt));
      PetscCall(MatRestoreRow(A, i, &na, &ca, &va));
    }
    PetscCall(AllRanks(&ok));
    PetscCall(Report("MatGetRow", ok));
    PetscCall(MatCreateVecs(A, &d1, &d2));
    PetscCall(MatGetDiagonal(A, d1));
    PetscCall(MatGetDiagonal(T, d2));
    PetscCall(VecEqual(d1, d2, &ok));
    PetscCall(Report("MatGetDiagonal", ok));
  }

  /* values change, pattern stays: the plan object is kept and the layouts refreshed */
  PetscCall(MatAIJTunedGetPlanStats(T, &nstrips, &plans_before));
  PetscCall(Fill(A, 3.0, PETSC_FALSE));
  PetscCall(Fill(T, 3.0, PETSC_FALSE));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(MatAIJTunedGetPlanStats(T, NULL, &plans_after));
  ok = (PetscBool)(ok && nstrips > 0 && plans_before == plans_after);
  PetscCall(AllRanks(&ok));
  PetscCall(Report("re-assembly, same pattern: plan kept, values refreshed", ok));
  PetscCall(MatScale(A, -2.0));
  PetscCall(MatScale(T, -2.0)); /* on a GPU base, the new values on the device alone: the refill reads them there */
  PetscCall(SameDiagonals(A, T, &ok)); /* ... and MatGetDiagonal */
  PetscCall(Report("MatScale, MatGetDiagonal", ok));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatScale", ok));
  PetscCall(MatShift(A, 1.5));
  PetscCall(MatShift(T, 1.5));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatScale, MatShift", ok));
  { /* a tridiagonal matrix, whose plan is DIA's: on the GPU MatScale leaves its device copies (coded values) as they
       are and the products multiply by its factors, then the values change (MatShift: a refill), then scaled again */
    Mat       Ad, Td;
    PetscBool same;
    PetscCall(Create(MATAIJ, M, &Ad));
    PetscCall(Create(MATAIJTUNED, M, &Td));
    PetscCall(FillTridiagonal(Ad, -1));
    PetscCall(FillTridiagonal(Td, -1));
    PetscCall(SameProducts(Ad, Td, &ok)); /* the device copies made */
    for (int step = 0; step < 4; step++) {
      const PetscScalar a = step == 0 ? -2.0 : step == 1 ? 0.75 : 1.5;
      if (step == 2) {
        PetscCall(MatShift(Ad, a));
        PetscCall(MatShift(Td, a));
      } else {
        PetscCall(MatScale(Ad, a));
        PetscCall(MatScale(Td, a));
      }
      PetscCall(SameDiagonals(Ad, Td, &same));
      ok = (PetscBool)(ok && same);
      PetscCall(SameProducts(Ad, Td, &same));
      ok = (PetscBool)(ok && same);
    }
    PetscCall(MatDestroy(&Ad));
    PetscCall(MatDestroy(&Td));
    PetscCall(Report("tridiagonal: MatScale twice, MatShift, MatScale", ok));
  }
  { /* MatShift where row 7 lacks its diagonal entry: the base's, which inserts it (a new pattern), after values
       changed on the GPU (MatScale) */
    Mat       Ad, Td;
    PetscBool same;
    PetscCall(Create(MATAIJ, M, &Ad));
    PetscCall(Create(MATAIJTUNED, M, &Td));
    PetscCall(FillTridiagonal(Ad, 7));
    PetscCall(FillTridiagonal(Td, 7));
    PetscCall(SameProducts(Ad, Td, &ok));
    PetscCall(MatScale(Ad, -2.0));
    PetscCall(MatScale(Td, -2.0));
    PetscCall(SameDiagonals(Ad, Td, &same)); /* row 7's: 0 */
    ok = (PetscBool)(ok && same);
    PetscCall(MatShift(Ad, 1.5));
    PetscCall(MatShift(Td, 1.5));
    PetscCall(SameProducts(Ad, Td, &same));
    ok = (PetscBool)(ok && same);
    PetscCall(SameDiagonals(Ad, Td, &same));
    ok = (PetscBool)(ok && same);
    PetscCall(MatDestroy(&Ad));
    PetscCall(MatDestroy(&Td));
    PetscCall(Report("MatShift inserting a missing diagonal entry, MatGetDiagonal", ok));
  }
  { /* values assembled on the host at each step, then the base's operations on the GPU: scaled and shifted first
       (TSComputeIJacobian), or after a product (a transposed product, then MatScale).  On a GPU base its device
       values are written from aijtuned's copy, up from the host first where a product has not taken them; a
       transposed product leaves the matrix's state (on each rank's diagonal block) as it was */
    Mat              Ad, Td, B;
    PetscBool        same, kept = PETSC_TRUE, mpi;
    Vec              x, y;
    PetscObjectState before, after;
    PetscCall(Create(MATAIJ, M, &Ad));
    PetscCall(Create(MATAIJTUNED, M, &Td));
    PetscCall(PetscObjectBaseTypeCompare((PetscObject)Td, MATMPIAIJ, &mpi));
    PetscCall(MatCreateVecs(Td, &x, &y));
    PetscCall(VecSetRandom(x, NULL));
    ok = PETSC_TRUE;
    for (int step = 0; step < 6; step++) {
      PetscCall(Fill(Ad, 1.0 + step, PETSC_FALSE));
      PetscCall(Fill(Td, 1.0 + step, PETSC_FALSE));
      if (step % 2) {
        PetscCall(MatMult(Td, x, y)); /* the new values to the GPU with the product */
        B = Td;
        if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(Td, &B, NULL, NULL));
        PetscCall(PetscObjectStateGet((PetscObject)B, &before));
        PetscCall(MatMultTranspose(Td, x, y));
        PetscCall(PetscObjectStateGet((PetscObject)B, &after));
        kept = (PetscBool)(kept && before == after);
        PetscCall(MatScale(Ad, -1.0));
        PetscCall(MatScale(Td, -1.0));
      } else {
        PetscCall(MatScale(Ad, -1.0));
        PetscCall(MatScale(Td, -1.0));
        PetscCall(MatShift(Ad, 2.0 + step));
        PetscCall(MatShift(Td, 2.0 + step));
      }
      PetscCall(SameProducts(Ad, Td, &same));
      ok = (PetscBool)(ok && same);
      PetscCall(SameDiagonals(Ad, Td, &same));
      ok = (PetscBool)(ok && same);
    }
    PetscCall(AllRanks(&kept));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&Ad));
    PetscCall(MatDestroy(&Td));
    PetscCall(Report("host assemblies, then MatScale and MatShift or a transposed product and MatScale", ok));
    PetscCall(Report("a transposed product after a host assembly and a product keeps the state", kept));
  }
  PetscCall(MatCreateVecs(A, &r, &l));
  PetscCall(VecSetRandom(l, NULL));
  PetscCall(VecSetRandom(r, NULL));
  PetscCall(MatDiagonalScale(A, l, r));
  PetscCall(MatDiagonalScale(T, l, r));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatDiagonalScale", ok));
  {
    PetscInt rows[2] = {rstart, rend - 1};
    PetscCall(MatZeroRows(A, rend > rstart ? 2 : 0, rows, 4.0, NULL, NULL));
    PetscCall(MatZeroRows(T, rend > rstart ? 2 : 0, rows, 4.0, NULL, NULL));
    PetscCall(SameProducts(A, T, &ok));
    PetscCall(Report("MatZeroRows", ok));
    /* after a MatScale on the GPU, rows and columns zeroed (a finite element code's Dirichlet rows), x and b given */
    Vec xa, ba, xt, bt;
    PetscBool same;
    PetscCall(MatScale(A, 1.5));
    PetscCall(MatScale(T, 1.5));
    PetscCall(MatCreateVecs(A, &xa, &ba));
    PetscCall(MatCreateVecs(T, &xt, &bt));
    PetscCall(VecSet(xa, 2.0));
    PetscCall(VecSet(xt, 2.0));
    PetscCall(VecSet(ba, 1.0));
    PetscCall(VecSet(bt, 1.0));
    rows[0] = PetscMin(rstart + 3, rend - 1);
    PetscCall(MatZeroRowsColumns(A, rend > rstart ? 2 : 0, rows, 5.0, xa, ba));
    PetscCall(MatZeroRowsColumns(T, rend > rstart ? 2 : 0, rows, 5.0, xt, bt));
    PetscCall(SameProducts(A, T, &ok));
    { /* the right-hand sides adjusted alike (through host arrays: T's vectors may be CUDA ones) */
      PetscReal d, scale;
      PetscCall(MaxDiff(ba, bt, &d, &scale));
      same = (PetscBool)(d <= 1e-12 * scale);
    }
    PetscCall(Report("MatScale, MatZeroRowsColumns", (PetscBool)(ok && same)));
    PetscCall(VecDestroy(&xa));
    PetscCall(VecDestroy(&ba));
    PetscCall(VecDestroy(&xt));
    PetscCall(VecDestroy(&bt));
  }
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(T)); /* on a GPU base whose device values are current: those alone */
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatZeroEntries", ok));
  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(T));
  for (PetscInt i = rstart; i < rend; i++) { /* added on the host: to zeros, wherever they were made */
    PetscCall(MatSetValue(A, i, i, 2.0 + i, ADD_VALUES));
    PetscCall(MatSetValue(T, i, i, 2.0 + i, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(T, MAT_FINAL_ASSEMBLY));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(Report("MatZeroEntries, MatSetValues adding", ok));

  /* a new nonzero pattern: a new plan */
  PetscCall(MatAIJTunedGetPlanStats(T, NULL, &plans_before));
  PetscCall(Fill(A, 1.0, PETSC_TRUE));
  PetscCall(Fill(T, 1.0, PETSC_TRUE));
  PetscCall(SameProducts(A, T, &ok));
  PetscCall(MatAIJTunedGetPlanStats(T, NULL, &plans_after));
  ok = (PetscBool)(ok && plans_after > plans_before);
  PetscCall(AllRanks(&ok));
  PetscCall(Report("re-assembly, changed pattern: re-planned", ok));

  /* MatDuplicate, MatCopy */
  PetscCall(MatDuplicate(T, MAT_COPY_VALUES, &D));
  PetscCall(IsType(D, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
  PetscCall(SameProducts(A, D, &ok));
  PetscCall(Report("MatDuplicate", ok));
  PetscCall(MatScale(A, 0.25));
  PetscCall(MatScale(T, 0.25));
  PetscCall(MatCopy(T, D, SAME_NONZERO_PATTERN));
  PetscCall(SameProducts(A, D, &ok));
  PetscCall(Report("MatCopy into a duplicate", ok));
  PetscCall(MatDestroy(&D));

  /* MatConvert both ways, new and in place, and MatSetType on an assembled AIJ */
  PetscCall(MatConvert(T, MATAIJ, MAT_INITIAL_MATRIX, &C));
  PetscCall(IsType(C, MATSEQAIJ, MATMPIAIJ, &ok));
  PetscCall(SameProducts(A, C, &ok));
  PetscCall(Report("MatConvert aijtuned -> aij", ok));
  PetscCall(MatConvert(C, MATAIJTUNED, MAT_INPLACE_MATRIX, &C));
  PetscCall(TypeAndProducts(A, C, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
  PetscCall(Report("MatConvert aij -> aijtuned in place", ok));
  PetscCall(MatConvert(C, MATAIJ, MAT_INPLACE_MATRIX, &C));
  PetscCall(IsType(C, MATSEQAIJ, MATMPIAIJ, &ok));
  PetscCall(Report("MatConvert aijtuned -> aij in place", ok));
  PetscCall(MatSetType(C, MATAIJTUNED));
  PetscCall(TypeAndProducts(A, C, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
  PetscCall(Report("MatSetType(assembled aij, aijtuned)", ok));
  PetscCall(MatDestroy(&C));

  /* to a type PETSc knows no converter to by aijtuned's name: through the base's own (MATIS: PCMG's GDSW
     coarse space; PETSc's basic conversion crashed there).  Not checked on a CUDA build: the base is then
     aijcusparse, for which PETSc has no converter to MATIS by name either */
#if !defined(PETSC_HAVE_CUDA)
  PetscCall(MatConvert(T, MATIS, MAT_INITIAL_MATRIX, &C));
  PetscCall(TypeAndProducts(A, C, MATIS, MATIS, &ok));
  PetscCall(Report("MatConvert aijtuned -> is", ok));
  PetscCall(MatDestroy(&C));
#endif

  /* MatLoad from a PETSc binary file, named by the first rank's process: the suite runs several forms of the test at
     once, on as many ranks too (a name by the number of ranks alone had one form read the file another was writing) */
  {
    int pid = (int)getpid();
    PetscCallMPI(MPI_Bcast(&pid, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PetscCall(PetscSNPrintf(binfile, sizeof(binfile), "ops_matrix_%d.bin", pid));
  }
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, binfile, FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &C));
  PetscCall(MatSetType(C, MATAIJTUNED));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, binfile, FILE_MODE_READ, &viewer));
  PetscCall(MatLoad(C, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(TypeAndProducts(A, C, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
  PetscCall(Report("MatLoad", ok));
  PetscCall(MatDestroy(&C));
  {
    PetscMPIInt rank;
    char        info[PETSC_MAX_PATH_LEN + 8];
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCall(PetscSNPrintf(info, sizeof(info), "%s.info", binfile));
    if (!rank) (void)remove(binfile), (void)remove(info); /* the file and PETSc's options beside it */
  }

  /* MatAXPY of each pattern kind; DIFFERENT_NONZERO_PATTERN builds a new matrix of the sum's type and merges it into
     the sum (MatHeaderMerge, which hides the composed objects from the destroy it calls): a new pattern, a new plan */
  {
    const MatStructure kinds[3] = {SAME_NONZERO_PATTERN, SUBSET_NONZERO_PATTERN, DIFFERENT_NONZERO_PATTERN};
    const char *const  names[3] = {"MatAXPY, same pattern", "MatAXPY, subset pattern", "MatAXPY, different pattern"};
    Mat                X, Y, Yt;
    for (int k = 0; k < 3; k++) {
      PetscCall(Create(MATAIJ, M, &X));
      PetscCall(Create(MATAIJ, M, &Y));
      PetscCall(Fill(X, 0.5, PETSC_FALSE));
      PetscCall(Fill(Y, 1.0, PETSC_FALSE));
      if (k == 2) { /* a pattern of its own: the band and a diagonal Y does not hold */
        PetscCall(MatGetOwnershipRange(X, &rstart, &rend));
        for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(X, i, (i + M / 2) % M, 2.0, INSERT_VALUES));
        PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
      }
      PetscCall(MatConvert(Y, MATAIJTUNED, MAT_INITIAL_MATRIX, &Yt));
      PetscCall(SameProducts(Y, Yt, &ok)); /* planned before the sum: with host strips, a stale plan would show */
      PetscCall(MatAXPY(Y, 2.0, X, kinds[k]));
      PetscCall(MatAXPY(Yt, 2.0, X, kinds[k]));
      PetscCall(TypeAndProducts(Y, Yt, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
      PetscCall(AllRanks(&ok));
      PetscCall(Report(names[k], ok));
      PetscCall(MatDestroy(&X));
      PetscCall(MatDestroy(&Y));
      PetscCall(MatDestroy(&Yt));
    }
  }

  /* MatAXPY of two aijtuned matrices of one pattern, the pattern not given (TS's implicit Jacobian at each step): added
     in place, the plans kept, twice (the second time from the kept comparison); MPIAIJ's own would build the union on
     the host and merge it into Y, a new pattern */
  {
    Mat              X, Y, Xt, Yt;
    PetscInt         before, after;
    PetscObjectState pattern_before, pattern_after;
    PetscBool        same;
    PetscCall(Create(MATAIJ, M, &X));
    PetscCall(Create(MATAIJ, M, &Y));
    PetscCall(Fill(X, 0.5, PETSC_FALSE));
    PetscCall(Fill(Y, 1.0, PETSC_FALSE));
    PetscCall(MatConvert(X, MATAIJTUNED, MAT_INITIAL_MATRIX, &Xt));
    PetscCall(MatConvert(Y, MATAIJTUNED, MAT_INITIAL_MATRIX, &Yt));
    PetscCall(SameProducts(Y, Yt, &ok));
    PetscCall(MatAIJTunedGetPlanStats(Yt, NULL, &before));
    PetscCall(MatGetNonzeroState(Yt, &pattern_before));
    for (int round = 0; round < 2; round++) {
      PetscCall(MatAXPY(Y, -1.5, X, UNKNOWN_NONZERO_PATTERN));
      PetscCall(MatAXPY(Yt, -1.5, Xt, UNKNOWN_NONZERO_PATTERN));
      PetscCall(SameProducts(Y, Yt, &same));
      ok = (PetscBool)(ok && same);
    }
    PetscCall(MatAIJTunedGetPlanStats(Yt, NULL, &after));
    PetscCall(MatGetNonzeroState(Yt, &pattern_after));
    ok = (PetscBool)(ok && before == after && pattern_before == pattern_after); /* no new matrix merged into Yt */
    PetscCall(AllRanks(&ok));
    PetscCall(Report("MatAXPY of one pattern, not given: in place", ok));
    PetscCall(MatDestroy(&X));
    PetscCall(MatDestroy(&Y));
    PetscCall(MatDestroy(&Xt));
    PetscCall(MatDestroy(&Yt));
  }

  /* on each rank's own sequential matrices: an in-place LU factorization (MatLUFactor: SeqAIJ merges the factor
     into the matrix), and conversion to SBAIJ (the base's converter asks for the symmetric flag) */
  {
    Mat         S, St, F, Ft;
    Vec         b, xs, xt;
    PetscInt    n = 30;
    PetscReal   err;
    PetscBool   same;
    MatFactorInfo info;
    IS            rperm, cperm;
    PetscCall(Tridiagonal(n, &S, &St));
    PetscCall(MatConvert(S, MATSEQSBAIJ, MAT_INITIAL_MATRIX, &F));
    PetscCall(MatConvert(St, MATSEQSBAIJ, MAT_INITIAL_MATRIX, &Ft));
    PetscCall(MatEqual(F, Ft, &same));
    PetscCall(AllRanks(&same));
    PetscCall(Report("MatConvert aijtuned -> sbaij (symmetric)", same));
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&Ft));
    PetscCall(MatCreateVecs(S, &xs, &b));
    PetscCall(VecDuplicate(xs, &xt));
    PetscCall(VecSet(b, 1.0));
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatGetOrdering(S, MATORDERINGNATURAL, &rperm, &cperm));
    PetscCall(MatLUFactor(S, rperm, cperm, &info));
    PetscCall(MatLUFactor(St, rperm, cperm, &info));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
    PetscCall(MatSolve(S, b, xs));
    PetscCall(MatSolve(St, b, xt));
    PetscCall(VecAXPY(xt, -1.0, xs));
    PetscCall(VecNorm(xt, NORM_INFINITY, &err));
    same = (PetscBool)(err == 0.0);
    PetscCall(AllRanks(&same));
    PetscCall(Report("MatLUFactor in place, MatSolve", same));
    PetscCall(MatDestroy(&S));
    PetscCall(MatDestroy(&St));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&xs));
    PetscCall(VecDestroy(&xt));
  }

#if defined(PETSC_HAVE_CUDA)
  /* cuSPARSE's factorizations of each rank's seqaijtuned matrix (aijtunedfactor.c), LU's and ILU's the default,
     against PETSc's own of the host AIJ: LU, ILU, Cholesky and ICC of a tridiagonal matrix (exact ones all),
     solved and solved transposed with CUDA vectors and with host ones, then the numeric phase again with new
     values, twice (a transposed solve after it was stale in PETSc's cuSPARSE LU and ILU) */
  {
    const MatFactorType types[4] = {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC};
    Mat                 S, St;
    Vec                 b, xs, bt, xt, xh;
    PetscInt            n  = 30;
    PetscBool           ok = PETSC_TRUE, cuda;
    MatFactorInfo       info;
    PetscCall(Tridiagonal(n, &S, &St));
    PetscCall(MatCreateVecs(S, &xs, &b));
    PetscCall(VecDuplicate(xs, &xh));
    PetscCall(MatCreateVecs(St, &xt, &bt));
    PetscCall(PetscObjectTypeCompare((PetscObject)xt, VECSEQCUDA, &cuda));
    PetscCall(PetscObjectTypeCompare((PetscObject)xh, VECSEQ, &ok)); /* both kinds of vectors are checked */
    if (!(ok && cuda)) {
      VecType tt, th;
      PetscCall(VecGetType(xt, &tt));
      PetscCall(VecGetType(xh, &th));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  vectors %s and %s, not seqcuda and seq\n", tt, th));
    }
    ok = (PetscBool)(ok && cuda);
    PetscCall(VecSetRandom(b, NULL));
    PetscCall(VecCopy(b, bt));
    PetscCall(MatFactorInfoInitialize(&info));
    info.fill   = 1.0; /* the expected fill and ILU's and ICC's levels: ILU(0), ICC(0), which are exact here */
    info.levels = 0;
    for (int t = 0; t < 4; t++) {
      Mat       Fs, Ft;
      IS        rperm, cperm;
      PetscBool lu = (PetscBool)(types[t] == MAT_FACTOR_LU || types[t] == MAT_FACTOR_ILU);
      PetscCall(MatGetOrdering(S, MATORDERINGNATURAL, &rperm, &cperm));
      PetscCall(MatGetFactor(S, MATSOLVERPETSC, types[t], &Fs));
      MatSolverType solver;
      PetscBool     expected;
      PetscCall(MatGetFactor(St, NULL, types[t], &Ft)); /* the default: cuSPARSE's LU and ILU, PETSc's Cholesky and ICC */
      PetscCall(MatFactorGetSolverType(Ft, &solver));
      PetscCall(PetscStrcmp(solver, lu ? MATSOLVERCUSPARSE : MATSOLVERPETSC, &expected));
      if (!expected) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s factor's default solver is %s\n", MatFactorTypes[types[t]], solver));
      ok = (PetscBool)(ok && expected);
      PetscCall(MatDestroy(&Ft));
      PetscCall(MatGetFactor(St, MATSOLVERCUSPARSE, types[t], &Ft));
      for (int round = 0; round < 3; round++) { /* rounds 1 and 2: new values, the numeric phase alone */
        Mat       F[2] = {Fs, Ft}, M[2] = {S, St};
        PetscReal d, scale;
        if (round) {
          PetscCall(MatScale(S, 2.0));
          PetscCall(MatScale(St, 2.0));
        }
        for (int k = 0; k < 2; k++) {
          if (!round && types[t] == MAT_FACTOR_LU) PetscCall(MatLUFactorSymbolic(F[k], M[k], rperm, cperm, &info));
          if (!round && types[t] == MAT_FACTOR_ILU) PetscCall(MatILUFactorSymbolic(F[k], M[k], rperm, cperm, &info));
          if (!round && types[t] == MAT_FACTOR_CHOLESKY) PetscCall(MatCholeskyFactorSymbolic(F[k], M[k], rperm, &info));
          if (!round && types[t] == MAT_FACTOR_ICC) PetscCall(MatICCFactorSymbolic(F[k], M[k], rperm, &info));
          if (lu) PetscCall(MatLUFactorNumeric(F[k], M[k], &info));
          else PetscCall(MatCholeskyFactorNumeric(F[k], M[k], &info));
        }
        for (int transposed = 0; transposed < 2; transposed++) {
          PetscErrorCode (*solve)(Mat, Vec, Vec) = transposed ? MatSolveTranspose : MatSolve;
          PetscCall((*solve)(Fs, b, xs));
          for (int host = 0; host < 2; host++) { /* host vectors: through the factor's CUDA work vectors */
            PetscCall((*solve)(Ft, host ? b : bt, host ? xh : xt));
            PetscCall(MaxDiff(xs, host ? xh : xt, &d, &scale));
            if (d > 1e-12 * scale) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s factor, round %d%s%s: difference %g of %g\n", MatFactorTypes[types[t]], round, transposed ? ", transposed" : "", host ? ", host vectors" : "", (double)d, (double)scale));
            ok = (PetscBool)(ok && d <= 1e-12 * scale);
          }
        }
      }
      PetscCall(ISDestroy(&rperm));
      PetscCall(ISDestroy(&cperm));
      PetscCall(MatDestroy(&Fs));
      PetscCall(MatDestroy(&Ft));
    }
    PetscCall(AllRanks(&ok));
    PetscCall(Report("cuSPARSE LU, ILU, Cholesky, ICC; defaults; any vectors", ok));
    PetscCall(VecDestroy(&xh));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&xs));
    PetscCall(VecDestroy(&bt));
    PetscCall(VecDestroy(&xt));
    PetscCall(MatDestroy(&S));
    PetscCall(MatDestroy(&St));
  }
#endif

  /* MatCreateSubMatrices of an mpiaijtuned matrix, reused after new values (PCASM's and PCGASM's blocks): PETSc
     writes the blocks' host arrays directly (on one rank, the whole matrix's block after its assembly): the block's
     product gave its assembly's values, all zero, and the default ILU of a block (cuSPARSE's, on a CUDA build)
     factored the device copy of the old values (SNES ex5's GASM test; bench/results/2026-11-26-subblock-values).
     With MAT_SUBMAT_SINGLEIS (PCASM's path) PETSc fills the blocks by MatSetValues_SeqAIJ itself, which marks no
     copy stale either.  ILU(0) of a tridiagonal matrix is exact: with the values doubled the solution halves. */
  {
    Mat           M, *sub;
    Vec           b, x1, x2;
    IS            rows;
    MatFactorInfo info;
    PetscInt      n = 10, lo, hi;
    PetscReal     d, scale;
    PetscBool     ok = PETSC_TRUE;
    for (int single = 0; single < 2; single++) {
      PetscCall(MatCreate(PETSC_COMM_WORLD, &M));
      PetscCall(MatSetSizes(M, n, n, PETSC_DETERMINE, PETSC_DETERMINE));
      PetscCall(MatSetType(M, MATMPIAIJTUNED)); /* on one rank too: the MPI blocks' path */
      if (single) PetscCall(MatSetOption(M, MAT_SUBMAT_SINGLEIS, PETSC_TRUE)); /* PCASM's path */
      PetscCall(MatMPIAIJSetPreallocation(M, 3, NULL, 1, NULL));
      PetscCall(FillTridiagonal(M, -1));
      PetscCall(MatGetOwnershipRange(M, &lo, &hi));
      PetscCall(ISCreateStride(PETSC_COMM_SELF, hi - lo, lo, 1, &rows));
      PetscCall(MatCreateSubMatrices(M, 1, &rows, &rows, MAT_INITIAL_MATRIX, &sub));
      PetscCall(MatCreateVecs(sub[0], &x1, &b));
      PetscCall(VecDuplicate(x1, &x2));
      PetscCall(VecSet(b, 1.0));
      PetscCall(MatFactorInfoInitialize(&info));
      info.fill = 1.0;
      {
        Mat F;
        IS  rperm, cperm;
        PetscCall(MatGetOrdering(sub[0], MATORDERINGNATURAL, &rperm, &cperm));
        PetscCall(MatGetFactor(sub[0], NULL, MAT_FACTOR_ILU, &F));
        PetscCall(MatILUFactorSymbolic(F, sub[0], rperm, cperm, &info));
        PetscCall(MatLUFactorNumeric(F, sub[0], &info));
        PetscCall(MatSolve(F, b, x1));
        PetscCall(BlockProductOk(sub[0], &ok));
        PetscCall(MatScale(M, 2.0));
        PetscCall(MatCreateSubMatrices(M, 1, &rows, &rows, MAT_REUSE_MATRIX, &sub));
        PetscCall(MatLUFactorNumeric(F, sub[0], &info));
        PetscCall(MatSolve(F, b, x2));
        PetscCall(VecScale(x2, 2.0));
        PetscCall(MaxDiff(x1, x2, &d, &scale));
        if (d > 1e-12 * scale) {
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "  ILU solve after reuse: difference %g of %g\n", (double)d, (double)scale));
          ok = PETSC_FALSE;
        }
        PetscCall(BlockProductOk(sub[0], &ok));
        PetscCall(ISDestroy(&rperm));
        PetscCall(ISDestroy(&cperm));
        PetscCall(MatDestroy(&F));
      }
      PetscCall(VecDestroy(&b));
      PetscCall(VecDestroy(&x1));
      PetscCall(VecDestroy(&x2));
      PetscCall(ISDestroy(&rows));
      PetscCall(MatDestroySubMatrices(1, &sub));
      PetscCall(MatDestroy(&M));
    }
    PetscCall(AllRanks(&ok));
    PetscCall(Report("MatCreateSubMatrices blocks: product, ILU, reused", ok));
  }

  /* products with aijtuned operands are the base's products (aijtunedproduct.c): on a CUDA build cuSPARSE's, whose
     result is seqaijcusparse (mpiaijcusparse on several ranks), else the host's, of the first operand's type; again
     with new values (the numeric phase alone) */
  {
    const char *names[4] = {"MatMatMult aijtuned x aijtuned", "MatMatMult aijtuned x base type", "MatMatMult base type x aijtuned", "MatTransposeMatMult aijtuned x aijtuned"};
    Mat         G, AA, AtA, prods[4];
    PetscBool   same[4] = {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE}, typed = PETSC_TRUE;
#if defined(PETSC_HAVE_CUDA)
    PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &G));
#else
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &G));
#endif
    for (int round = 0; round < 2; round++) {
      const MatReuse reuse = round ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX;
      if (round) {
        PetscCall(MatScale(A, 2.0));
        PetscCall(MatScale(T, 2.0));
        PetscCall(MatScale(G, 2.0));
      }
      PetscCall(MatMatMult(A, A, reuse, PETSC_DEFAULT, &AA));
      PetscCall(MatTransposeMatMult(A, A, reuse, PETSC_DEFAULT, &AtA));
      PetscCall(MatMatMult(T, T, reuse, PETSC_DEFAULT, &prods[0]));
      PetscCall(MatMatMult(T, G, reuse, PETSC_DEFAULT, &prods[1]));
      PetscCall(MatMatMult(G, T, reuse, PETSC_DEFAULT, &prods[2]));
      PetscCall(MatTransposeMatMult(T, T, reuse, PETSC_DEFAULT, &prods[3]));
      for (int p = 0; p < 4; p++) {
        PetscBool ok_p, type_ok;
        PetscCall(SameProducts(p == 3 ? AtA : AA, prods[p], &ok_p));
        /* the first operand's type, as with AIJ: an aijtuned result keeps planning its products, and on a CUDA build
           takes host vectors as aijtuned does (a cuSPARSE result read them as device arrays) */
        MatType first;
        PetscCall(MatGetType(p == 2 ? G : T, &first));
        PetscCall(PetscObjectTypeCompare((PetscObject)prods[p], first, &type_ok));
        same[p] = (PetscBool)(same[p] && ok_p);
        typed   = (PetscBool)(typed && type_ok);
      }
    }
    PetscCall(MatScale(A, 0.5));
    PetscCall(MatScale(T, 0.5));
    for (int p = 0; p < 4; p++) PetscCall(Report(names[p], same[p]));
    PetscCall(Report("their results: the first operand's type", typed));
    for (int p = 0; p < 4; p++) PetscCall(MatDestroy(&prods[p]));
    PetscCall(MatDestroy(&AA));
    PetscCall(MatDestroy(&AtA));
    PetscCall(MatDestroy(&G));
  }

  /* a dense matrix times an aijtuned one: PETSc finds the product under the base's type name (through
     "MatProductSetFromOptions_anytype_C"), or on a CUDA build, where PETSc has no product of seqdense and
     seqaijcusparse, under the host AIJ's: the host's product, as aij has (mpidense x mpiaijcusparse exists) */
  {
    Mat       Dn, CA, CT;
    PetscInt  m, n;
    PetscBool same;
    PetscCall(MatGetLocalSize(A, &m, &n));
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, m, 5, M, NULL, &Dn));
    PetscCall(MatSetRandom(Dn, NULL));
    PetscCall(MatMatMult(Dn, A, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &CA));
    PetscCall(MatMatMult(Dn, T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &CT));
    PetscCall(SameProducts(CA, CT, &same)); /* to rounding: on several ranks and a GPU, PETSc's product is (T^T Dn^T)^T */
    PetscCall(Report("MatMatMult dense x aijtuned", same));
    PetscCall(MatDestroy(&Dn));
    PetscCall(MatDestroy(&CA));
    PetscCall(MatDestroy(&CT));
  }

  /* MatHeaderReplace (a Jacobian routine's new matrix) swaps two aijtuned matrices' contents, states included;
     a merge into the one kept must find its state at once, before any product */
  {
    Mat R, N, X, twin;
    PetscCall(Create(MATAIJ, M, &twin));
    PetscCall(Fill(twin, 2.0, PETSC_TRUE));
    PetscCall(Create(MATAIJ, M, &X));
    PetscCall(Fill(X, 0.5, PETSC_FALSE));
    PetscCall(MatGetOwnershipRange(X, &rstart, &rend));
    for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(X, i, (i + M / 2) % M, 2.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatConvert(A, MATAIJTUNED, MAT_INITIAL_MATRIX, &R));
    PetscCall(Create(MATAIJTUNED, M, &N));
    PetscCall(Fill(N, 2.0, PETSC_TRUE));
    PetscCall(MatHeaderReplace(R, &N));
    PetscCall(MatAXPY(R, 3.0, X, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatAXPY(twin, 3.0, X, DIFFERENT_NONZERO_PATTERN));
    PetscCall(TypeAndProducts(twin, R, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
    PetscCall(Report("MatHeaderReplace, then MatAXPY of another pattern", ok));
    PetscCall(MatDestroy(&R));
    PetscCall(MatDestroy(&X));
    PetscCall(MatDestroy(&twin));
  }

  /* the Galerkin product P^T A P with aijtuned operands (PCGAMG's coarse operators); P is an aijtuned made from a
     host AIJ, which on a CUDA build gets the GPU base as T has */
  {
    Mat At, Tt, PA, PT;
    PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
    PetscCall(MatConvert(At, MATAIJTUNED, MAT_INITIAL_MATRIX, &Tt));
    PetscCall(MatPtAP(A, At, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &PA));
    PetscCall(MatPtAP(T, Tt, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &PT));
    PetscCall(SameProducts(PA, PT, &ok));
    { /* the result of the first operand's type, as with AIJ (on a CUDA build: cuSPARSE's product, made aijtuned) */
      MatType   first;
      PetscBool typed;
      PetscCall(MatGetType(T, &first));
      PetscCall(PetscObjectTypeCompare((PetscObject)PT, first, &typed));
      ok = (PetscBool)(ok && typed);
    }
    PetscCall(Report("MatPtAP", ok));
    { /* the numeric phase again: with new values of A (MatPtAP's reuse, as PCGAMG's after a new operator), and with
         another A of the same pattern (MatProductReplaceMats; PETSc's MPIAIJ product cannot take another P) */
      Mat T2, A2, PA2, PT2;
      PetscCall(MatDuplicate(T, MAT_COPY_VALUES, &T2));
      PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &A2));
      PetscCall(MatPtAP(T2, Tt, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &PT2));
      PetscCall(MatScale(T2, 2.0));
      PetscCall(MatScale(A2, 2.0));
      PetscCall(MatPtAP(A2, At, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &PA2));
      PetscCall(MatPtAP(T2, Tt, MAT_REUSE_MATRIX, PETSC_DETERMINE, &PT2));
      PetscCall(SameProducts(PA2, PT2, &ok));
      PetscCall(Report("MatPtAP reuse after new values of A", ok));
      PetscCall(MatScale(T2, 0.5));
      PetscCall(MatScale(T2, 2.0)); /* a third numeric phase, as a time-stepper's */
      PetscCall(MatPtAP(T2, Tt, MAT_REUSE_MATRIX, PETSC_DETERMINE, &PT2));
      PetscCall(SameProducts(PA2, PT2, &ok));
      PetscCall(Report("MatPtAP reuse once more", ok));
      PetscCall(MatDestroy(&PT2));
      PetscCall(MatProductReplaceMats(T2, NULL, NULL, PT));
      PetscCall(MatProductNumeric(PT));
      PetscCall(SameProducts(PA2, PT, &ok));
      PetscCall(Report("MatPtAP numeric phase with another A", ok));
      PetscCall(MatDestroy(&T2));
      PetscCall(MatDestroy(&A2));
      PetscCall(MatDestroy(&PA2));
    }
    PetscCall(MatDestroy(&Tt));
    PetscCall(MatDestroy(&PA));
    PetscCall(MatDestroy(&PT));

    /* in place, another merge */
    PetscCall(MatDuplicate(T, MAT_COPY_VALUES, &Tt));
    PetscCall(MatTranspose(Tt, MAT_INPLACE_MATRIX, &Tt));
    PetscCall(TypeAndProducts(At, Tt, MATSEQAIJTUNED, MATMPIAIJTUNED, &ok));
    PetscCall(Report("MatTranspose in place", ok));
    PetscCall(MatDestroy(&Tt));
    PetscCall(MatDestroy(&At));
  }

  /* a preconditioner built from the aijtuned matrix: same result as from AIJ */
  {
    KSP ka, kt;
    Vec b, xa, xt;
    PetscCall(MatCreateVecs(A, &xa, &b));
    PetscCall(VecDuplicate(xa, &xt));
    PetscCall(VecSet(b, 1.0));
    PetscCall(MatShift(A, 5.0));
    PetscCall(MatShift(T, 5.0));
    for (int k = 0; k < 2; k++) {
      KSP *ksp = k ? &kt : &ka;
      PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
      PetscCall(KSPSetOperators(*ksp, k ? T : A, k ? T : A));
      PetscCall(KSPSetType(*ksp, KSPGMRES));
      PetscCall(KSPSetTolerances(*ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200));
      PetscCall(KSPSetOptionsPrefix(*ksp, "sub_"));
      PetscCall(KSPSetFromOptions(*ksp));
      PetscCall(KSPSolve(*ksp, b, k ? xt : xa));
    }
    PetscCall(VecAXPY(xt, -1.0, xa));
    PetscCall(VecNorm(xt, NORM_INFINITY, &err));
    PetscCall(Report("KSPSolve (GMRES + default PC) matches AIJ", (PetscBool)(err < 1e-8)));
    PetscCall(KSPDestroy(&ka));
    PetscCall(KSPDestroy(&kt));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&xa));
    PetscCall(VecDestroy(&xt));
  }

  PetscCall(VecDestroy(&d1));
  PetscCall(VecDestroy(&d2));
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&T));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " failures\n", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0
      nsize: {{1 2 3}}
      requires: !cuda
      output_file: output/ops_0.out

   test:
      suffix: cuda
      nsize: {{1 2 3}}
      requires: cuda
      # slots built on the GPU, or on the host and copied up: new values refill both on the GPU;
      # every host array of new values page-locked (seq/cuda/aijtunedpin.c), through the re-plans, conversions,
      # duplicates and destroys below
      args: -mat_aijtuned_gpu_build {{0 1}} -mat_aijtuned_pin_mib 0
      output_file: output/ops_cuda.out

   # STREAM plans: a strip's slots are the CSR's values themselves, read where they are, the base's device copy or
   # aijtuned's (seq/cuda/aijtunedcuda.c, InPlace), through every operation above; MatScale is not left to the products
   test:
      suffix: cuda_in_place
      nsize: {{1 2}}
      requires: cuda
      args: -mat_aijtuned_formats stream -mat_aijtuned_gpu_build {{0 1}}
      output_file: output/ops_cuda.out

   # the same on one rank, with -info showing the path taken after a host build and after a GPU build
   test:
      suffix: cuda_in_place_info
      requires: cuda
      args: -mat_aijtuned_formats stream -mat_aijtuned_gpu_build {{0 1}} -info :mat
      filter: grep -E "strips read the values in place|failures" | sed -e "s/^.*strips read/strips read/" | sort -u
      output_file: output/ops_cuda_in_place_info.out

   # -info names the GPU paths taken: MatShift and MatGetDiagonal on the GPU (seq/cuda/aijtuneddiagonal.c), on one rank
   # and on two through the diagonal blocks; MatZeroEntries of the device values alone (seq/cuda/aijtunedzero.c); new
   # host values copied up from page-locked memory (seq/cuda/aijtunedpin.c); the base's device values written by
   # aijtuned, from its copy or the host's values, before its operations on the GPU and with new host values
   # (seq/cuda/aijtunedbasevalues.c)
   test:
      suffix: cuda_info
      nsize: {{1 2}}
      requires: cuda
      args: -info :mat -mat_aijtuned_pin_mib 0
      filter: grep -oE "MatShift on the GPU|MatGetDiagonal on the GPU|MatZeroEntries on the GPU|values \\([0-9.]+ MiB\\) page-locked for their copies|device values written" | sed -E "s/[0-9.]+ MiB/N MiB/" | LC_ALL=C sort -u
      output_file: output/ops_cuda_info.out

TEST*/
