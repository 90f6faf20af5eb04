/*
   Which performance model plans the matrices of this process.

   -mat_aijtuned_model FILE names one; otherwise the models directory (ModelDir: AIJTUNED_MODEL_DIR in the
   environment, else share/aijtuned/models beside an installed library, else the models/ folder of the source
   tree the library was built from) is searched for
   the model of this process's GPU: the file whose device line equals the GPU's name, else the nearest
   (the longest common prefix of the names: an H100 model for an H200 before an A100 one), with a
   PetscInfo message.  Without a GPU (a PETSc without CUDA) the nearest is the first file by name.
   Without any model the rules plan, with a PetscInfo message.  Models are read once per process.
*/
#if !defined(_GNU_SOURCE)
  #define _GNU_SOURCE /* dladdr */
#endif
#include "aijtunedimpl.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>

#if !defined(AIJT_MODEL_DIR)
  #define AIJT_MODEL_DIR "models"
#endif

#define CACHE_SIZE 4

static struct {
  char        key[PETSC_MAX_PATH_LEN]; /* the file asked for, or "" for the device's */
  aijt_model *model;                   /* NULL: none found (the rules plan) */
} cache[CACHE_SIZE];
static int cached = 0;

static PetscErrorCode ModelCacheFree(void)
{
  PetscFunctionBegin;
  for (int i = 0; i < cached; i++) PetscCall(PetscFree(cache[i].model));
  cached = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static size_t CommonPrefix(const char *a, const char *b)
{
  size_t n = 0;
  while (a[n] && a[n] == b[n]) n++;
  return n;
}

static int CompareNames(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The model of the device named device in dir, or the nearest; *m NULL when dir has none. */
static PetscErrorCode FindModel(const char *dir, const char *device, aijt_model **m)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  char         **names = NULL;
  PetscInt       n = 0, cap = 0;
  aijt_model    *cand;
  size_t         best_prefix = 0;
  PetscBool      exact = PETSC_FALSE;
  const char    *file  = NULL; /* the chosen model's */

  PetscFunctionBegin;
  *m = NULL;
  if (!d) {
    PetscCall(PetscInfo(NULL, "aijtuned: no models directory %s\n", dir));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 7 || strcmp(e->d_name + len - 6, ".model")) continue;
    if (n == cap) {
      char **more;
      cap = cap ? 2 * cap : 8;
      PetscCall(PetscMalloc1(cap, &more));
      if (n) PetscCall(PetscArraycpy(more, names, n));
      PetscCall(PetscFree(names));
      names = more;
    }
    PetscCall(PetscStrallocpy(e->d_name, &names[n++]));
  }
  closedir(d);
  if (n) qsort(names, (size_t)n, sizeof(char *), CompareNames); /* the same choice on every machine */
  PetscCall(PetscNew(&cand));
  for (PetscInt i = 0; i < n && !exact; i++) {
    char path[PETSC_MAX_PATH_LEN], why[256];
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", dir, names[i]));
    if (aijt_model_load(path, cand, why, sizeof(why)) != AIJT_OK) {
      PetscCall(PetscInfo(NULL, "aijtuned: model %s ignored: %s\n", path, why));
      continue;
    }
    size_t prefix = CommonPrefix(cand->device, device);
    exact         = (PetscBool)(device[0] && !strcmp(cand->device, device));
    if (!*m || exact || prefix > best_prefix) {
      if (!*m) PetscCall(PetscNew(m));
      **m         = *cand;
      best_prefix = prefix;
      file        = names[i];
    }
  }
  PetscCall(PetscFree(cand));
  if (!*m) PetscCall(PetscInfo(NULL, "aijtuned: no model in %s: the rules plan\n", dir));
  else if (!exact) PetscCall(PetscInfo(NULL, "aijtuned: no model for device \"%s\" in %s; using the nearest, %s/%s, for \"%s\"\n", device[0] ? device : "(none)", dir, dir, file, (*m)->device));
  else PetscCall(PetscInfo(NULL, "aijtuned: the model of this GPU, \"%s\": %s/%s\n", device, dir, file));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree(names[i]));
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where the models are (aijt_model_dir): $AIJTUNED_MODEL_DIR; else, for a library installed by make install
   (PREFIX/lib and PREFIX/share/aijtuned/models), the models beside it, found from the library's own path; else the
   models/ folder of the source tree it was built from.  Before, an installed library (or a moved tree) found no models
   and planned with the rules, which only -info said. */
static PetscErrorCode ModelDir(char dir[], size_t len)
{
  Dl_info self;

  PetscFunctionBegin;
  if (!aijt_model_dir(dladdr((void *)ModelDir, &self) ? self.dli_fname : NULL, dir, len)) PetscCall(PetscStrncpy(dir, AIJT_MODEL_DIR, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model the settings ask for, or NULL (plan with the rules). */
PetscErrorCode MatAIJTunedModelGet(const MatAIJTunedSettings *s, const aijt_model **model)
{
  aijt_model *m = NULL;
  char        device[256] = "";

  PetscFunctionBegin;
  *model = NULL;
  if (!s->model_planner) PetscFunctionReturn(PETSC_SUCCESS);
  for (int i = 0; i < cached; i++)
    if (!strcmp(cache[i].key, s->model_file)) {
      *model = cache[i].model;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  if (s->model_file[0]) {
    char why[256];
    PetscCall(PetscNew(&m));
    if (aijt_model_load(s->model_file, m, why, sizeof(why)) != AIJT_OK) {
      PetscCall(PetscFree(m));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "-mat_aijtuned_model %s: %s", s->model_file, why);
    }
  } else {
    char dir[PETSC_MAX_PATH_LEN];
    PetscCall(ModelDir(dir, sizeof(dir)));
#if defined(PETSC_HAVE_CUDA)
    PetscCall(MatAIJTunedCUDADeviceName(device, sizeof(device)));
#endif
    PetscCall(FindModel(dir, device, &m));
  }
  if (!cached) PetscCall(PetscRegisterFinalize(ModelCacheFree));
  if (cached == CACHE_SIZE) { /* a program that names many model files: forget the oldest */
    PetscCall(PetscFree(cache[0].model));
    for (int i = 1; i < CACHE_SIZE; i++) cache[i - 1] = cache[i];
    cached--;
  }
  PetscCall(PetscStrncpy(cache[cached].key, s->model_file, sizeof(cache[cached].key)));
  cache[cached++].model = m;
  *model                = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}
