static char help[] = "An aijtuned matrix gives its device memory back: PETSc keeps every byte freed to the device's memory pool\n\
for the process, so the memory its setup needs only for a while and its device copies at MatDestroy would otherwise stay\n\
reserved there.  The pool's own figures (this process's alone, whatever else runs on the GPU) are read before the matrix,\n\
after its first product and after MatDestroy; the product is checked against aijcusparse's.\n\
  -n <n>  rows n^3 / 2 of 1 to 40 entries scattered over the columns (default 80: about 5.2M entries)\n\n";

#include <petscmataijtuned.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
  #include "../common/testscattered.h"

/* The pool's granularity on an H200 is 32 MiB: within this much counts as the same */
  #define SLACK ((uint64_t)64 << 20)

static PetscErrorCode Create(MatType type, PetscInt rows, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, rows, rows, rows, rows));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 40, NULL));
  PetscCall(TestScatteredRows(*A, rows, 0, rows));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
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
