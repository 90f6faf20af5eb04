static char help[] = "An aijtuned matrix gives its device memory back: PETSc keeps every byte freed to the device's memory pool\n\
for the process, so the memory its setup needs only for a while and its device copies at MatDestroy would otherwise stay\n\
reserved there.  The pool's own figures (this process's alone, whatever else runs on the GPU) are read before the matrix,\n\
after its first product and after MatDestroy.  Between them, new host values (which make a device copy of the values that\n\
the first product did not keep), a MatScale on the GPU (which makes the base's device matrix) and new host values again\n\
(which go up into the base's matrix: aijtuned's copy is given back).  Every product is checked against aijcusparse's,\n\
which takes the same calls.\n\
  -n <n>  rows n^3 / 2 of 1 to 40 entries scattered over the columns (default 80: about 5.2M entries)\n\n";

#include <petscmataijtuned.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
  #include "../common/testscattered.h"

/* The pool's granularity on an H200 is 32 MiB: within this much counts as the same */
  #define SLACK ((uint64_t)64 << 20)
/* Memory in use is counted by the allocation: within this much counts as the same */
  #define USED_SLACK ((double)(2 << 20))

/* The scattered rows added to A's values (its first ones after MatCreate), then assembled */
static PetscErrorCode AddValues(Mat A, PetscInt rows)
{
  PetscFunctionBeginUser;
  PetscCall(TestScatteredRows(A, rows, 0, rows));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, PetscInt rows, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, rows, rows, rows, rows));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 40, NULL));
  PetscCall(AddValues(*A, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A's product equals R's, both multiplying x; y and yref are work vectors */
static PetscErrorCode SameProduct(Mat A, Mat R, Vec x, Vec y, Vec yref, PetscBool *same)
{
  PetscReal dn, rn;

  PetscFunctionBeginUser;
  PetscCall(MatMult(R, x, yref));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(yref, NORM_INFINITY, &rn));
  PetscCall(VecAXPY(y, -1.0, yref));
  PetscCall(VecNorm(y, NORM_INFINITY, &dn));
  *same = (PetscBool)(dn <= 1e-13 * rn);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device's pool after everything queued is done: its reserved and used bytes */
static PetscErrorCode Pool(uint64_t *reserved, uint64_t *used)
{
  cudaMemPool_t pool;
  int           device;

  PetscFunctionBeginUser;
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCallCUDA(cudaGetDevice(&device));
  PetscCallCUDA(cudaDeviceGetMemPool(&pool, device));
  PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, reserved));
  PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, used));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  PetscInt n = 80;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
#if defined(PETSC_HAVE_CUDA)
  {
    const PetscInt rows = n * n * n / 2;
    Mat            A, R;
    Vec            x, y, yref;
    PetscRandom    rnd;
    PetscReal      dn, rn;
    uint64_t       reserved[3], used[3];

    /* the reference and the vectors first: the pool's figures then move with aijtuned's matrix alone */
    PetscCall(Create(MATAIJCUSPARSE, rows, &R));
    PetscCall(MatCreateVecs(R, &x, &y));
    PetscCall(VecDuplicate(y, &yref));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(R, x, yref));
    PetscCall(VecNorm(yref, NORM_INFINITY, &rn));
    PetscCall(Pool(&reserved[0], &used[0]));

    PetscCall(Create(MATAIJTUNED, rows, &A));
    PetscCall(MatMult(A, x, y));
    PetscCall(VecAXPY(y, -1.0, yref));
    PetscCall(VecNorm(y, NORM_INFINITY, &dn));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "the first product matches aijcusparse's: %s\n", dn <= 1e-13 * rn ? "yes" : "NO"));
    PetscCall(Pool(&reserved[1], &used[1]));
    PetscCheck(used[1] > used[0], PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned's device copies are not from the pool: this test measures nothing");
    /* unused beyond the start's: what the setup left there */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "after the first product the pool holds no more unused memory than before: %s\n", reserved[1] - used[1] <= reserved[0] - used[0] + SLACK ? "yes" : "NO"));
    if (reserved[1] - used[1] > reserved[0] - used[0] + SLACK) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  unused %.1f MB, before %.1f MB\n", (double)(reserved[1] - used[1]) / 1e6, (double)(reserved[0] - used[0]) / 1e6));

    { /* values changed on the host, then on the GPU, then on the host again: A's device memory in use at each */
      MatInfo   info;
      PetscBool same[3];
      uint64_t  r, before, after;
      double    copy, moved[2];
      PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
      copy = 8.0 * info.nz_used; /* a device copy of the values */
      for (int step = 0; step < 3; step++) {
        if (step == 1) PetscCall(MatScale(R, 0.5));
        else PetscCall(AddValues(R, rows));
        PetscCall(MatMult(R, x, yref)); /* R's device copies made before the pool is read: A's alone move it */
        PetscCall(Pool(&r, &before));
        if (step == 1) PetscCall(MatScale(A, 0.5));
        else PetscCall(AddValues(A, rows));
        PetscCall(MatMult(A, x, y));
        PetscCall(Pool(&r, &after));
        if (step != 1) moved[step / 2] = (double)after - (double)before;
        PetscCall(SameProduct(A, R, x, y, yref, &same[step]));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "products after new host values, MatScale and new host values match aijcusparse's: %s\n", same[0] && same[1] && same[2] ? "yes" : "NO"));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "the first product kept no device copy of the values (new host values made one): %s\n", moved[0] >= copy - USED_SLACK ? "yes" : "NO"));
      if (moved[0] < copy - USED_SLACK) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %.1f MB more in use, the copy %.1f MB\n", moved[0] / 1e6, copy / 1e6));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "with the base's device matrix, new host values go up into it and the copy is given back: %s\n", moved[1] <= -copy + USED_SLACK ? "yes" : "NO"));
      if (moved[1] > -copy + USED_SLACK) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %.1f MB more in use, the copy %.1f MB\n", moved[1] / 1e6, copy / 1e6));
    }

    PetscCall(MatDestroy(&A));
    PetscCall(Pool(&reserved[2], &used[2]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "after MatDestroy the pool holds no more than before the matrix: %s\n", reserved[2] <= reserved[0] + SLACK ? "yes" : "NO"));
    if (reserved[2] > reserved[0] + SLACK) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %.1f MB, before %.1f MB\n", (double)reserved[2] / 1e6, (double)reserved[0] / 1e6));

    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(MatDestroy(&R));
  }
#endif
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: cuda
      requires: cuda
      output_file: output/pool_cuda.out

TEST*/
