static char help[] = "Bad input to aijtuned gets a PETSc error with the right code and a clear message, never a crash.\n\n";

#include <petscmataijtuned.h>

static char first_message[1024];

/* Keep the first message of each error, return the code, print nothing. */
static PetscErrorCode Record(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) PetscStrncpy(first_message, mess ? mess : "", sizeof(first_message));
  return n;
}

static const char *CodeName(PetscErrorCode e)
{
  switch ((int)e) {
  case PETSC_ERR_ARG_WRONGSTATE:
    return "PETSC_ERR_ARG_WRONGSTATE";
  case PETSC_ERR_ARG_SIZ:
    return "PETSC_ERR_ARG_SIZ";
  case PETSC_ERR_ARG_UNKNOWN_TYPE:
    return "PETSC_ERR_ARG_UNKNOWN_TYPE";
  case PETSC_ERR_ARG_OUTOFRANGE:
    return "PETSC_ERR_ARG_OUTOFRANGE";
  case PETSC_ERR_ARG_WRONG:
    return "PETSC_ERR_ARG_WRONG";
  case PETSC_ERR_SUP:
    return "PETSC_ERR_SUP";
  case PETSC_ERR_FILE_READ:
    return "PETSC_ERR_FILE_READ";
  case 0:
    return "no error";
  }
  return "another code";
}

static PetscErrorCode Expect(const char *what, PetscErrorCode got, PetscErrorCode want, PetscInt *failures)
{
  PetscFunctionBeginUser;
  if (got != want) (*failures)++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s (%s)\n", what, CodeName(got), got == want ? "as expected" : "WRONG"));
  /* aijtuned's own messages; PETSc's wording of its generic checks varies between versions */
  if (strstr(first_message, "aijtuned")) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s\n", first_message));
  first_message[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An n x n matrix on this rank whose first row is full, assembled with one format alone (options prefix
   prefix): its assembly must fail with PETSC_ERR_SUP. */
static PetscErrorCode ExpectFullRowRefused(const char *prefix, const char *format, PetscInt n, const char *what, PetscInt *failures)
{
  Mat            B;
  PetscErrorCode ierr;
  char           option[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(option, sizeof(option), "-%smat_aijtuned_formats", prefix));
  PetscCall(MatCreate(PETSC_COMM_SELF, &B));
  PetscCall(MatSetSizes(B, n, n, n, n));
  PetscCall(MatSetType(B, MATAIJTUNED));
  PetscCall(MatSetOptionsPrefix(B, prefix));
  PetscCall(PetscOptionsSetValue(NULL, option, format));
  PetscCall(MatSetFromOptions(B));
  PetscCall(MatSeqAIJSetPreallocation(B, n, NULL));
  for (PetscInt j = 0; j < n; j++) PetscCall(MatSetValue(B, 0, j, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscPushErrorHandler(Record, NULL));
  ierr = MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscOptionsClearValue(NULL, option));
  PetscCall(Expect(what, ierr, PETSC_ERR_SUP, failures));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NewMatrix(Mat *A, PetscBool assemble)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, 10, 10));
  PetscCall(MatSetType(*A, MATAIJTUNED));
  PetscCall(MatSetUp(*A));
  if (assemble) {
    PetscInt rstart, rend;
    PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
    for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(*A, i, i, 2.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat            A;
  Vec            x, y, wrong;
  PetscInt       failures = 0;
  PetscErrorCode ierr;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());

  PetscCall(NewMatrix(&A, PETSC_FALSE));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 7, &wrong));
  PetscCall(PetscPushErrorHandler(Record, NULL));
  ierr = MatMult(A, x, y);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Expect("MatMult before assembly", ierr, PETSC_ERR_ARG_WRONGSTATE, &failures));
  PetscCall(MatDestroy(&A));

  PetscCall(NewMatrix(&A, PETSC_TRUE));
  PetscCall(PetscPushErrorHandler(Record, NULL));
  ierr = MatMult(A, wrong, y);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Expect("MatMult with a vector of the wrong size", ierr, PETSC_ERR_ARG_SIZ, &failures));

  {
    const char *cases[][3] = {
      {"-mat_aijtuned_formats", "ell,hyb", "unknown format name"},
      {"-mat_aijtuned_long_row", "0", "long-row threshold below 1"},
      {"-mat_aijtuned_sell_chunk", "0", "SELL chunk below 1"},
      {"-mat_aijtuned_ell_max_pad", "-1", "negative ELL padding"},
      {"-mat_aijtuned_pin_mib", "nan", "NaN MiB to page-lock from"},
    };
    const PetscErrorCode want[] = {PETSC_ERR_ARG_UNKNOWN_TYPE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_OUTOFRANGE};
    /* whose message to show: NaN for a real option is refused by PETSc itself from 3.20 or so (its bounds test), by
       aijtuned's check in older PETSc, with the same code */
    const PetscBool ours[] = {PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_FALSE};
    for (size_t c = 0; c < PETSC_STATIC_ARRAY_LENGTH(cases); c++) {
      PetscCall(PetscOptionsSetValue(NULL, cases[c][0], cases[c][1]));
      PetscCall(PetscPushErrorHandler(Record, NULL));
      ierr = MatSetFromOptions(A);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscOptionsClearValue(NULL, cases[c][0]));
      if (!ours[c]) first_message[0] = 0;
      PetscCall(Expect(cases[c][2], ierr, want[c], &failures));
    }
  }
  /* DIA alone cannot hold a matrix of more than 32 diagonals, STREAM a row of more than 2048 entries (a
     thread block's shared memory): errors at assembly, on this rank's own matrix */
  PetscCall(ExpectFullRowRefused("b_", "dia", 40, "dia alone on a matrix of 40 diagonals", &failures));
  PetscCall(ExpectFullRowRefused("c_", "stream", 2100, "stream alone on a row of 2100 entries", &failures));
  PetscCall(ExpectFullRowRefused("d_", "bcsr", 6, "bcsr alone on a matrix of no block size", &failures));
  { /* a model file that is missing or not a model: an error at assembly that names the file and the fault */
    PetscMPIInt rank, size;
    char        stale[64]; /* per rank count: the test's runs share a directory and may run at once (the filter
                              below prints it as errors-stale.model) */
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCall(PetscSNPrintf(stale, sizeof(stale), "errors-stale-%d.model", size));
    const char *files[] = {"/nonexistent/aijtuned.model", stale};
    for (int f = 0; f < 2; f++) {
      Mat         B;
      const char *path = files[f];
      if (f == 1) { /* a stale model, of a version this build does not read: rank 0 writes it for all */
        FILE *fp;
        PetscCall(PetscFOpen(PETSC_COMM_WORLD, path, "w", &fp));
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fp, "aijtuned-model 999\ndevice Some GPU\n"));
        PetscCall(PetscFClose(PETSC_COMM_WORLD, fp));
        PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD)); /* written before any rank reads it */
      }
      PetscCall(MatCreate(PETSC_COMM_SELF, &B));
      PetscCall(MatSetSizes(B, 4, 4, 4, 4));
      PetscCall(MatSetType(B, MATAIJTUNED));
      PetscCall(MatSetOptionsPrefix(B, "c_"));
      PetscCall(PetscOptionsSetValue(NULL, "-c_mat_aijtuned_model", path));
      PetscCall(MatSetFromOptions(B));
      PetscCall(MatSetUp(B));
      for (PetscInt j = 0; j < 4; j++) PetscCall(MatSetValue(B, j, j, 1.0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
      PetscCall(PetscPushErrorHandler(Record, NULL));
      ierr = MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscOptionsClearValue(NULL, "-c_mat_aijtuned_model"));
      if (f == 1) {
        PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD)); /* every rank has read it */
        PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
        if (!rank) (void)remove(path);
      }
      PetscCall(Expect(f ? "a model file of another version" : "a missing model file", ierr, PETSC_ERR_FILE_READ, &failures));
      PetscCall(MatDestroy(&B));
    }
  }
  { /* a matrix-free operator given the type aijtuned (as PETSc's MatSetFromOptions does under -mat_type aijtuned with
       -snes_mf_operator): a clear error, not a product on a freed operator */
    for (int shell = 0; shell < 2; shell++) {
      Mat J;
      if (shell) PetscCall(MatCreateShell(PETSC_COMM_WORLD, 4, 4, PETSC_DETERMINE, PETSC_DETERMINE, NULL, &J));
      else PetscCall(MatCreateMFFD(PETSC_COMM_WORLD, 4, 4, PETSC_DETERMINE, PETSC_DETERMINE, &J));
      PetscCall(PetscPushErrorHandler(Record, NULL));
      ierr = MatSetType(J, MATAIJTUNED);
      PetscCall(PetscPopErrorHandler());
      PetscCall(Expect(shell ? "a shell matrix given the type aijtuned" : "a matrix-free (MFFD) operator given the type aijtuned", ierr, PETSC_ERR_ARG_WRONG, &failures));
      PetscCall(MatDestroy(&J));
    }
  }
  /* after the errors the matrix still works */
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  {
    PetscReal norm;
    PetscCall(VecNorm(y, NORM_1, &norm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult after the errors: |A * ones|_1 = %g\n", (double)norm));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&wrong));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " failures\n", failures));
  PetscCall(PetscFinalize());
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0
      nsize: {{1 2}}
      output_file: output/errors_0.out
      filter: sed -e "s/errors-stale-[0-9]*[.]model/errors-stale.model/g"

TEST*/
