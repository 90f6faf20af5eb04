/* Test-only: reproducible per-(row, k) numbers, so every rank count builds the same matrix. */
#pragma once

static unsigned long long Hash(unsigned long long a, unsigned long long b)
{
  unsigned long long h = a * 0x9E3779B97F4A7C15ull + b * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return h;
}
