static char help[] = "Property test: MatMult and MatMultAdd of aijtuned, run through every layout and plan on the host\n\
reference, against AIJ on the same matrix, before and after MatScale.\n\
  -shape <name> : a generated matrix (random, empty_rows, one_long_row, equal, wide, tall, zero_rows, one, zeros, power_law, alternating,\n\
                  stencil2d, stencil3d, laplace3d: stencil3d's pattern with 6 on the diagonal and -1 off it,\n\
                  blocks3: whole 3 x 3 blocks, block size 3)\n\
  -f <file>     : a Matrix Market file instead\n\
  -dir <dir>    : every *.mtx.gz file of a directory instead\n\
  -convert_from <type> : aijtuned converted from this type of the matrix (aijcusparse: aijtuned on the GPU), not from AIJ\n\
  -vec_type <type>     : the vectors' type (cuda: the strips' kernels), not the converted matrix's own\n\n";

#include <petscmataijtuned.h>

#include "../common/testhash.h"

static PetscInt RowLength(const char *shape, PetscInt i, PetscInt n)
{
  unsigned long long h = Hash((unsigned long long)i, 7);
  if (!strcmp(shape, "random")) return (PetscInt)(h % 12);
  if (!strcmp(shape, "empty_rows")) return i % 7 ? 5 : 0;
  if (!strcmp(shape, "one_long_row")) return i == 700 ? PetscMin(n, 1400) : 3;
  if (!strcmp(shape, "equal")) return 7;
  if (!strcmp(shape, "wide")) return 1 + (PetscInt)(h % 40);
  if (!strcmp(shape, "tall")) return (PetscInt)(h % 3);
  if (!strcmp(shape, "zeros")) return 1 + (PetscInt)(h % 20);
  if (!strcmp(shape, "one")) return 1;
  if (!strcmp(shape, "alternating")) return i % 500 == 0 ? 3000 : 2 + (PetscInt)(h % 4);
  if (!strcmp(shape, "power_law")) {
    double u = (double)(h % 1000000 + 1) / 1000001.0;
    return (PetscInt)PetscMin(4000.0, PetscPowReal(u, -1.0 / 1.2));
  }
  return 0;
}

/* The columns of row i of a 5-point (40 x 30 grid) or 7-point (14 x 12 x 10 grid) stencil; every 13th
   coupling of the 3-D one is left out, so that DIA has padding to skip. */
static PetscInt StencilRow(const char *shape, PetscInt i, PetscInt *cols)
{
  const PetscBool three = (PetscBool)(!strcmp(shape, "stencil3d") || !strcmp(shape, "laplace3d"));
  const PetscInt  nx = three ? 14 : 40, ny = three ? 12 : 30, nz = three ? 10 : 1;
  const PetscInt  x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
  const PetscInt  cand[7] = {z > 0 ? i - nx * ny : -1, y > 0 ? i - nx : -1, x > 0 ? i - 1 : -1, i, x < nx - 1 ? i + 1 : -1, y < ny - 1 ? i + nx : -1, z < nz - 1 ? i + nx * ny : -1};
  PetscInt        k = 0;
  for (int c = 0; c < 7; c++)
    if (cand[c] >= 0 && !(three && c != 3 && Hash((unsigned long long)i, (unsigned long long)c) % 13 == 0)) cols[k++] = cand[c];
  return k;
}

/* blocks3: whole 3 x 3 blocks, block size 3 (BCSR); block row b couples to blocks b - 1, b, b + 1 and two
   hashed ones.  The block columns of block row b into bcols (sorted, distinct); returns how many. */
static PetscInt BlockRow(PetscInt b, PetscInt nb, PetscInt *bcols)
{
  PetscInt cand[5] = {b - 1, b, b + 1, (PetscInt)(Hash((unsigned long long)b, 3) % (unsigned long long)nb), (PetscInt)(Hash((unsigned long long)b, 4) % (unsigned long long)nb)}, k = 0;
  PetscCallAbort(PETSC_COMM_SELF, PetscSortInt(5, cand));
  for (int c = 0; c < 5; c++)
    if (cand[c] >= 0 && cand[c] < nb && (k == 0 || bcols[k - 1] != cand[c])) bcols[k++] = cand[c];
  return k;
}

static PetscErrorCode Generate(const char *shape, Mat *A)
{
  PetscInt m = 3000, n = 3000, rstart, rend, *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  if (!strcmp(shape, "wide")) m = 300, n = 5000;
  else if (!strcmp(shape, "tall")) m = 5000, n = 40;
  else if (!strcmp(shape, "zero_rows")) m = 0, n = 10;
  else if (!strcmp(shape, "one")) m = n = 1;
  else if (!strcmp(shape, "power_law")) m = n = 20000;
  else if (!strcmp(shape, "alternating")) m = n = 5000;
  else if (!strcmp(shape, "stencil2d")) m = n = 40 * 30;
  else if (!strcmp(shape, "stencil3d") || !strcmp(shape, "laplace3d")) m = n = 14 * 12 * 10;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, m, n));
  if (!strcmp(shape, "blocks3")) PetscCall(MatSetBlockSize(*A, 3));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetUp(*A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PetscCall(PetscMalloc2(n, &cols, n, &vals));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt len = PetscMin(RowLength(shape, i, n), n), k = 0;
    if (!strcmp(shape, "blocks3")) {
      PetscInt bcols[5], nbc = BlockRow(i / 3, n / 3, bcols);
      for (PetscInt t = 0; t < nbc; t++)
        for (PetscInt j = 0; j < 3; j++) cols[3 * t + j] = 3 * bcols[t] + j, vals[3 * t + j] = (double)(Hash(i, 3 * bcols[t] + j + 2) % 2000001) / 1e6 - 1.0;
      PetscCall(MatSetValues(*A, 1, &i, 3 * nbc, cols, vals, INSERT_VALUES));
      continue;
    }
    if (!strncmp(shape, "stencil", 7) || !strcmp(shape, "laplace3d")) {
      len = StencilRow(shape, i, cols);
      /* laplace3d: two values, which the GPU's DIA strips read as one-byte codes */
      for (PetscInt j = 0; j < len; j++) vals[j] = shape[0] == 'l' ? (cols[j] == i ? 6.0 : -1.0) : (double)(Hash(i, cols[j] + 2) % 2000001) / 1e6 - 1.0;
      PetscCall(MatSetValues(*A, 1, &i, len, cols, vals, INSERT_VALUES));
      continue;
    }
    for (PetscInt c = 0; c < n && k < len; c++) /* len distinct columns, spread by the hash */
      if ((PetscInt)(Hash((unsigned long long)i, (unsigned long long)c) % (unsigned long long)(n - c)) < len - k) {
        cols[k] = c;
        vals[k] = (!strcmp(shape, "zeros") && Hash(i, c + 1) % 3 == 0) ? 0.0 : (double)(Hash(i, c + 2) % 2000001) / 1e6 - 1.0;
        k++;
      }
    PetscCall(MatSetValues(*A, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char *formats, *sort, *small, *cols; /* cols: -mat_aijtuned_col_order */
} Variant;

/* The host reference sums in AIJ's order (differences ~0); GPU kernels sum in another order, so allow
   rounding: a wrong layout gives differences of order one. */
#define TOL 1e-12

/* max_i |a_i - b_i| / max(1, |b|_inf) */
static PetscErrorCode Diff(Vec a, Vec b, PetscReal *err)
{
  Vec       d;
  PetscReal nb;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_INFINITY, err));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *err /= PetscMax(1.0, nb);
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keep the largest difference and the product that gave it (NaN or Inf: infinite) */
static void Worst(PetscReal err, const char *at, PetscReal *worst, const char **worst_at)
{
  if (PetscIsInfOrNanReal(err)) err = PETSC_INFINITY;
  if (err > *worst) *worst = err, *worst_at = at;
}

/* The longest row of A over all ranks (STREAM alone holds rows of at most AIJT_STREAM_MAX_LEN entries). */
static PetscErrorCode LongestRow(Mat A, PetscInt *longest)
{
  PetscInt rstart, rend, n, mine = 0;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscCall(MatGetRow(A, r, &n, NULL, NULL));
    mine = PetscMax(mine, n);
    PetscCall(MatRestoreRow(A, r, &n, NULL, NULL));
  }
  PetscCallMPI(MPIU_Allreduce(&mine, longest, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Check(Mat A, const char *name, PetscInt *failures)
{
  const Variant variants[] = {
    {"csr,long,ell,sell,coo,dia", "1", "0", "auto"}, {"csr,long,ell,sell,coo", "1", "1", "auto"}, {"csr,long,ell,sell,coo", "0", "1", "auto"},
    {"dia,csr", "1", "0", "auto"}, {"csr", "1", "1", "auto"}, {"long", "1", "1", "auto"}, {"ell", "1", "1", "auto"}, {"sell", "1", "1", "auto"}, {"sell", "0", "1", "auto"}, {"coo", "0", "0", "auto"}, {"ell,coo", "1", "1", "auto"}, {"ell,coo", "0", "1", "auto"}, {"panel", "1", "1", "auto"}, {"stream", "1", "1", "auto"}, {"bcsr,csr", "1", "0", "auto"}, {"bcsr", "1", "0", "auto"}, {"csr,long,ell,sell,coo", "1", "1", "degree"}, {"csr,long,ell,sell,coo", "0", "0", "degree"},
  };
  Vec         x, z, ya, yt;
  PetscReal   worst = 0;
  const char *worst_at = "";
  PetscBool   failed   = PETSC_FALSE;
  PetscInt  M, N;
  char      vectype[64] = "", from[64] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-vec_type", vectype, sizeof(vectype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-convert_from", from, sizeof(from), NULL));
  PetscCall(MatGetSize(A, &M, &N));
  for (size_t v = 0; v < PETSC_STATIC_ARRAY_LENGTH(variants); v++) {
    Mat       T;
    PetscReal err;
    PetscBool small = (PetscBool)(variants[v].small[0] == '1');
    PetscInt  longest;

    PetscCall(LongestRow(A, &longest));
    if (!strcmp(variants[v].formats, "stream") && longest > 2048) continue; /* STREAM alone: an error (tests/mat/errors.c) */
    { /* BCSR alone: whole blocks of a block size, one rank (an MPI matrix's off-diagonal block has none) */
      PetscInt    bs;
      PetscMPIInt size;
      PetscCall(MatGetBlockSize(A, &bs));
      PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
      if (!strcmp(variants[v].formats, "bcsr") && (bs < 2 || size > 1)) continue;
    }

    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_formats", variants[v].formats));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_sort", variants[v].sort));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_col_order", variants[v].cols));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_min_strip_rows", small ? "1" : "1024"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_min_strip_share", small ? "0" : "0.01"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_long_row", small ? "8" : "1024"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_sell_chunk", small ? "4" : "32"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_sell_max_len", small ? "4" : "16"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_ell_max_pad", !strcmp(variants[v].formats, "ell,coo") ? "1e9" : "0.1"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_dia_min_fill", !strcmp(variants[v].formats, "dia,csr") ? "0" : "0.75")); /* dia,csr: DIA whenever it can */
    PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_host_strips", "1"));
    if (from[0]) { /* aijtuned on another base (aijcusparse: on the device) */
      Mat S;
      PetscCall(MatConvert(A, from, MAT_INITIAL_MATRIX, &S));
      PetscCall(MatConvert(S, MATAIJTUNED, MAT_INITIAL_MATRIX, &T));
      PetscCall(MatDestroy(&S));
    } else PetscCall(MatConvert(A, MATAIJTUNED, MAT_INITIAL_MATRIX, &T));
    PetscCall(MatSetFromOptions(T));
    PetscCall(MatCreateVecs(T, &x, &yt)); /* the type's own vectors (those of the type A converts from), or -vec_type's */
    if (vectype[0]) {
      PetscCall(VecSetType(x, vectype));
      PetscCall(VecSetType(yt, vectype));
    }
    PetscCall(VecDuplicate(yt, &z));
    PetscCall(VecDuplicate(yt, &ya));
    for (int trial = 0; trial < 2; trial++) {
      if (trial) { /* new values: on the GPU the device's copies, current after the first trial's products, stay as they
                      are and the products multiply by the factor */
        PetscCall(MatScale(A, -1.5));
        PetscCall(MatScale(T, -1.5));
      }
      PetscCall(VecSetRandom(x, NULL));
      PetscCall(VecSetRandom(z, NULL));
      PetscCall(MatMult(A, x, ya));
      PetscCall(VecSet(yt, NAN)); /* every row must be written */
      PetscCall(MatMult(T, x, yt));
      PetscCall(Diff(yt, ya, &err));
      Worst(err, trial ? "MatMult after MatScale" : "MatMult", &worst, &worst_at);
      PetscCall(MatMultAdd(A, x, z, ya));
      PetscCall(MatMultAdd(T, x, z, yt));
      PetscCall(Diff(yt, ya, &err));
      Worst(err, trial ? "MatMultAdd after MatScale" : "MatMultAdd", &worst, &worst_at);
      PetscCall(VecCopy(z, yt));
      PetscCall(MatMultAdd(T, x, yt, yt));
      PetscCall(Diff(yt, ya, &err));
      Worst(err, trial ? "MatMultAdd in place after MatScale" : "MatMultAdd in place", &worst, &worst_at);
    }
    { /* host vectors after the type's own, as a program mixing them would (on the GPU machine, the ghost exchange's path is then chosen already) */
      Vec xh, yh, yr;
      PetscCall(MatCreateVecs(A, &xh, &yh));
      PetscCall(VecDuplicate(yh, &yr));
      PetscCall(VecSetRandom(xh, NULL));
      PetscCall(MatMult(A, xh, yr));
      PetscCall(VecSet(yh, NAN));
      PetscCall(MatMult(T, xh, yh));
      PetscCall(Diff(yh, yr, &err));
      Worst(err, "MatMult with host vectors", &worst, &worst_at);
      PetscCall(VecDestroy(&xh));
      PetscCall(VecDestroy(&yh));
      PetscCall(VecDestroy(&yr));
    }
    if (worst > TOL && !failed) { /* this variant is the first to differ: say where, and show its plan */
      failed = PETSC_TRUE;
      (*failures)++;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAIL %s (%" PetscInt_FMT " x %" PetscInt_FMT "), formats %s sort %s small %s cols %s: relative difference %g (%s)\n", name, M, N, variants[v].formats, variants[v].sort, variants[v].small, variants[v].cols, (double)worst, worst_at));
      PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO));
      PetscCall(MatView(T, PETSC_VIEWER_STDOUT_WORLD));
      PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
    }
    PetscCall(MatDestroy(&T));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&z));
    PetscCall(VecDestroy(&ya));
    PetscCall(VecDestroy(&yt));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", %d plan variants, MatMult and MatMultAdd %s\n", name, M, N, (int)PETSC_STATIC_ARRAY_LENGTH(variants), worst <= TOL ? "match AIJ" : "DIFFER from AIJ"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char     shape[64] = "", file[PETSC_MAX_PATH_LEN] = "", dir[PETSC_MAX_PATH_LEN] = "";
  PetscInt failures = 0;
  Mat      A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-shape", shape, sizeof(shape), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  if (shape[0]) {
    PetscCall(Generate(shape, &A));
    PetscCall(Check(A, shape, &failures));
    PetscCall(MatDestroy(&A));
  }
  if (file[0]) {
    PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, MATAIJ, &A));
    PetscCall(Check(A, file, &failures));
    PetscCall(MatDestroy(&A));
  }
  if (dir[0]) { /* the file list comes from ls so that every rank sees the same order */
    char  cmd[PETSC_MAX_PATH_LEN + 64], name[PETSC_MAX_PATH_LEN];
    FILE *fp;
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "ls %s/*.mtx.gz | LC_ALL=C sort", dir));
    fp = popen(cmd, "r");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot list %s", dir);
    while (fgets(name, sizeof(name), fp)) {
      name[strcspn(name, "\n")] = 0;
      PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, name, MATAIJ, &A));
      PetscCall(Check(A, strrchr(name, '/') + 1, &failures));
      PetscCall(MatDestroy(&A));
    }
    pclose(fp);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " failures\n", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: shapes
      nsize: {{1 2 3}}
      args: -shape {{random empty_rows one_long_row equal wide tall zero_rows one zeros power_law alternating stencil2d stencil3d laplace3d blocks3}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # MPIAIJ's scatter in place of aijtuned's ghost exchange: the same products
   test:
      suffix: scatter
      nsize: 3
      args: -shape {{power_law stencil3d}} -mat_aijtuned_ghost_exchange 0
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # the ghost exchange is set up for each of the 12 matrices (rank 0's pattern)
   test:
      suffix: ghosts
      nsize: 3
      args: -shape power_law -info :mat
      filter: grep "\[0\].*Ghost exchange" | sed -e "s/^.*Ghost exchange/Ghost exchange/" | uniq -c

   # on the GPU machine (one node, GPUs that reach each other) aijtuned on the device with CUDA vectors
   # copies ghosts between the GPUs; the host vectors of the last product of each variant then go through
   # each rank's GPU
   test:
      suffix: cuda_shapes
      requires: cuda
      nsize: {{2 3}}
      args: -convert_from aijcusparse -vec_type cuda -shape {{random empty_rows one_long_row equal wide tall zero_rows one zeros power_law alternating stencil2d stencil3d laplace3d blocks3}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # whole 3 x 3 blocks on one GPU: BCSR alone (the rules' plan), and beside CSR (the model's)
   test:
      suffix: cuda_blocks
      requires: cuda
      args: -convert_from aijcusparse -vec_type cuda -shape blocks3 -mat_aijtuned_gpu_build {{0 1}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # MatConvert from aijcusparse finds aijtuned's own converter (the values stay on the GPU), not MatConvert_Basic
   test:
      suffix: cuda_convert_info
      requires: cuda
      nsize: {{1 2}}
      args: -convert_from aijcusparse -vec_type cuda -shape power_law -info :mat
      filter: grep -oE "Check specialized \(2\) MatConvert_(seq|mpi)aijcusparse_(seq|mpi)aijtuned_C \((seq|mpi)aijtuned\) -> 1|Using MatConvert_Basic" | sed -E "s/(seq|mpi)aij/aij/g" | sort -u
      output_file: output/spmv_cuda_convert_info.out

   # the strips' kernels off on the GPU (-mat_aijtuned_gpu_strips 0): the base's kernel, cuSPARSE's, on the CUDA vectors
   test:
      suffix: cuda_base_kernel
      requires: cuda
      nsize: {{1 2}}
      args: -convert_from aijcusparse -vec_type cuda -mat_aijtuned_gpu_strips 0 -shape {{power_law stencil3d blocks3}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # the GPU planner before the values' upload instead of beside it (-mat_aijtuned_plan_beside_upload 0)
   test:
      suffix: cuda_plan_alone
      requires: cuda
      args: -convert_from aijcusparse -vec_type cuda -mat_aijtuned_plan_beside_upload 0 -shape {{power_law one_long_row stencil3d}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   # the layouts built on the host and copied up (-mat_aijtuned_gpu_build 0)
   test:
      suffix: cuda_host_build
      requires: cuda
      nsize: 2
      args: -convert_from aijcusparse -vec_type cuda -mat_aijtuned_gpu_build 0 -shape {{power_law one_long_row stencil3d laplace3d blocks3}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   test:
      suffix: ghosts_peer
      requires: cuda
      nsize: 3
      args: -convert_from aijcusparse -vec_type cuda -shape power_law -info :mat
      filter: grep "\[0\].*Ghosts copied" | sed -e "s/^.*Ghosts copied/Ghosts copied/" | uniq -c

   # the product in parts (mpi/cuda/multparts.c): each variant whose diagonal block's plan is in natural
   # order with no tail and no column order runs its edge rows apart (rank 0's rows [560, 600) of 2 x 600);
   # and the whole product, as before the parts, with -mat_aijtuned_edge_rows 0
   test:
      suffix: cuda_parts
      requires: cuda
      nsize: 2
      args: -convert_from aijcusparse -vec_type cuda -shape stencil2d -info :mat
      filter: grep -E "^\[0\].*Product in parts|match AIJ" | sed -e "s/^.*Product in parts/Product in parts/" -e "s/^.*plan variants, //" | uniq -c

   test:
      suffix: cuda_whole
      requires: cuda
      nsize: 2
      args: -convert_from aijcusparse -vec_type cuda -mat_aijtuned_edge_rows 0 -shape {{stencil2d stencil3d laplace3d}}
      filter: sed -e "s/^.*plan variants, //"
      output_file: output/spmv_shapes.out

   test:
      suffix: real
      nsize: {{1 2}}
      args: -dir ../data
      timeoutfactor: 3

TEST*/
