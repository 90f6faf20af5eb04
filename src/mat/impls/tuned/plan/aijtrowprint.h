/*
   The pattern part of a strip's fingerprint (the tuning cache's key, aijttune.h): the sum, modulo 2^64,
   of one mixed value per strip row.  A sum of well-mixed values does not depend on the order it is
   added in, so the host (tunecache.c, over a layout's rows) and the device (kernels/skeleton.cu, over
   rows it never copies to the host) get the same number.  Plain C, also compiled by nvcc.
*/
#pragma once

#include "aijthostdevice.h"

#include <stdint.h>

/* splitmix64's finaliser */
AIJT_HOST_DEVICE static inline uint64_t aijt_mix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Strip row i: original row r, its CSR offsets [a, b), its first and last columns (-1: empty row). */
AIJT_HOST_DEVICE static inline uint64_t aijt_row_print(int64_t i, int64_t r, int64_t a, int64_t b, int64_t c0, int64_t c1)
{
  uint64_t h = aijt_mix64((uint64_t)i ^ ((uint64_t)r << 32) ^ ((uint64_t)r >> 32));
  h          = aijt_mix64(h ^ (uint64_t)a ^ ((uint64_t)(b - a) << 40));
  return aijt_mix64(h ^ (uint64_t)c0 ^ ((uint64_t)c1 << 32));
}
