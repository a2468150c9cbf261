// Shared by the CUDA and OpenMP versions of each few-block workload: the
// checksum and timing of the barrier suite, and inputs in [0, 1).
#ifndef RESPEC_BENCH_FEW_COMMON_H
#define RESPEC_BENCH_FEW_COMMON_H

#include "../barriers/common.h"

static inline float unitInput(long i) {
  return (float)((i * 7919 + 13) % 1000) * 0.001f;
}

#endif
