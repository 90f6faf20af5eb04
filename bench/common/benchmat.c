#include "benchmat.h"
#include <dirent.h>

const char *const BenchFormatName[BENCH_NFORMATS] = {"aijcusparse", "sellcuda", "aijtuned"};
const MatType     BenchFormatType[BENCH_NFORMATS] = {MATSEQAIJCUSPARSE, MATSEQSELLCUDA, MATSEQAIJTUNED};
const char *const BenchClassName[BENCH_NCLASSES]  = {"regular", "irregular", "small", "file"};

/* spec: a suite name, or name:size (matgen_generate's size parameter) */
PetscErrorCode BenchCSRGenerate(const char spec[], matgen_csr *A, char name[], size_t len, BenchClass *cls)
{
  char               base[64];
  const char        *colon;
  const matgen_info *info;
  long long          size = 0;
  matgen_err         err;

  PetscFunctionBegin;
  colon = strchr(spec, ':');
  PetscCall(PetscStrncpy(base, spec, colon ? PetscMin((size_t)(colon - spec) + 1, sizeof(base)) : sizeof(base)));
  info = matgen_find(base);
  PetscCheck(info, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "No generated matrix named %s (see -help for the suite)", base);
  if (colon) PetscCheck(sscanf(colon + 1, "%lld", &size) == 1 && size > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Bad size in %s: give name:size with size > 0", spec);
  err = matgen_generate(base, (int64_t)size, A);
  PetscCheck(err != MATGEN_ERR_MEM, PETSC_COMM_SELF, PETSC_ERR_MEM, "Generating %s: %s", spec, matgen_strerror(err));
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Generating %s: %s", spec, matgen_strerror(err));
  PetscCall(PetscStrncpy(name, spec, len));
  *cls = info->cls == MATGEN_REGULAR ? BENCH_REGULAR : info->cls == MATGEN_SMALL ? BENCH_SMALL : BENCH_IRREGULAR;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A Matrix Market file (pattern files get the loader's values) as a CSR; name: the file's base name */
PetscErrorCode BenchCSRLoad(const char file[], matgen_csr *A, char name[], size_t len)
{
  Mat                M;
  PetscInt           m, n, nrows;
  const PetscInt    *ia, *ja;
  const PetscScalar *aa;
  PetscBool          done;
  const char        *slash = strrchr(file, '/');
  char              *dot;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(A, sizeof(*A)));
  PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_SELF, file, MATSEQAIJ, &M));
  PetscCall(MatGetSize(M, &m, &n));
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ia, &ja, &done));
  PetscCheck(done && nrows == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the CSR of %s", file);
  PetscCall(MatSeqAIJGetArrayRead(M, &aa));
  /* plain malloc: the CSR is freed by matgen_free, whatever made it */
  A->nrows  = m;
  A->ncols  = n;
  A->nnz    = ia[m];
  A->rowptr = (int64_t *)malloc((size_t)(m + 1) * sizeof(*A->rowptr));
  A->col    = (int32_t *)malloc((size_t)PetscMax(ia[m], 1) * sizeof(*A->col));
  A->val    = (double *)malloc((size_t)PetscMax(ia[m], 1) * sizeof(*A->val));
  PetscCheck(A->rowptr && A->col && A->val, PETSC_COMM_SELF, PETSC_ERR_MEM, "No host memory for the CSR of %s", file);
  for (PetscInt i = 0; i <= m; i++) A->rowptr[i] = ia[i];
  for (PetscInt k = 0; k < ia[m]; k++) {
    A->col[k] = (int32_t)ja[k];
    A->val[k] = (double)PetscRealPart(aa[k]);
  }
  PetscCall(MatSeqAIJRestoreArrayRead(M, &aa));
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ia, &ja, &done));
  PetscCall(MatDestroy(&M));
  PetscCall(PetscStrncpy(name, slash ? slash + 1 : file, len));
  if ((dot = strstr(name, ".mtx"))) *dot = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A matrix of the given type holding A.

  AIJ types (aijcusparse, aijtuned) are filled the way an application fills them: a typed, empty matrix
  and MatSeqAIJSetPreallocationCSR(), whose assembly is where aijtuned plans, as an application's would.

  SELL types go through a SeqAIJ that wraps A's arrays (no copy), PETSc's SeqAIJ -> SeqSELL converter
  and then SeqSELL -> SeqSELLCUDA in place, the path MatSetType(A, MATSELLCUDA) takes; PETSc's
  SeqSELL -> SeqSELLCUDA converter only works in place.
*/
PetscErrorCode BenchMatCreate(const matgen_csr *A, MatType type, Mat *M)
{
  const PetscInt m = (PetscInt)A->nrows, n = (PetscInt)A->ncols;
  PetscInt      *ia, *ja;
  PetscBool      sell, sellcuda;

  PetscFunctionBegin;
  PetscCheck(A->nnz <= (int64_t)PETSC_MAX_INT && A->nrows <= (int64_t)PETSC_MAX_INT && A->ncols <= (int64_t)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The matrix exceeds PetscInt");
  PetscCheck(sizeof(PetscScalar) == sizeof(double) && !PetscDefined(USE_COMPLEX), PETSC_COMM_SELF, PETSC_ERR_SUP, "The benchmarks need PETSc with real double scalars");
  PetscCall(PetscMalloc1(m + 1, &ia));
  for (PetscInt i = 0; i <= m; i++) ia[i] = (PetscInt)A->rowptr[i];
  if (sizeof(PetscInt) == sizeof(int32_t)) ja = (PetscInt *)A->col; /* same type: no copy */
  else {
    PetscCall(PetscMalloc1(PetscMax(A->nnz, 1), &ja));
    for (int64_t k = 0; k < A->nnz; k++) ja[k] = (PetscInt)A->col[k];
  }
  PetscCall(PetscStrcmp(type, MATSEQSELL, &sell));
  PetscCall(PetscStrcmp(type, MATSEQSELLCUDA, &sellcuda));
  if (sell || sellcuda) {
    Mat H;
    /* MatCreateSeqAIJWithArrays() takes non-const arrays; the wrapper only reads them and is gone before A is */
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, n, ia, ja, (PetscScalar *)A->val, &H));
    if (A->bs > 1) PetscCall(MatSetBlockSize(H, (PetscInt)A->bs));
    PetscCall(MatConvert(H, MATSEQSELL, MAT_INITIAL_MATRIX, M));
    PetscCall(MatDestroy(&H));
    if (sellcuda) PetscCall(MatConvert(*M, MATSEQSELLCUDA, MAT_INPLACE_MATRIX, M));
    PetscCall(MatSetFromOptions(*M));
  } else {
    PetscCall(MatCreate(PETSC_COMM_SELF, M));
    PetscCall(MatSetSizes(*M, m, n, m, n));
    if (A->bs > 1) PetscCall(MatSetBlockSize(*M, (PetscInt)A->bs)); /* as the application knows it (its unknowns per node) */
    PetscCall(MatSetType(*M, type));
    PetscCall(MatSetFromOptions(*M));
    PetscCall(MatSeqAIJSetPreallocationCSR(*M, ia, ja, (const PetscScalar *)A->val));
  }
  if ((void *)ja != (void *)A->col) PetscCall(PetscFree(ja));
  PetscCall(PetscFree(ia));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareString(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append a copy of name to a list of capacity *cap, doubling it when full. */
PetscErrorCode BenchListAppend(const char name[], PetscInt *n, PetscInt *cap, char ***list)
{
  PetscFunctionBegin;
  if (*n == *cap) { /* an empty list (cap 0) grows too */
    char   **more;
    PetscInt grown = *cap ? 2 * *cap : 8;
    PetscCall(PetscMalloc1(grown, &more));
    if (*n) PetscCall(PetscArraycpy(more, *list, *n));
    PetscCall(PetscFree(*list));
    *list = more;
    *cap  = grown;
  }
  PetscCall(PetscStrallocpy(name, &(*list)[(*n)++]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The *.mtx and *.mtx.gz files of a directory, sorted by name. */
PetscErrorCode BenchListFiles(const char dir[], PetscInt *n, char ***files)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  PetscInt       cap = 16;
  char           path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open directory %s", dir);
  *n = 0;
  PetscCall(PetscMalloc1(cap, files));
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (!((len > 4 && !strcmp(e->d_name + len - 4, ".mtx")) || (len > 7 && !strcmp(e->d_name + len - 7, ".mtx.gz")))) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, e->d_name));
    PetscCall(BenchListAppend(path, n, &cap, files));
  }
  closedir(d);
  qsort(*files, (size_t)*n, sizeof(char *), CompareString);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The generated matrices named by -suite name[:size],... (at most 64), every one of the suite without it, none for
   "-suite none"; freed with BenchFreeList. */
PetscErrorCode BenchSuiteNames(PetscInt *n, char ***names)
{
  PetscBool set;

  PetscFunctionBegin;
  *n = 64;
  PetscCall(PetscMalloc1(*n, names));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-suite", *names, n, &set));
  if (!set) {
    *n = matgen_suite_count();
    for (PetscInt i = 0; i < *n; i++) PetscCall(PetscStrallocpy(matgen_suite((int)i)->name, &(*names)[i]));
  } else if (*n == 1 && !strcmp((*names)[0], "none")) {
    PetscCall(PetscFree((*names)[0]));
    *n = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every matrix the options name, in one list freed with BenchFreeList: the generated ones of -suite (the first *nsuite,
   as BenchSuiteNames gives them), then the files of every -f on the command line (each a comma list; PETSc's options
   database keeps only the last of a repeated option), or, with none there, of the database's -f (PETSC_OPTIONS, an
   options file: one comma list, at most 64), then every Matrix Market file of -dir. */
PetscErrorCode BenchMatrixSpecs(int argc, char **argv, PetscInt *nsuite, PetscInt *n, char ***specs)
{
  char      dir[PETSC_MAX_PATH_LEN] = "", **more;
  PetscInt  cap = 64, nmore = 64; /* BenchSuiteNames' room */
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(BenchSuiteNames(nsuite, specs));
  *n = *nsuite;
  for (int a = 1; a + 1 < argc; a++) {
    char *list, *save = NULL;
    if (strcmp(argv[a], "-f")) continue;
    PetscCall(PetscStrallocpy(argv[a + 1], &list));
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) PetscCall(BenchListAppend(tok, n, &cap, specs));
    PetscCall(PetscFree(list));
  }
  if (*n > *nsuite) PetscCall(PetscOptionsHasName(NULL, NULL, "-f", &set)); /* read above: marks it used */
  else {
    PetscCall(PetscMalloc1(nmore, &more));
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-f", more, &nmore, &set));
    if (!set) nmore = 0;
    for (PetscInt k = 0; k < nmore; k++) PetscCall(BenchListAppend(more[k], n, &cap, specs));
    PetscCall(BenchFreeList(nmore, &more));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  if (dir[0]) {
    PetscCall(BenchListFiles(dir, &nmore, &more));
    for (PetscInt k = 0; k < nmore; k++) PetscCall(BenchListAppend(more[k], n, &cap, specs));
    PetscCall(BenchFreeList(nmore, &more));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchFreeList(PetscInt n, char ***list)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree((*list)[i]));
  PetscCall(PetscFree(*list));
  PetscFunctionReturn(PETSC_SUCCESS);
}
