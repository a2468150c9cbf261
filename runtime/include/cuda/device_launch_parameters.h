//===- device_launch_parameters.h - threadIdx & co. for respec ------------===//
//
// threadIdx, blockIdx, blockDim, gridDim and warpSize come from clang's
// __clang_cuda_builtin_vars.h, which __respec_cuda_prelude.h includes in every
// CUDA compilation; this header exists because programs include it by name.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_CUDA_DEVICE_LAUNCH_PARAMETERS_H
#define RESPEC_CUDA_DEVICE_LAUNCH_PARAMETERS_H

#if defined(__CUDA__) && defined(__clang__)
#include <__clang_cuda_builtin_vars.h>
#endif

#endif // RESPEC_CUDA_DEVICE_LAUNCH_PARAMETERS_H
