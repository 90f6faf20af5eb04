/*
   Marsaglia's xorshift64: the reproducible stream behind the test matrices (planner and kernel tests) and
   the calibration program's samples.  Each program keeps its own state, so its matrices do not change.
*/
#pragma once

static inline unsigned long long xorshift64(unsigned long long *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}
