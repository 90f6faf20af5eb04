static char help[] = "COO assembly (MatSetPreallocationCOO, MatSetValuesCOO) of an aijtuned matrix gives AIJ's products, also\n\
after new values through MatSetValuesCOO (on a CUDA build from a device array, as GPU assembly does).\n\n";

#include <petscmataijtuned.h>

/* The COO entries of a 2-D 5-point Laplacian on an m x m grid, this rank's rows, with some diagonal entries given twice (COO
   sums repeated entries); values scaled by s.  i, j, v hold 6 * rows entries. */
static PetscErrorCode Entries(PetscInt m, PetscInt lo, PetscInt hi, PetscScalar s, PetscInt *i, PetscInt *j, PetscScalar *v, PetscCount *n)
{
  PetscFunctionBeginUser;
  *n = 0;
  for (PetscInt r = lo; r < hi; r++) {
    const PetscInt x = r % m, y = r / m, nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
    i[*n] = r, j[*n] = r, v[*n] = s * (4.0 + (PetscReal)r / (m * m)), (*n)++;
    for (int k = 0; k < 4; k++)
      if (nb[k][0] >= 0 && nb[k][0] < m && nb[k][1] >= 0 && nb[k][1] < m) i[*n] = r, j[*n] = nb[k][1] * m + nb[k][0], v[*n] = -s, (*n)++;
    if (r % 7 == 0) i[*n] = r, j[*n] = r, v[*n] = s * 0.5, (*n)++; /* the diagonal again */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, PetscInt m, const PetscInt *i, const PetscInt *j, PetscCount n, Mat *A)
{
  PetscInt *ic, *jc; /* MatSetPreallocationCOO may change its arguments */

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, m * m, m * m));
  PetscCall(MatSetType(*A, type));
  PetscCall(PetscMalloc2(n, &ic, n, &jc));
  PetscCall(PetscArraycpy(ic, i, n));
  PetscCall(PetscArraycpy(jc, j, n));
  PetscCall(MatSetPreallocationCOO(*A, n, ic, jc));
  PetscCall(PetscFree2(ic, jc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's values from v: on a CUDA build from a device copy of them, as an assembly on the GPU gives them */
static PetscErrorCode SetValues(Mat A, const PetscScalar *v, PetscCount n)
{
  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_CUDA)
  Vec                w;
  PetscScalar       *h;
  const PetscScalar *d;
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)n, &w));
  PetscCall(VecGetArrayWrite(w, &h));
  PetscCall(PetscArraycpy(h, v, n));
  PetscCall(VecRestoreArrayWrite(w, &h));
  PetscCall(VecCUDAGetArrayRead(w, &d));
  PetscCall(MatSetValuesCOO(A, d, INSERT_VALUES));
  PetscCall(VecCUDARestoreArrayRead(w, &d));
  PetscCall(VecDestroy(&w));
#else
  PetscCall(MatSetValuesCOO(A, v, INSERT_VALUES));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat          A, T;
  Vec          x, y, z;
  PetscInt     m = 40, lo, hi, *i, *j;
  PetscScalar *v;
  PetscCount   n;
  PetscInt     failures = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  {
    Vec layout;
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, m * m, &layout));
    PetscCall(VecGetOwnershipRange(layout, &lo, &hi));
    PetscCall(VecDestroy(&layout));
  }
  PetscCall(PetscMalloc3(6 * (hi - lo) + 1, &i, 6 * (hi - lo) + 1, &j, 6 * (hi - lo) + 1, &v));
  PetscCall(Entries(m, lo, hi, 1.0, i, j, v, &n));
  PetscCall(Create(MATAIJ, m, i, j, n, &A));
  PetscCall(Create(MATAIJTUNED, m, i, j, n, &T));
  for (int round = 0; round < 3; round++) { /* the first values, then new ones twice (the same pattern) */
    PetscReal diff, norm;
    PetscCall(Entries(m, lo, hi, 1.0 + round, i, j, v, &n));
    PetscCall(MatSetValuesCOO(A, v, INSERT_VALUES));
    PetscCall(SetValues(T, v, n));
    PetscCall(MatCreateVecs(T, &x, &y));
    PetscCall(VecDuplicate(y, &z));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(MatMult(T, x, y));
    {
      Vec xa, za;
      const PetscScalar *xv;
      PetscScalar       *zv;
      PetscCall(MatCreateVecs(A, &xa, &za));
      PetscCall(VecGetArrayRead(x, &xv)); /* x's values into a host vector of A's kind */
      PetscCall(VecGetArrayWrite(xa, &zv));
      PetscCall(PetscArraycpy(zv, xv, hi - lo));
      PetscCall(VecRestoreArrayWrite(xa, &zv));
      PetscCall(VecRestoreArrayRead(x, &xv));
      PetscCall(MatMult(A, xa, za));
      PetscCall(VecGetArrayRead(za, &xv));
      PetscCall(VecGetArrayWrite(z, &zv));
      PetscCall(PetscArraycpy(zv, xv, hi - lo));
      PetscCall(VecRestoreArrayWrite(z, &zv));
      PetscCall(VecRestoreArrayRead(za, &xv));
      PetscCall(VecDestroy(&xa));
      PetscCall(VecDestroy(&za));
    }
    PetscCall(VecNorm(z, NORM_INFINITY, &norm));
    PetscCall(VecAXPY(z, -1.0, y));
    PetscCall(VecNorm(z, NORM_INFINITY, &diff));
    if (diff > 1e-12 * norm) failures++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "COO values, round %d: aijtuned's product %s AIJ's\n", round, diff <= 1e-12 * norm ? "equals" : "DIFFERS FROM"));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(PetscFree3(i, j, v));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&T));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0
      nsize: {{1 2 3}}
      args: -mat_aijtuned_host_strips {{0 1}}
      output_file: output/coo_0.out

   # on the GPU the values given from a device array stay there: the plan reads the structure alone and the GPU
   # builds the slots from the device's values (seq/cuda/aijtunedcuda.c, BuildOnDevice)
   test:
      suffix: cuda_structure
      requires: cuda
      nsize: {{1 2}}
      args: -info :mat
      filter: grep -E "Planning from the structure alone|aijtuned's product" | sed -e "s/^.*Planning from/Planning from/" | sort -u
      output_file: output/coo_cuda_structure.out

   # STREAM plans read the values where the COO assembly leaves them, the base's device copy, in every round: no slots
   # of their own to refill (seq/cuda/aijtunedcuda.c, InPlace)
   test:
      suffix: cuda_in_place
      requires: cuda
      nsize: {{1 2}}
      args: -mat_aijtuned_formats stream
      output_file: output/coo_0.out

   # the same, with -info showing the path taken
   test:
      suffix: cuda_in_place_info
      requires: cuda
      nsize: {{1 2}}
      args: -mat_aijtuned_formats stream -info :mat
      filter: grep -E "strips read the values in place|aijtuned's product" | sed -e "s/^.*strips read/strips read/" | sort -u
      output_file: output/coo_cuda_in_place_info.out

   # a pattern whose values fill 10 MB: its GPU planner starts before the values are assembled, beside the base's COO
   # kernel, and the assembly's end takes its plan (seq/aijtuned.c, MatSeqAIJTunedPlanBesideCOO); new values do not plan
   test:
      suffix: cuda_beside
      requires: cuda
      args: -m 500 -info :mat
      filter: grep -E "Planning beside the COO|aijtuned's product" | sed -e "s/^.*Planning beside/Planning beside/" | sort -u
      output_file: output/coo_cuda_beside.out

TEST*/
