static char help[] = "Changes of the structure right after an aijtuned matrix's first product: a matrix of the base type whose values are\n\
where its products read them (aijcusparse: on the GPU) converted in place to aijtuned, one product (the plan made), then\n\
one of what changes or frees the structure the plan was made from, then products, each against AIJ's on the host for\n\
the same matrix:\n\
  none          products only\n\
  setvalues     a new nonzero through MatSetValues (the arrays reallocated), then the assembly\n\
  preallocate   MatSeqAIJSetPreallocation (the arrays freed), the values again, the assembly\n\
  eliminate     MatEliminateZeros\n\
  axpy          MatAXPY with a matrix of another pattern (MatHeaderMerge: the base's data replaced)\n\
  option        MatSetOption\n\
  destroy       MatDestroy\n\
  -from <type>  the type converted from (default aijcusparse where PETSc has CUDA, else aij)\n\
  -m <m>        the 2-D 5-point Laplacian's grid is m x m (default 200: 1.6 MB of values)\n\n";

#include <petscmataijtuned.h>

static const char *const Ways[] = {"none", "setvalues", "preallocate", "eliminate", "axpy", "option", "destroy"};

/* The m x m 5-point Laplacian's values into A (preallocated), assembled; the diagonal varies so that no two rows match */
static PetscErrorCode Laplacian(Mat A, PetscInt m)
{
  PetscFunctionBeginUser;
  for (PetscInt r = 0; r < m * m; r++) {
    const PetscInt x = r % m, y = r / m, nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
    PetscCall(MatSetValue(A, r, r, 4.0 + (PetscReal)r / (m * m), INSERT_VALUES));
    for (int k = 0; k < 4; k++)
      if (nb[k][0] >= 0 && nb[k][0] < m && nb[k][1] >= 0 && nb[k][1] < m) PetscCall(MatSetValue(A, r, nb[k][1] * m + nb[k][0], -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, PetscInt m, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, m * m, m * m, m * m, m * m));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 5, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); /* the way setvalues adds one */
  PetscCall(Laplacian(*A, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same change of T (aijtuned) and R (AIJ, the reference) */
static PetscErrorCode Change(const char *way, PetscInt m, Mat *T, Mat R)
{
  Mat M[2] = {*T, R};

  PetscFunctionBeginUser;
  for (int k = 0; k < 2; k++) {
    Mat A = M[k];
    if (!strcmp(way, "setvalues")) {
      PetscCall(MatSetValue(A, 0, m * m - 1, 0.25, INSERT_VALUES)); /* a new nonzero: row 0 reallocated */
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    } else if (!strcmp(way, "preallocate")) {
      PetscCall(MatSeqAIJSetPreallocation(A, 6, NULL));
      PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
      PetscCall(Laplacian(A, m));
    } else if (!strcmp(way, "eliminate")) {
#if PETSC_VERSION_GE(3, 21, 0) /* its form since (the CUDA builds' PETSc); the forms that run it require CUDA */
      PetscCall(MatEliminateZeros(A, PETSC_FALSE));
#endif
    } else if (!strcmp(way, "axpy")) {
      Mat B; /* an entry outside A's pattern in every 100th row */
      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m * m, m * m, 1, NULL, &B));
      for (PetscInt r = 0; r < m * m; r += 100) PetscCall(MatSetValue(B, r, (r + m * m / 2) % (m * m), 0.5, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAXPY(A, 1.0, B, DIFFERENT_NONZERO_PATTERN));
      PetscCall(MatDestroy(&B));
    } else if (!strcmp(way, "option")) PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  }
  if (!strcmp(way, "destroy")) PetscCall(MatDestroy(T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T x on x (the matrix's vectors: CUDA ones) against R x on the host: the largest difference relative to R x's largest entry */
static PetscErrorCode Compare(Mat T, Mat R, Vec x, Vec y, Vec xh, Vec yh, PetscReal *err)
{
  const PetscScalar *a, *b;
  PetscReal          ymax = 0, d = 0;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(MatMult(T, x, y));
  PetscCall(MatMult(R, xh, yh));
  PetscCall(VecGetLocalSize(yh, &n));
  PetscCall(VecGetArrayRead(y, &a)); /* y read on the host */
  PetscCall(VecGetArrayRead(yh, &b));
  for (PetscInt i = 0; i < n; i++) ymax = PetscMax(ymax, PetscAbsScalar(b[i])), d = PetscMax(d, PetscAbsScalar(a[i] - b[i]));
  PetscCall(VecRestoreArrayRead(yh, &b));
  PetscCall(VecRestoreArrayRead(y, &a));
  *err = d / (ymax > 0 ? ymax : 1.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x's values from xh's */
static PetscErrorCode CopyIn(Vec xh, Vec x)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(xh, &n));
  PetscCall(VecGetArrayRead(xh, &a));
  PetscCall(VecGetArrayWrite(x, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(x, &b));
  PetscCall(VecRestoreArrayRead(xh, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt m = 200;
  char     from[64] = MATAIJ;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscStrncpy(from, MATAIJCUSPARSE, sizeof(from)));
#endif
  PetscCall(PetscOptionsGetString(NULL, NULL, "-from", from, sizeof(from), NULL));
  for (size_t w = 0; w < PETSC_STATIC_ARRAY_LENGTH(Ways); w++) {
    Mat       T, R;
    Vec       x, y, xh, yh;
    PetscReal err, worst = 0;

    PetscCall(PetscPrintf(PETSC_COMM_SELF, "way %s\n", Ways[w]));
    PetscCall(Create(from, m, &T));
    PetscCall(Create(MATSEQAIJ, m, &R));
    PetscCall(MatCreateVecs(T, &x, &y));
    PetscCall(MatCreateVecs(R, &xh, &yh));
    PetscCall(VecSetRandom(xh, NULL));
    PetscCall(CopyIn(xh, x));
    PetscCall(MatMult(T, x, y)); /* aijcusparse's values on the GPU */
    PetscCall(MatConvert(T, MATAIJTUNED, MAT_INPLACE_MATRIX, &T));
    PetscCall(Compare(T, R, x, y, xh, yh, &err)); /* the plan made */
    worst = PetscMax(worst, err);
    PetscCall(Change(Ways[w], m, &T, R));
    for (int k = 0; T && k < 5; k++) {
      PetscCall(Compare(T, R, x, y, xh, yh, &err));
      worst = PetscMax(worst, err);
    }
    PetscCall(MatDestroy(&T));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "way %s: products %s AIJ's\n", Ways[w], worst < 1e-12 ? "match" : "differ from"));
    if (worst >= 1e-12) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  largest relative difference %g\n", (double)worst));
    PetscCall(MatDestroy(&R));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&xh));
    PetscCall(VecDestroy(&yh));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 0
      output_file: output/structure_0.out

   test:
      suffix: cuda
      requires: cuda
      output_file: output/structure_0.out

TEST*/
