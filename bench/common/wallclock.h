/* Host wall time, a sleep, and the median of repeated timings: the plain-C benchmarks without PETSc
   (bench_setup, bench_plan_gpu), bench_spmv's planning medians and the products timed after an idle. */
#pragma once

#include <stdlib.h>
#include <time.h>

static inline double wall_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int wall_cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The host asleep for ms milliseconds (the GPU left idle meanwhile: -idle_ms). */
static inline void wall_sleep_ms(long ms)
{
  const struct timespec t = {(time_t)(ms / 1000), (ms % 1000) * 1000000L};
  (void)nanosleep(&t, NULL);
}

/* The median of t[0..n) (sorts t). */
static inline double median_of(double *t, int n)
{
  qsort(t, (size_t)n, sizeof(double), wall_cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
