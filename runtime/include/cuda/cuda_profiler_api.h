//===- cuda_profiler_api.h - Profiler control (no-ops) for respec ---------===//
#ifndef RESPEC_CUDA_PROFILER_API_H
#define RESPEC_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
#endif // RESPEC_CUDA_PROFILER_API_H
