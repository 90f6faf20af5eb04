static char help[] = "Run-time tuning on the GPU and its cache: every product made while tuning equals AIJ's, the tuned\n\
parameters reach the cache file, a run that finds them there tunes nothing, and a corrupt cache is ignored\n\
and rewritten whole.  Each phase loads the same matrix again as aijtuned, with its own options prefix; the\n\
reference is aijcusparse.\n\
  -f <file> : the Matrix Market file\n\
  -formats <csr,long> : the layouts the plans may use (each has parameters to tune)\n\
  -products <200> : products per phase\n\n";

#include <petscmataijtuned.h>
#include <ctype.h>

#define TOL 1e-12

/* y = T x for `products` products, each compared with AIJ's (yref) and synchronised by the norm, so
   that every tuning product is timed before the next; the worst relative difference, the number of
   tuning products (the AIJTunedTune event, summed over the ranks), and MatAIJTunedGetSetupTimes()'s
   figures: whether every rank's planning took a measured time and its tuning has ended, and what
   tuning cost (ms, summed over the ranks). */
static PetscErrorCode Products(Mat A, const char *file, const char *formats, const char *prefix, const char *cache, PetscInt products, PetscReal *worst, PetscInt *tuning, PetscBool *timed, PetscReal *tune_ms)
{
  Mat                T;
  Vec                x, y, yref;
  PetscLogEvent      tune;
  PetscEventPerfInfo before, after;
  PetscReal          nref;
  char               name[64];
  PetscInt           count;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%smat_aijtuned_tune", prefix));
  PetscCall(PetscOptionsSetValue(NULL, name, "1"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%smat_aijtuned_tune_cache", prefix));
  PetscCall(PetscOptionsSetValue(NULL, name, cache));
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%smat_aijtuned_formats", prefix));
  PetscCall(PetscOptionsSetValue(NULL, name, formats)); /* every strip has parameters to tune */
  PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, MATAIJTUNED, &T)); /* on the device, as aijcusparse is */
  PetscCall(MatSetOptionsPrefix(T, prefix));
  PetscCall(MatSetFromOptions(T));
  PetscCall(MatCreateVecs(T, &x, &y));
  PetscCall(VecDuplicate(y, &yref));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(A, x, yref));
  PetscCall(VecNorm(yref, NORM_INFINITY, &nref));
  PetscCall(PetscLogEventGetId("AIJTunedTune", &tune));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, tune, &before));
  *worst = 0;
  for (PetscInt k = 0; k < products; k++) {
    PetscReal err;
    PetscCall(VecSet(y, NAN));
    PetscCall(MatMult(T, x, y));
    PetscCall(VecAXPY(y, -1.0, yref));
    PetscCall(VecNorm(y, NORM_INFINITY, &err));
    *worst = PetscIsInfOrNanReal(err) ? PETSC_INFINITY : PetscMax(*worst, err / PetscMax(1.0, nref));
  }
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, tune, &after));
  count = (PetscInt)(after.count - before.count);
  PetscCall(MPIU_Allreduce(&count, tuning, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  {
    PetscReal plan_ms, ms;
    PetscBool going;
    PetscCall(MatAIJTunedGetSetupTimes(T, &plan_ms, &ms, &going));
    PetscMPIInt all = (PetscMPIInt)(plan_ms > 0 && !going && !PetscIsInfOrNanReal(ms)); /* an int: MPIU_BOOL is deprecated in 3.24 */
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
    *timed = (PetscBool)all;
    PetscCall(MPIU_Allreduce(&ms, tune_ms, 1, MPIU_REAL, MPI_SUM, PETSC_COMM_WORLD));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yref));
  PetscCall(MatDestroy(&T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Entries of a cache file whose first line is the cache's header; -1 when it has none. */
static PetscInt Entries(const char *path)
{
  FILE    *fp = fopen(path, "r");
  char     line[1024];
  PetscInt n  = -1;

  if (!fp) return -1;
  if (fgets(line, sizeof(line), fp) && !strncmp(line, "aijtuned-tune-cache 1\n", 22))
    for (n = 0; fgets(line, sizeof(line), fp);) n++;
  fclose(fp);
  return n;
}

static PetscErrorCode Copy(const char *from, const char *to)
{
  FILE  *in = fopen(from, "r"), *out = fopen(to, "w");
  char   buf[4096];
  size_t n;

  PetscFunctionBeginUser;
  PetscCheck(in && out, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot copy %s to %s", from, to);
  while ((n = fread(buf, 1, sizeof(buf), in))) PetscCheck(fwrite(buf, 1, n, out) == n, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", to);
  fclose(in);
  fclose(out);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *YesNo(PetscBool b)
{
  return b ? "yes" : "NO";
}

int main(int argc, char **argv)
{
  char        file[PETSC_MAX_PATH_LEN] = "", formats[64] = "csr,long";
  char        cold[128], warm[128], bad[128], tag[64]; /* per rank count and formats: the test's runs share a directory and may run at once */
  PetscInt    products = 200, tuning, n;
  PetscReal   worst, tune_ms;
  PetscBool   timed;
  PetscMPIInt rank, size;
  Mat         A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-formats", formats, sizeof(formats), NULL));
  PetscCall(PetscStrncpy(tag, formats, sizeof(tag)));
  for (char *c = tag; *c; c++)
    if (!isalnum((unsigned char)*c)) *c = '_';
  PetscCall(PetscSNPrintf(cold, sizeof(cold), "tune-cold-%s-%d.cache", tag, size));
  PetscCall(PetscSNPrintf(warm, sizeof(warm), "tune-warm-%s-%d.cache", tag, size));
  PetscCall(PetscSNPrintf(bad, sizeof(bad), "tune-bad-%s-%d.cache", tag, size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-products", &products, NULL));
  PetscCall(MatAIJTunedLoadMatrixMarket(PETSC_COMM_WORLD, file, PetscDefined(HAVE_CUDA) ? MATAIJCUSPARSE : MATAIJ, &A));
  if (!rank) { /* what an earlier run left */
    (void)remove(cold), (void)remove(warm), (void)remove(bad);
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));

  PetscCall(Products(A, file, formats, "a_", cold, products, &worst, &tuning, &timed, &tune_ms));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  n = Entries(cold);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no cache: products while tuning equal AIJ's %s, tuning products made %s, tuned strips in the cache %s\n", YesNo((PetscBool)(worst <= TOL)), YesNo((PetscBool)(tuning > 0)), YesNo((PetscBool)(n > 0))));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  planning timed, tuning ended and its cost measured %s\n", YesNo(timed)));

  if (!rank) PetscCall(Copy(cold, warm)); /* a later run: the file, not this process's copy of it */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(Products(A, file, formats, "b_", warm, products, &worst, &tuning, &timed, &tune_ms));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "warm cache: products equal AIJ's %s, no tuning product %s (%" PetscInt_FMT "), tuning cost 0 %s\n", YesNo((PetscBool)(worst <= TOL)), YesNo((PetscBool)(tuning == 0)), tuning, YesNo((PetscBool)(timed && tune_ms == 0))));

  if (!rank) {
    FILE *fp = fopen(bad, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", bad);
    fprintf(fp, "aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\tnot-a-number\tcsr\t8\t1.5\n");
    fclose(fp);
  }
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(Products(A, file, formats, "c_", bad, products, &worst, &tuning, &timed, &tune_ms));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  n = Entries(bad);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "corrupt cache: products equal AIJ's %s, tuned again %s, rewritten whole %s\n", YesNo((PetscBool)(worst <= TOL)), YesNo((PetscBool)(tuning > 0)), YesNo((PetscBool)(n > 0 && n == Entries(cold)))));
  if (!(n > 0 && n == Entries(cold))) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " entries, %" PetscInt_FMT " in the first file\n", n, Entries(cold)));

  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (!rank) { /* the files and their lock files */
    const char *files[3] = {cold, warm, bad};
    for (int i = 0; i < 3; i++) {
      char lock[160];
      PetscCall(PetscSNPrintf(lock, sizeof(lock), "%s.lock", files[i]));
      (void)remove(files[i]), (void)remove(lock);
    }
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      requires: cuda
      nsize: {{1 2}}
      args: -f ../data/PGPgiantcompo.mtx.gz -use_gpu_aware_mpi 0
      output_file: output/tune_1.out

   test:
      suffix: stream
      requires: cuda
      nsize: {{1 2}}
      args: -f ../data/PGPgiantcompo.mtx.gz -use_gpu_aware_mpi 0 -formats stream
      output_file: output/tune_1.out

TEST*/
