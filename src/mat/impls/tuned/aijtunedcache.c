/*
   The tuning cache file of this process (plan/aijttune.h has the format and the file handling).

   Where: -mat_aijtuned_tune_cache FILE, else $AIJTUNED_TUNE_CACHE, else $XDG_CACHE_HOME/aijtuned/tune-cache,
   else $HOME/.cache/aijtuned/tune-cache; "none" turns the cache off.  The file is read once per process,
   when a plan first looks for its strips in it; a file that cannot be used is ignored with a PetscInfo
   message (tuning then runs) and replaced whole by the next tuning result.  Tuning results wait in this
   process's copy and are written when a tuned matrix is destroyed or re-planned, and at PetscFinalize():
   not inside a product, where a file write (2 to 3 ms measured on the GPU machine) would cost hundreds
   of products (bench/results/2026-11-21-h200-tuning-v2).  Failing to write only loses the results, with
   a PetscInfo message: the product never depends on the cache.
*/
#include "aijtunedimpl.h"
#include "plan/aijttune.h"

#include <stdlib.h>

static struct {
  char            path[PETSC_MAX_PATH_LEN]; /* the file the entries came from; "" before the first read */
  aijt_tune_cache entries;
  PetscBool       unwritten; /* entries tuned since the last write */
} cache;

static PetscErrorCode Write(PetscBool quiet)
{
  char why[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  if (!cache.unwritten) PetscFunctionReturn(PETSC_SUCCESS);
  cache.unwritten = PETSC_FALSE;
  if (aijt_tune_cache_update(cache.path, &cache.entries, why, sizeof(why)) != AIJT_OK) {
    if (!quiet) PetscCall(PetscInfo(NULL, "aijtuned: tuning results not kept: %s\n", why));
  } else if (!quiet) PetscCall(PetscInfo(NULL, "aijtuned: tuning cache %s written: %d entries\n", cache.path, cache.entries.n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CacheFree(void)
{
  PetscFunctionBegin;
  PetscCall(Write(PETSC_TRUE)); /* PetscFinalize(): logging may be gone */
  aijt_tune_cache_free(&cache.entries);
  cache.path[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedCacheFlush(void)
{
  PetscFunctionBegin;
  PetscCall(Write(PETSC_FALSE));
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
    else PetscCall(Write(PETSC_FALSE)); /* the results for the other file */
    PetscCall(PetscStrncpy(cache.path, path, sizeof(cache.path)));
    if (aijt_tune_cache_read(path, &cache.entries, why, sizeof(why)) != AIJT_OK) PetscCall(PetscInfo(NULL, "aijtuned: tuning cache ignored: %s\n", why));
    else PetscCall(PetscInfo(NULL, "aijtuned: tuning cache %s: %d entries\n", path, cache.entries.n));
  }
  *entries = &cache.entries;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Add n tuned strips to this process's copy of the file at path; MatAIJTunedCacheFlush() writes them. */
PetscErrorCode MatAIJTunedCacheStore(const char path[], const aijt_tune_entry e[], PetscInt n)
{
  const aijt_tune_cache *entries;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedCacheGet(path, &entries));
  for (PetscInt i = 0; i < n; i++) PetscCall(MatAIJTunedCheck(aijt_tune_cache_put(&cache.entries, &e[i])));
  cache.unwritten = (PetscBool)(cache.unwritten || n > 0);
  PetscCall(PetscInfo(NULL, "aijtuned: %" PetscInt_FMT " strips tuned, for the cache %s\n", n, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}
