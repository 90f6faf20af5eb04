static char help[] = "An aijtuned matrix whose strips find no room on the GPU: its products run on the base's kernel (cuSPARSE's, as\n\
aijcusparse's) and match AIJ's; new values, once there is room again, bring the strips back.  The room is taken from\n\
this process alone: the device's memory pool, where aijtuned's device allocations come from (cudaMallocAsync), is\n\
replaced by one that holds at most -pool_mib MiB, while cuSPARSE's copy of the matrix comes from cudaMalloc.\n\
  -setup convert   an aijcusparse matrix multiplied once (its values on the GPU), the small pool, then the in-place\n\
                   conversion to aijtuned: the plan is made on the GPU, and the first product finds no room\n\
  -setup host      the small pool, then an aijtuned matrix assembled on the host: no room for its values beside\n\
                   the GPU planner (it plans first), or for a large enough structure (the host plans), nor for the strips\n\
  -shape <s>       laplace3d (a DIA plan) or scattered (rows of 1 to 40 entries: a plan of rows sorted by length)\n\
  -n <n>           laplace3d: n^3 rows; scattered: n^3 / 2 rows (default 80: strips of 75 and 170 MB)\n\
  -pool_mib <m>    the small pool's most (default 1; its granularity makes that 32 MiB on an H200)\n\
  -fill            the small pool filled before the matrix is planned: the GPU planner has no room either\n\
Last, new values on the host for both matrices (A's twice R's), and A's product again.\n\
On several ranks (mpiaijtuned) each rank takes its own rows and its own small pool; the plans are not viewed.\n\n";

#include <petscmataijtuned.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
  #include "../common/testscattered.h"
#endif

static const char *const Setups[] = {"convert", "host"};
static const char *const Shapes[] = {"laplace3d", "scattered"};

#if defined(PETSC_HAVE_CUDA) /* the helpers of the GPU test alone */
/* A's entries (preallocated), assembled: the 7-point Laplacian on an n^3 grid, its diagonal varying, or scattered rows */
static PetscErrorCode Fill(Mat A, const char *shape, PetscInt n)
{
  PetscInt rows, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &rows, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  if (!strcmp(shape, "laplace3d")) {
    for (PetscInt r = rstart; r < rend; r++) { /* each rank its own rows */
      const PetscInt i = r % n, j = r / n % n, k = r / (n * n), nb[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k}, {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
      PetscCall(MatSetValue(A, r, r, 6.0 + (PetscReal)r / rows, INSERT_VALUES));
      for (int q = 0; q < 6; q++)
        if (nb[q][0] >= 0 && nb[q][0] < n && nb[q][1] >= 0 && nb[q][1] < n && nb[q][2] >= 0 && nb[q][2] < n) PetscCall(MatSetValue(A, r, (nb[q][2] * n + nb[q][1]) * n + nb[q][0], -1.0, INSERT_VALUES));
    }
  } else PetscCall(TestScatteredRows(A, rows, rstart, rend));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MatType type, const char *shape, PetscInt n, Mat *A)
{
  const PetscInt rows = !strcmp(shape, "laplace3d") ? n * n * n : n * n * n / 2;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, rows, rows));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 40, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 40, NULL, 40, NULL));
  PetscCall(Fill(*A, shape, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y against factor times yref: the largest difference relative to yref's largest entry is within rounding (d: work,
   made before the pool is small, which a new CUDA vector would come from) */
static PetscErrorCode Matches(Vec y, Vec yref, PetscScalar factor, Vec d, PetscBool *match)
{
  PetscReal dn, rn;

  PetscFunctionBeginUser;
  PetscCall(VecWAXPY(d, -factor, yref, y));
  PetscCall(VecNorm(d, NORM_INFINITY, &dn));
  PetscCall(VecNorm(yref, NORM_INFINITY, &rn));
  *match = (PetscBool)(dn <= 1e-13 * PetscAbsScalar(factor) * rn);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan's first line as -mat_view ::ascii_info gives it (the test's filter keeps it); one rank's only */
static PetscErrorCode View(Mat A)
{
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_SELF, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_SELF));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  PetscInt  setup = 0, shape = 0, n = 80;
  PetscReal pool_mib = 1;
  PetscBool fill     = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-setup", Setups, 2, &setup, NULL));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-shape", Shapes, 2, &shape, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-pool_mib", &pool_mib, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fill", &fill, NULL));
#if defined(PETSC_HAVE_CUDA)
  {
    Mat              A = NULL, R;
    Vec              x, y, yref, z, d;
    PetscRandom      rnd;
    PetscBool        match[3];
    int              device;
    cudaMemPool_t    pool, small;
    struct cudaMemPoolProps props;
    void                   *held[512];
    int                     nheld = 0;
    cudaStream_t            stream;

    /* the reference: aijcusparse's product, made before the pool is small */
    PetscCall(Create(MATAIJCUSPARSE, Shapes[shape], n, &R));
    PetscCall(MatCreateVecs(R, &x, &y));
    PetscCall(VecDuplicate(y, &yref));
    PetscCall(VecDuplicate(y, &z));
    PetscCall(VecDuplicate(y, &d));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(R, x, yref));
    PetscCall(Matches(yref, yref, 1.0, d, &match[0])); /* cuBLAS's set-up, before the pool is small */
    if (setup == 0) { /* an aijcusparse matrix whose values are on the GPU, and the base's product made ready there */
      PetscCall(Create(MATAIJCUSPARSE, Shapes[shape], n, &A));
      PetscCall(MatMult(A, x, y));
    }

    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCallCUDA(cudaGetDevice(&device));
    PetscCallCUDA(cudaDeviceGetMemPool(&pool, device));
    PetscCall(PetscMemzero(&props, sizeof(props)));
    props.allocType     = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id   = device;
    props.maxSize       = (size_t)(pool_mib * 1048576);
    PetscCallCUDA(cudaMemPoolCreate(&small, &props));
    PetscCallCUDA(cudaDeviceSetMemPool(device, small));
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    { /* what a pool of that size refuses (its size is rounded up to its granularity) */
      void       *p = NULL;
      cudaError_t cerr;
      cerr = cudaMallocAsync(&p, (size_t)64 << 20, stream);
      if (cerr == cudaSuccess) PetscCallCUDA(cudaFreeAsync(p, stream));
      (void)cudaGetLastError();
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the small pool refuses 64 MiB: %s\n", cerr == cudaErrorMemoryAllocation ? "yes" : "no"));
    }
    for (size_t bytes = (size_t)16 << 20; fill && bytes >= 4096; bytes /= 2) /* all it holds, in pieces of 16 MiB down to 4 KiB */
      while (nheld < 512 && cudaMallocAsync(&held[nheld], bytes, stream) == cudaSuccess) nheld++;
    (void)cudaGetLastError();

    if (setup == 0) PetscCall(MatConvert(A, MATAIJTUNED, MAT_INPLACE_MATRIX, &A));
    else PetscCall(Create(MATAIJTUNED, Shapes[shape], n, &A));
    PetscCall(MatMult(A, x, y));
    PetscCall(Matches(y, yref, 1.0, d, &match[0]));
    PetscCall(MatMult(A, x, y)); /* the same values: no second try */
    PetscCall(MatMultAdd(A, x, yref, z));
    PetscCall(Matches(z, yref, 2.0, d, &match[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no room: products match aijcusparse's: %s\n", match[0] && match[1] ? "yes" : "no"));
    PetscCall(View(A));

    PetscCallCUDA(cudaDeviceSetMemPool(device, pool));
    for (int i = 0; i < nheld; i++) PetscCallCUDA(cudaFreeAsync(held[i], stream));
    PetscCall(MatScale(A, 2.0)); /* new values: the strips try again */
    PetscCall(MatMult(A, x, y));
    PetscCall(Matches(y, yref, 2.0, d, &match[2]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "room again: the product matches twice aijcusparse's: %s\n", match[2] ? "yes" : "no"));
    PetscCall(View(A));

    { /* new values on the host, A's twice R's: where the strips read the base's device values at their build, the
         device copy these go up into is made now */
      PetscInt rstart;
      PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
      if (rstart == 0) PetscCall(MatSetValue(A, 0, 0, 2.0, ADD_VALUES));
      if (rstart == 0) PetscCall(MatSetValue(R, 0, 0, 1.0, ADD_VALUES));
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));
      PetscCall(MatMult(R, x, yref));
      PetscCall(MatMult(A, x, y));
      PetscCall(Matches(y, yref, 2.0, d, &match[2]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "new host values: the product matches twice aijcusparse's: %s\n", match[2] ? "yes" : "no"));
    }

    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&R));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&yref));
    PetscCall(VecDestroy(&z));
    PetscCall(VecDestroy(&d));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCallCUDA(cudaMemPoolDestroy(small));
  }
#else
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "needs CUDA\n"));
#endif
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      requires: cuda
      filter: grep -o -E "^(the small|no room|room again|new host).*|aijtuned plan: .*|No room.*" | sed -E -e "s/: .*layouts/: layouts/" -e "s/[0-9.e+-]+ MB/X MB/g"
      test:
         suffix: cuda_convert
         args: -setup convert -shape {{laplace3d scattered}} -info :mat
         output_file: output/room_cuda_convert.out
      test:
         suffix: cuda_host
         args: -setup host -shape {{laplace3d scattered}} -info :mat
         output_file: output/room_cuda_host.out
      # the small pool filled first: no room for the GPU planner's sort either (the host plans); laplace3d's DIA plan
      # takes nothing from the pool, its passes' memory is kept for the process (kernels/stage.cu)
      test:
         suffix: cuda_convert_fill
         args: -setup convert -shape scattered -fill -info :mat
         output_file: output/room_cuda_convert_fill.out
      # no room for the structure the GPU planner reads (the host plans)
      test:
         suffix: cuda_host_fill
         args: -setup host -shape {{laplace3d scattered}} -fill -info :mat
         output_file: output/room_cuda_host_fill.out

   # two ranks: each block of each rank decides for itself (the plans are not viewed; the lines in sorted order)
   test:
      suffix: cuda_mpi
      requires: cuda
      nsize: 2
      args: -setup {{convert host}} -shape scattered -fill -info :mat
      filter: grep -o -E "^(the small|no room|room again|new host).*|No room.*" | sed -E -e "s/[0-9.e+-]+ MB/X MB/g" -e "s/for the (planner's passes|CSR's structure):/for the planner's (passes or structure):/" | LC_ALL=C sort
      output_file: output/room_cuda_mpi.out

TEST*/
