/*
   The planners' count arrays (count[len]: rows of each length; count[d]: columns of each degree), kept between
   plannings.

   Such an array has an entry per length up to the longest row's: 80k entries (320 KB) for circuit's supply-net
   rows, as many for its columns' degrees, each made at every planning.  calloc gave them fresh pages of memory (an
   allocation that large is mapped anew, or the heap's top grows again after it was trimmed), and every page
   faulted in as it was zeroed.  Inside a program, after a long host assembly, circuit's planning took 0.424-0.437
   ms on an H200, and 0.324-0.354 ms with glibc told to keep its memory (MALLOC_MMAP_THRESHOLD_,
   MALLOC_TRIM_THRESHOLD_; bench/results/2026-11-27-kept-counts/malloc-env.txt).  Here the arrays of 16 KB to 16 MB
   come from a few blocks the process keeps: a block used again is zeroed with memset, which touches pages already
   there.  A planner in another thread (kernels/plan_job.cu) takes other blocks (a lock); when every block is in
   use, calloc serves.  aijt_counts_release gives the blocks back (the package's finalize).
*/
#include "planbuild.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define COUNTS_KEPT     4                 /* blocks kept: a planning holds two at once (lengths, degrees) */
#define COUNTS_KEPT_MIN ((size_t)4096)    /* entries: smaller arrays come from the heap as they are */
#define COUNTS_KEPT_MAX ((size_t)4 << 20) /* larger ones are not kept (16 MB a block) */

static struct {
  aijt_int *mem;
  size_t    cap; /* entries */
  int       used;
} kept[COUNTS_KEPT];
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* The unused block to take for n entries (the smallest that holds them, else the smallest or an empty slot, which
   grows), -1 if every block is in use; kept_lock held */
static int pick_block(size_t n)
{
  int fit = -1, other = -1;

  for (int s = 0; s < COUNTS_KEPT; s++) {
    if (kept[s].used) continue;
    if (kept[s].mem && kept[s].cap >= n && (fit < 0 || kept[s].cap < kept[fit].cap)) fit = s;
    if (other < 0 || !kept[s].mem || (kept[other].mem && kept[s].cap < kept[other].cap)) other = s;
  }
  return fit >= 0 ? fit : other;
}

aijt_int *aijt_counts_new(size_t n)
{
  aijt_int *mem;
  int       s;

  if (n < COUNTS_KEPT_MIN || n > COUNTS_KEPT_MAX) return (aijt_int *)calloc(n ? n : 1, sizeof(aijt_int));
  pthread_mutex_lock(&kept_lock);
  if ((s = pick_block(n)) >= 0) {
    kept[s].used = 1;
    if (kept[s].cap < n) { /* too small, or none: a new block with room to spare, zeroed by calloc */
      free(kept[s].mem);
      kept[s].cap = n + n / 4 < COUNTS_KEPT_MAX ? n + n / 4 : COUNTS_KEPT_MAX;
      if (!(kept[s].mem = (aijt_int *)calloc(kept[s].cap, sizeof(aijt_int)))) kept[s].cap = 0, kept[s].used = 0;
      mem = kept[s].mem;
      pthread_mutex_unlock(&kept_lock);
      return mem;
    }
  }
  pthread_mutex_unlock(&kept_lock);
  if (s < 0) return (aijt_int *)calloc(n, sizeof(aijt_int)); /* every block in use */
  mem = kept[s].mem; /* ours until aijt_counts_free: no lock needed to zero it */
  memset(mem, 0, n * sizeof(aijt_int));
  return mem;
}

void aijt_counts_free(aijt_int *count)
{
  if (!count) return;
  pthread_mutex_lock(&kept_lock);
  for (int s = 0; s < COUNTS_KEPT; s++)
    if (kept[s].mem == count) {
      kept[s].used = 0;
      pthread_mutex_unlock(&kept_lock);
      return;
    }
  pthread_mutex_unlock(&kept_lock);
  free(count);
}

void aijt_counts_release(void)
{
  pthread_mutex_lock(&kept_lock);
  for (int s = 0; s < COUNTS_KEPT; s++)
    if (!kept[s].used) {
      free(kept[s].mem);
      kept[s].mem = NULL;
      kept[s].cap = 0;
    }
  pthread_mutex_unlock(&kept_lock);
}
