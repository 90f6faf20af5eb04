static char help[] = "The reduced-space coarse operator of a variational inequality solved with multigrid (PETSc's SNES VI\n\
with PCMG, snes tutorial ex9): submatrices of a DMDA's Jacobian and interpolation on sets of inactive points, then\n\
their Galerkin product P^T A P, each aijtuned matrix against an AIJ twin built the same way.\n\n";

#include <petscdmda.h>
#include <petscmataijtuned.h>
#include "../common/testreport.h"

static PetscBool host_vectors = PETSC_FALSE; /* -host_vectors: aijtuned's products on host vectors, as a DM of the
                                                standard vector type and SNES VI's reduced vectors give them */

/* The relative difference max|a - b| / max(1, max|a|) over all ranks; a and b may be of different types */
static PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *rel)
{
  PetscReal d, scale;

  PetscFunctionBeginUser;
  PetscCall(MaxDiff(a, b, &d, &scale));
  *rel = d / scale;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v[i] = a reproducible value of the global index i, on any vector type and rank count */
static PetscErrorCode FillIndexed(Vec v, PetscReal seed)
{
  PetscScalar *p;
  PetscInt     lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(v, &lo, &hi));
  PetscCall(VecGetArray(v, &p));
  for (PetscInt i = lo; i < hi; i++) p[i - lo] = PetscSinReal(seed * (PetscReal)(i + 1));
  PetscCall(VecRestoreArray(v, &p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Vectors for M's columns (x) and rows (y): M's own kind, or host ones of the same layout (-host_vectors) */
static PetscErrorCode CreateVecs(Mat M, Vec *x, Vec *y)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(M, x, y));
  if (host_vectors) {
    Vec *v[2] = {x, y};
    for (int k = 0; k < 2; k++) {
      PetscInt n;
      PetscCall(VecGetLocalSize(*v[k], &n));
      PetscCall(VecDestroy(v[k]));
      PetscCall(VecCreate(PetscObjectComm((PetscObject)M), v[k]));
      PetscCall(VecSetSizes(*v[k], n, PETSC_DETERMINE));
      PetscCall(VecSetType(*v[k], VECSTANDARD));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A x and A^T y of T (aijtuned) equal those of R (AIJ) to rounding; each on its own vector type */
static PetscErrorCode SameProducts(Mat R, Mat T, PetscBool *same)
{
  Vec       xr, yr, xt, yt;
  PetscReal d, worst = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(CreateVecs(T, &xt, &yt));
  PetscCall(FillIndexed(xr, 0.37));
  PetscCall(FillIndexed(xt, 0.37));
  PetscCall(MatMult(R, xr, yr));
  PetscCall(MatMult(T, xt, yt));
  PetscCall(RelDiff(yr, yt, &d));
  worst = PetscMax(worst, d);
  PetscCall(FillIndexed(yr, 0.71));
  PetscCall(FillIndexed(yt, 0.71));
  PetscCall(MatMultTranspose(R, yr, xr));
  PetscCall(MatMultTranspose(T, yt, xt));
  PetscCall(RelDiff(xr, xt, &d));
  worst = PetscMax(worst, d);
  *same = (PetscBool)(worst <= 1e-12);
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The symmetric SOR sweeps of T (aijtuned) equal R's (AIJ), from a zero guess and from another, at omega 1 and 1.3,
   as PCMG's default smoother (Chebyshev with SOR) applies them */
static PetscErrorCode SameSOR(Mat R, Mat T, PetscBool *same)
{
  Vec       br, xr, bt, xt;
  PetscReal d, worst = 0, omegas[2] = {1.0, 1.3};

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(R, &xr, &br));
  PetscCall(CreateVecs(T, &xt, &bt));
  PetscCall(FillIndexed(br, 0.53));
  PetscCall(FillIndexed(bt, 0.53));
  for (int k = 0; k < 2; k++) {
    PetscCall(MatSOR(R, br, omegas[k], (MatSORType)(SOR_LOCAL_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS), 0.0, 1, 1, xr));
    PetscCall(MatSOR(T, bt, omegas[k], (MatSORType)(SOR_LOCAL_SYMMETRIC_SWEEP | SOR_ZERO_INITIAL_GUESS), 0.0, 1, 1, xt));
    PetscCall(RelDiff(xr, xt, &d));
    worst = PetscMax(worst, d);
    PetscCall(MatSOR(R, br, omegas[k], SOR_LOCAL_SYMMETRIC_SWEEP, 0.0, 2, 1, xr));
    PetscCall(MatSOR(T, bt, omegas[k], SOR_LOCAL_SYMMETRIC_SWEEP, 0.0, 2, 1, xt));
    PetscCall(RelDiff(xr, xt, &d));
    worst = PetscMax(worst, d);
  }
  *same = (PetscBool)(worst <= 1e-12);
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&br));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&bt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A variable-coefficient five-point operator on da, times scale */
static PetscErrorCode FillLaplacian(DM da, Mat A, PetscReal scale)
{
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++) {
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
      MatStencil  row = {.i = i, .j = j}, col[5];
      PetscScalar v[5];
      PetscInt    n = 0;
      PetscReal   c = 1.0 + 0.1 * (PetscReal)((i * 7 + j * 3) % 5);
      col[n] = row, v[n++] = scale * 4.0 * c;
      if (i > 0) col[n] = (MatStencil){.i = i - 1, .j = j}, v[n++] = -scale * c;
      if (i < info.mx - 1) col[n] = (MatStencil){.i = i + 1, .j = j}, v[n++] = -scale;
      if (j > 0) col[n] = (MatStencil){.i = i, .j = j - 1}, v[n++] = -scale * c;
      if (j < info.my - 1) col[n] = (MatStencil){.i = i, .j = j + 1}, v[n++] = -scale;
      PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The "inactive" points of this rank's rows of da: those whose global index g has g % period != skip; unevenly
   spread over the ranks, as a contact set is */
static PetscErrorCode Inactive(DM da, PetscInt period, PetscInt skip, IS *is)
{
  PetscInt lo, hi, n = 0, *idx;
  Vec      g;

  PetscFunctionBeginUser;
  PetscCall(DMGetGlobalVector(da, &g));
  PetscCall(VecGetOwnershipRange(g, &lo, &hi));
  PetscCall(DMRestoreGlobalVector(da, &g));
  PetscCall(PetscMalloc1(hi - lo, &idx));
  for (PetscInt i = lo; i < hi; i++)
    if (i % period != skip && !(lo > 0 && i < lo + (hi - lo) / 3)) idx[n++] = i; /* ranks above 0 lose a third more */
  PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, n, idx, PETSC_OWN_POINTER, is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One type's fine operator A and interpolation P from the coarse DMDA, as DMCreateMatrix and DMCreateInterpolation
   make them with that mat type */
static PetscErrorCode Operators(DM dac, DM daf, MatType type, Mat *A, Mat *P)
{
  PetscFunctionBeginUser;
  PetscCall(DMSetMatType(dac, type));
  PetscCall(DMSetMatType(daf, type));
  PetscCall(DMCreateMatrix(daf, A));
  PetscCall(FillLaplacian(daf, *A, 1.0));
  PetscCall(DMCreateInterpolation(dac, daf, P, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM        dac, daf;
  Mat       A[2], P[2], As[2], Ps[2], C[2], CM;
  IS        fine, coarse;
  MatType   types[2] = {MATAIJ, MATAIJTUNED};
  PetscBool ok;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-host_vectors", &host_vectors, NULL));
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 9, 9, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &dac));
  PetscCall(DMSetFromOptions(dac));
  PetscCall(DMSetUp(dac));
  PetscCall(DMRefine(dac, PETSC_COMM_WORLD, &daf));
  for (int k = 0; k < 2; k++) PetscCall(Operators(dac, daf, types[k], &A[k], &P[k]));
  PetscCall(Inactive(daf, 5, 2, &fine));
  PetscCall(Inactive(dac, 4, 1, &coarse));

  PetscCall(SameProducts(A[0], A[1], &ok));
  PetscCall(Report("fine operator", ok));
  PetscCall(SameProducts(P[0], P[1], &ok));
  PetscCall(Report("interpolation", ok));
  for (int k = 0; k < 2; k++) {
    PetscCall(MatCreateSubMatrix(A[k], fine, fine, MAT_INITIAL_MATRIX, &As[k]));
    PetscCall(MatCreateSubMatrix(P[k], fine, coarse, MAT_INITIAL_MATRIX, &Ps[k]));
  }
  PetscCall(SameSOR(A[0], A[1], &ok));
  PetscCall(Report("MatSOR of the fine operator", ok));
  PetscCall(SameProducts(As[0], As[1], &ok));
  PetscCall(Report("MatCreateSubMatrix of the operator (inactive rows)", ok));
  PetscCall(SameSOR(As[0], As[1], &ok));
  PetscCall(Report("MatSOR of that submatrix", ok));
  PetscCall(SameProducts(Ps[0], Ps[1], &ok));
  PetscCall(Report("MatCreateSubMatrix of the interpolation", ok));
  for (int k = 0; k < 2; k++) PetscCall(MatPtAP(As[k], Ps[k], MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C[k]));
  PetscCall(SameProducts(C[0], C[1], &ok));
  PetscCall(Report("MatPtAP of the submatrices (Galerkin coarse operator)", ok));
  PetscCall(SameSOR(C[0], C[1], &ok));
  PetscCall(Report("MatSOR of the coarse operator", ok));
  /* an aijtuned operator and the DM's AIJ interpolation, as -mat_type aijtuned without -dm_mat_type gives them */
  PetscCall(MatPtAP(As[1], Ps[0], MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CM));
  PetscCall(SameProducts(C[0], CM, &ok));
  PetscCall(Report("MatPtAP of it with an AIJ interpolation", ok));

  /* a new Newton step: new values of the operator, its submatrix and the coarse operator reused */
  for (int k = 0; k < 2; k++) {
    PetscCall(FillLaplacian(daf, A[k], 2.5));
    PetscCall(MatCreateSubMatrix(A[k], fine, fine, MAT_REUSE_MATRIX, &As[k]));
    PetscCall(MatPtAP(As[k], Ps[k], MAT_REUSE_MATRIX, PETSC_DETERMINE, &C[k]));
  }
  PetscCall(SameProducts(As[0], As[1], &ok));
  PetscCall(Report("MatCreateSubMatrix reused after new values", ok));
  PetscCall(SameSOR(As[0], As[1], &ok));
  PetscCall(Report("MatSOR of it", ok));
  PetscCall(SameProducts(C[0], C[1], &ok));
  PetscCall(Report("MatPtAP reused after new values", ok));
  PetscCall(SameSOR(C[0], C[1], &ok));
  PetscCall(Report("MatSOR of it", ok));
  PetscCall(MatPtAP(As[1], Ps[0], MAT_REUSE_MATRIX, PETSC_DETERMINE, &CM));
  PetscCall(SameProducts(C[0], CM, &ok));
  PetscCall(Report("MatPtAP of it with an AIJ interpolation, reused", ok));
  PetscCall(MatDestroy(&CM));

  for (int k = 0; k < 2; k++) {
    PetscCall(MatDestroy(&C[k]));
    PetscCall(MatDestroy(&As[k]));
    PetscCall(MatDestroy(&Ps[k]));
    PetscCall(MatDestroy(&A[k]));
    PetscCall(MatDestroy(&P[k]));
  }
  PetscCall(ISDestroy(&fine));
  PetscCall(ISDestroy(&coarse));
  PetscCall(DMDestroy(&daf));
  PetscCall(DMDestroy(&dac));
  PetscCheck(failures == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " check(s) failed", failures);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 0
      nsize: {{1 2 3}}
      args: -host_vectors {{0 1}}
      output_file: output/galerkin_0.out

TEST*/
