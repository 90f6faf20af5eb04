/*
   AIJT_HOST_DEVICE: a plain-C helper of the planner that the kernels (nvcc) call as well, one definition for both
   sides (aijtrowprint.h, aijtblockrow.h).
*/
#pragma once

#if defined(__CUDACC__)
  #define AIJT_HOST_DEVICE __host__ __device__
#else
  #define AIJT_HOST_DEVICE
#endif
