static char help[] = "Krylov solves with aijtuned give the reference format's iterations, true residual and solution on any\n\
number of ranks: CG + Jacobi on the 3-D 7-point Poisson matrix, GMRES(30) + Jacobi on a generated matrix with\n\
power-law row lengths and on a Matrix Market file.  The reference is aijcusparse with -vec_type cuda (PETSc\n\
with CUDA), aij otherwise; the output names neither, so every format and rank count prints the same lines.\n\
  -n <20>   : Poisson grid points per side\n\
  -m <4000> : rows of the power-law matrix\n\
  -f <file> : the Matrix Market file (none: no third solve)\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>

typedef PetscInt (*RowFn)(PetscInt, PetscInt, PetscInt[], PetscScalar[]);

#include "../common/testhash.h"

/* Row i of the 7-point Poisson matrix of an n^3 grid, columns increasing. */
static PetscInt PoissonRow(PetscInt n, PetscInt i, PetscInt cols[], PetscScalar vals[])
{
  const PetscInt x = i % n, y = (i / n) % n, z = i / (n * n);
  const PetscInt cand[7] = {z > 0 ? i - n * n : -1, y > 0 ? i - n : -1, x > 0 ? i - 1 : -1, i, x < n - 1 ? i + 1 : -1, y < n - 1 ? i + n : -1, z < n - 1 ? i + n * n : -1};
  PetscInt       len = 0;

  for (int c = 0; c < 7; c++)
    if (cand[c] >= 0) {
      cols[len]   = cand[c];
      vals[len++] = c == 3 ? 6.0 : -1.0;
    }
  return len;
}

/*
  Row i of an M x M matrix with power-law row lengths (1 to ~1000 entries at hashed columns: long rows
  and short ones in one plan) and a diagonal of 1 + the row's sum of |off-diagonal|, so that GMRES +
  Jacobi converges whatever the pattern.
*/
static PetscInt PowerLawRow(PetscInt M, PetscInt i, PetscInt cols[], PetscScalar vals[])
{
  const double u   = (double)(Hash((unsigned long long)i, 1) % 1000000 + 1) / 1000001.0;
  PetscInt     len = (PetscInt)PetscMin((double)(M - 1), PetscMin(1000.0, PetscPowReal(u, -1.0 / 1.2)));
  PetscScalar  sum = 0.0;
  PetscInt     d   = 0;

  for (PetscInt k = 0; k < len; k++) cols[k] = (PetscInt)((i + 1 + Hash((unsigned long long)i, (unsigned long long)k + 2) % (unsigned long long)(M - 1)) % M); /* never i */
  cols[len++] = i;
  (void)PetscSortRemoveDupsInt(&len, cols);
  for (PetscInt k = 0; k < len; k++) {
    if (cols[k] == i) {
      d = k;
      continue;
    }
    vals[k] = -(0.5 + (double)(Hash((unsigned long long)i, (unsigned long long)cols[k] + 7) % 1000) / 1000.0);
    sum -= vals[k];
  }
  vals[d] = 1.0 + sum;
  return len;
}

/* An M x M matrix of the given type filled row by row as an application fills it, with exact preallocation. */
static PetscErrorCode Create(MatType type, PetscInt M, PetscInt param, RowFn row, PetscInt maxlen, Mat *A)
{
  PetscInt     m = PETSC_DECIDE, rend, rstart, *dnnz, *onnz, *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &m, &M));
  PetscCallMPI(MPI_Scan(&m, &rend, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  rstart = rend - m;
  PetscCall(PetscMalloc4(m, &dnnz, m, &onnz, maxlen, &cols, maxlen, &vals));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt len = row(param, i, cols, vals);
    dnnz[i - rstart] = onnz[i - rstart] = 0;
    for (PetscInt k = 0; k < len; k++) {
      if (cols[k] >= rstart && cols[k] < rend) dnnz[i - rstart]++;
      else onnz[i - rstart]++;
    }
  }
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, m, m, M, M));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnnz, onnz, NULL, NULL));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt len = row(param, i, cols, vals);
    PetscCall(MatSetValues(*A, 1, &i, len, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree4(dnnz, onnz, cols, vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          res; /* true residual |b - A u| */
  Vec                u;
} Outcome;

/* Jacobi-preconditioned CG or GMRES(30) to a relative 1e-8 from a zero initial guess. */
static PetscErrorCode Solve(Mat A, Vec b, PetscBool gmres, Outcome *o)
{
  KSP ksp;
  PC  pc;
  Vec r;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &o->u));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, gmres ? KSPGMRES : KSPCG));
  if (gmres) PetscCall(KSPGMRESSetRestart(ksp, 30));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 500));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(o->u, 0.0));
  PetscCall(KSPSolve(ksp, b, o->u));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(MatMult(A, o->u, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &o->res));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The same solve with both formats (b = the reference's A * ones, vectors of -vec_type) and one line:
  the reference's iterations and reason, then whether aijtuned's iterations, true residual (relative 1e-6)
  and solution (relative 1e-6 in 2-norm) are the same.  Summation orders differ between formats, so
  the residuals are compared, not printed.
*/
static PetscErrorCode Compare(const char *title, Mat R, Mat T, PetscBool gmres, PetscInt *failures)
{
  Outcome   o[2];
  Vec       b, ones;
  PetscInt  m, M;
  PetscReal bnorm, dres, dsol, unorm;
  PetscBool same_its, same_res, same_sol;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(R, &m, NULL));
  PetscCall(MatGetSize(R, &M, NULL));
  PetscCall(VecCreate(PETSC_COMM_WORLD, &ones));
  PetscCall(VecSetSizes(ones, m, M));
  PetscCall(VecSetFromOptions(ones));
  PetscCall(VecDuplicate(ones, &b));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(MatMult(R, ones, b));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(Solve(R, b, gmres, &o[0]));
  PetscCall(Solve(T, b, gmres, &o[1]));
  dres = PetscAbsReal(o[1].res - o[0].res) / PetscMax(o[0].res, PETSC_SMALL * bnorm);
  PetscCall(VecNorm(o[0].u, NORM_2, &unorm));
  PetscCall(VecAXPY(o[1].u, -1.0, o[0].u));
  PetscCall(VecNorm(o[1].u, NORM_2, &dsol));
  dsol /= PetscMax(unorm, PETSC_SMALL);
  same_its = (PetscBool)(o[1].its == o[0].its);
  same_res = (PetscBool)(dres < 1e-6);
  same_sol = (PetscBool)(dsol < 1e-6);
  if (!(same_its && same_res && same_sol && o[0].reason > 0)) (*failures)++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %s + Jacobi: %" PetscInt_FMT " iterations, %s\n", title, gmres ? "GMRES(30)" : "CG", o[0].its, KSPConvergedReasons[o[0].reason]));
  if (same_its) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  aijtuned: same iterations"));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  aijtuned: DIFFERENT iterations (%" PetscInt_FMT ")", o[1].its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", %s true residual, %s solution\n", same_res ? "same" : "DIFFERENT", same_sol ? "same" : "DIFFERENT"));
  if (!same_res || !same_sol) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  (relative differences: residual %g, solution %g)\n", (double)dres, (double)dsol));
  for (int k = 0; k < 2; k++) PetscCall(VecDestroy(&o[k].u));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&ones));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      file[PETSC_MAX_PATH_LEN] = "", vtype[64] = "", title[PETSC_MAX_PATH_LEN + 32];
  PetscInt  n = 20, m = 4000, failures = 0;
  MatType   ref = MATAIJ;
  Mat       R, T;
  PetscBool found;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-vec_type", vtype, sizeof(vtype), NULL));
  PetscCall(PetscStrInList(vtype, "cuda,seqcuda,mpicuda", ',', &found));
  if (PetscDefined(HAVE_CUDA) && found) ref = MATAIJCUSPARSE;

  PetscCall(Create(ref, n * n * n, n, PoissonRow, 7, &R));
  PetscCall(Create(MATAIJTUNED, n * n * n, n, PoissonRow, 7, &T));
  PetscCall(PetscSNPrintf(title, sizeof(title), "Poisson %" PetscInt_FMT "^3", n));
  PetscCall(Compare(title, R, T, PETSC_FALSE, &failures));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&T));

  PetscCall(Create(ref, m, m, PowerLawRow, 1001, &R));
  PetscCall(Create(MATAIJTUNED, m, m, PowerLawRow, 1001, &T));
  PetscCall(PetscSNPrintf(title, sizeof(title), "power-law rows, %" PetscInt_FMT " x %" PetscInt_FMT, m, m));
  PetscCall(Compare(title, R, T, PETSC_TRUE, &failures));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&T));

  if (file[0]) {
    const char *slash = strrchr(file, '/');
    PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, ref, &R));
    PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, MATAIJTUNED, &T));
    PetscCall(Compare(slash ? slash + 1 : file, R, T, PETSC_TRUE, &failures));
    PetscCall(MatDestroy(&R));
    PetscCall(MatDestroy(&T));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " failures\n", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 1
      nsize: {{1 2 4}}
      args: -f ../data/cage8.mtx.gz -mat_aijtuned_min_strip_rows 16 -mat_aijtuned_host_strips
      output_file: output/ksp_1.out

   test:
      suffix: cuda
      requires: cuda
      nsize: {{1 2 4}}
      args: -f ../data/cage8.mtx.gz -mat_aijtuned_min_strip_rows 16 -vec_type cuda -use_gpu_aware_mpi 0
      output_file: output/ksp_1.out

TEST*/
