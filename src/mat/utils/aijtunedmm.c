/*
   Matrix Market reader for examples, tests and benchmarks: coordinate real/integer/pattern,
   general/symmetric, plain or gzip-compressed (read through "gzip -dc").  Every rank reads the
   file and keeps the rows it owns, which suits the matrices this project tests with.
   Pattern files get reproducible values from a hash of (row, column), symmetric in the two,
   so a symmetric pattern gives a symmetric matrix.
*/
#include <petscmataijtuned.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static double PatternValue(PetscInt i, PetscInt j)
{
  unsigned long long a = (unsigned long long)PetscMin(i, j), b = (unsigned long long)PetscMax(i, j);
  unsigned long long h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return 0.5 + (double)(h % 1000003) / 1000003.0; /* in [0.5, 1.5) */
}

typedef struct {
  FILE     *fp;
  PetscBool piped;
} MMFile;

static PetscErrorCode MMOpen(const char name[], MMFile *f)
{
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(name, &len));
  f->piped = (PetscBool)(len > 3 && !strcmp(name + len - 3, ".gz"));
  if (f->piped) {
    char cmd[PETSC_MAX_PATH_LEN + 32];
    PetscCheck(!strchr(name, '\''), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "File name %s contains a quote", name);
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", name));
    f->fp = popen(cmd, "r");
  } else f->fp = fopen(name, "r");
  PetscCheck(f->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open Matrix Market file %s", name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void MMClose(MMFile *f)
{
  if (f->piped) pclose(f->fp);
  else fclose(f->fp);
}

/*@C
  MatAIJTunedLoadMatrixMarket - Reads a Matrix Market coordinate file (optionally .gz) into a new matrix

  Collective

  Input Parameters:
+ comm     - communicator of the matrix
. filename - the file
- type     - the matrix type, for example `MATAIJ` or `MATAIJTUNED` (NULL: taken from -mat_type, default AIJ)

  Output Parameter:
. A - the assembled matrix, rows split across the ranks as `PETSC_DECIDE` splits them

  Level: intermediate

.seealso: `MATAIJTUNED`, `MatLoad()`
@*/
PetscErrorCode MatAIJTunedLoadMatrixMarket(MPI_Comm comm, const char filename[], MatType type, Mat *A)
{
  MMFile    f;
  char      line[1024], object[64], format[64], field[64], symmetry[64];
  long long m = 0, n = 0, nz = 0;
  PetscInt  rstart, rend, *dnz, *onz, cstart, cend;
  PetscBool pattern, symmetric;

  PetscFunctionBegin;
  PetscCall(MMOpen(filename, &f));
  PetscCheck(fgets(line, sizeof(line), f.fp) && sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", object, format, field, symmetry) == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not a Matrix Market file", filename);
  for (char *c = field; *c; c++) *c = (char)tolower((unsigned char)*c);
  for (char *c = symmetry; *c; c++) *c = (char)tolower((unsigned char)*c);
  PetscCheck(!strcmp(format, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: only coordinate Matrix Market files are supported, not %s", filename, format);
  PetscCheck(!strcmp(field, "real") || !strcmp(field, "integer") || !strcmp(field, "pattern"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: field %s is not supported", filename, field);
  PetscCheck(!strcmp(symmetry, "general") || !strcmp(symmetry, "symmetric"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: symmetry %s is not supported", filename, symmetry);
  pattern   = (PetscBool)!strcmp(field, "pattern");
  symmetric = (PetscBool)!strcmp(symmetry, "symmetric");
  while (fgets(line, sizeof(line), f.fp) && line[0] == '%') { }
  PetscCheck(sscanf(line, "%lld %lld %lld", &m, &n, &nz) == 3 && m >= 0 && n >= 0 && nz >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line", filename);

  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, (PetscInt)m, (PetscInt)n));
  if (type) PetscCall(MatSetType(*A, type));
  else {
    PetscCall(MatSetType(*A, MATAIJ));
    PetscCall(MatSetFromOptions(*A));
  }
  PetscCall(MatSetUp(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(*A, &cstart, &cend));

  /* two passes: count this rank's entries per row for preallocation, then insert */
  PetscCall(PetscCalloc2(rend - rstart, &dnz, rend - rstart, &onz));
  for (int pass = 0; pass < 2; pass++) {
    if (pass) {
      MMClose(&f);
      PetscCall(MMOpen(filename, &f));
      while (fgets(line, sizeof(line), f.fp) && line[0] == '%') { } /* header and size line */
      PetscCall(MatXAIJSetPreallocation(*A, 1, dnz, onz, NULL, NULL));
      PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
    }
    for (long long k = 0; k < nz; k++) {
      long long i, j;
      double    v = 1.0;
      int       got;
      PetscCheck(fgets(line, sizeof(line), f.fp), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: %lld entries announced, %lld found", filename, nz, k);
      got = pattern ? sscanf(line, "%lld %lld", &i, &j) : sscanf(line, "%lld %lld %lf", &i, &j, &v);
      PetscCheck(got == (pattern ? 2 : 3) && i >= 1 && i <= m && j >= 1 && j <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad entry line %lld: %s", filename, k + 1, line);
      for (int mirror = 0; mirror < (symmetric && i != j ? 2 : 1); mirror++) {
        PetscInt    r = (PetscInt)(mirror ? j : i) - 1, c = (PetscInt)(mirror ? i : j) - 1;
        PetscScalar val = pattern ? PatternValue(r, c) : v;
        if (r < rstart || r >= rend) continue;
        if (!pass) {
          if (c >= cstart && c < cend) dnz[r - rstart]++;
          else onz[r - rstart]++;
        } else PetscCall(MatSetValue(*A, r, c, val, ADD_VALUES));
      }
    }
  }
  MMClose(&f);
  PetscCall(PetscFree2(dnz, onz));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
