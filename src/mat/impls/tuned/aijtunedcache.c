/*
   The tuning cache file of this process (plan/aijttune.h has the format and the file handling).

   Where: -mat_aijtuned_tune_cache FILE, else $AIJTUNED_TUNE_CACHE, else $XDG_CACHE_HOME/aijtuned/tune-cache,
   else $HOME/.cache/aijtuned/tune-cache; "none" turns the cache off.  The file is read once per process,
   when a plan first looks for its strips in it; a file that cannot be used is ignored with a PetscInfo
   message (tuning then runs) and replaced whole by the next tuning result.  Failing to write only loses
   the result, with a PetscInfo message: the product never depends on the cache.
*/
#include "aijtunedimpl.h"
#include "plan/aijttune.h"

#include <stdlib.h>

static struct {
  char            path[PETSC_MAX_PATH_LEN]; /* the file the entries came from; "" before the first read */
  aijt_tune_cache entries;
} cache;

static PetscErrorCode CacheFree(void)
{
  PetscFunctionBegin;
  aijt_tune_cache_free(&cache.entries);
  cache.path[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedCachePath(const MatAIJTunedSettings *s, char path[], size_t len)
{
  const char *env;

  PetscFunctionBegin;
  path[0] = 0;
  if (s->tune_cache[0]) {
    if (strcmp(s->tune_cache, "none")) PetscCall(PetscStrncpy(path, s->tune_cache, len));
  } else if ((env = getenv("AIJTUNED_TUNE_CACHE")) && env[0]) {
    if (strcmp(env, "none")) PetscCall(PetscStrncpy(path, env, len));
  } else if ((env = getenv("XDG_CACHE_HOME")) && env[0]) PetscCall(PetscSNPrintf(path, len, "%s/aijtuned/tune-cache", env));
  else if ((env = getenv("HOME")) && env[0]) PetscCall(PetscSNPrintf(path, len, "%s/.cache/aijtuned/tune-cache", env));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The entries of the file at path, read the first time it is asked for. */
PetscErrorCode MatAIJTunedCacheGet(const char path[], const aijt_tune_cache **entries)
{
  char why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  if (strcmp(cache.path, path)) {
    if (!cache.path[0]) PetscCall(PetscRegisterFinalize(CacheFree));
    PetscCall(PetscStrncpy(cache.path, path, sizeof(cache.path)));
    if (aijt_tune_cache_read(path, &cache.entries, why, sizeof(why)) != AIJT_OK) PetscCall(PetscInfo(NULL, "aijtuned: tuning cache ignored: %s\n", why));
    else PetscCall(PetscInfo(NULL, "aijtuned: tuning cache %s: %d entries\n", path, cache.entries.n));
  }
  *entries = &cache.entries;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Add n tuned strips to the file at path (and to this process's copy). */
PetscErrorCode MatAIJTunedCacheStore(const char path[], const aijt_tune_entry e[], PetscInt n)
{
  const aijt_tune_cache *entries;
  char                   why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  PetscCall(MatAIJTunedCacheGet(path, &entries));
  for (PetscInt i = 0; i < n; i++) PetscCall(MatAIJTunedCheck(aijt_tune_cache_put(&cache.entries, &e[i])));
  if (aijt_tune_cache_update(path, &cache.entries, why, sizeof(why)) != AIJT_OK) PetscCall(PetscInfo(NULL, "aijtuned: tuning results not kept: %s\n", why));
  else PetscCall(PetscInfo(NULL, "aijtuned: tuning cache %s: %" PetscInt_FMT " strips stored, %d entries\n", path, n, cache.entries.n));
  PetscFunctionReturn(PETSC_SUCCESS);
}
