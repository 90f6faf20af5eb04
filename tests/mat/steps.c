static char help[] = "A loop of steps, each assembling new values on the host with the same pattern and multiplying: aijtuned's\n\
products equal the host AIJ's at every step, and on a GPU an array of 1 to 8 MiB is page-locked at its 16th copy of\n\
new values (seq/cuda/aijtunedpin.c; -info names it).\n\
  -n <rows>   : rows of the tridiagonal matrix (default 60000: 1.4 MiB of values)\n\
  -steps <k>  : steps (default 18)\n\n";

#include <petscmataijtuned.h>
#include "../common/testtridiag.h"

int main(int argc, char **argv)
{
  Mat       A, R; /* aijtuned, and the host AIJ reference */
  Vec       x, y, xr, yr;
  PetscInt  n = 60000, steps = 18;
  PetscReal diff, ref;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(TestTridiagonalCreate(MATAIJTUNED, n, &A));
  PetscCall(TestTridiagonalCreate(MATAIJ, n, &R));
  PetscCall(MatCreateVecs(A, &x, &y)); /* CUDA vectors where PETSc has CUDA */
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecSetRandom(xr, NULL));
  PetscCall(VecCopy(xr, x));
  for (PetscInt s = 0; s <= steps; s++) { /* step 0 is the first assembly; 1..steps bring new values */
    PetscCall(TestTridiagonalFill(A, n, (PetscReal)s)); /* step s: the diagonal raised by s, the pattern unchanged */
    PetscCall(TestTridiagonalFill(R, n, (PetscReal)s));
    PetscCall(MatMult(A, x, y));
    PetscCall(MatMult(R, xr, yr));
    PetscCall(VecNorm(yr, NORM_INFINITY, &ref));
    PetscCall(VecAXPY(yr, -1.0, y));
    PetscCall(VecNorm(yr, NORM_INFINITY, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step %" PetscInt_FMT ": the product %s the host AIJ's\n", s, diff <= 1e-14 * ref ? "equals" : "DIFFERS FROM"));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: 0
      nsize: {{1 2}}
      args: -steps 3
      output_file: output/steps_0.out

   # on one rank the 1.4 MiB array is page-locked at its 16th copy of new values, step 16's
   test:
      suffix: cuda_pin
      requires: cuda
      args: -info :mat
      filter: grep -E "^step|page-locked for their copies" | sed -E "s/^.*page-locked for their copies.*$/page-locked/"
      output_file: output/steps_cuda_pin.out

TEST*/
