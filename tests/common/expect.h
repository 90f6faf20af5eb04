/* EXPECT for the plain-C planner tests: counts checks and failures, prints each failure.  A test may
   define EXPECT_WHERE() before including this, to print where a failure happened (e.g. the matrix). */
#pragma once

#include <stdio.h>

#ifndef EXPECT_WHERE
  #define EXPECT_WHERE() ((void)0)
#endif

static int failures = 0, checks = 0;

#define EXPECT(cond, ...) \
  do { \
    checks++; \
    if (!(cond)) { \
      failures++; \
      printf("FAIL "); \
      EXPECT_WHERE(); \
      printf(__VA_ARGS__); \
      printf("\n"); \
    } \
  } while (0)
