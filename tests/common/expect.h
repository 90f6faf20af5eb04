/* EXPECT for the plain-C planner tests: counts checks and failures, prints each failure. */
#pragma once

#include <stdio.h>

static int failures = 0, checks = 0;

#define EXPECT(cond, ...) \
  do { \
    checks++; \
    if (!(cond)) { \
      failures++; \
      printf("FAIL "); \
      printf(__VA_ARGS__); \
      printf("\n"); \
    } \
  } while (0)
