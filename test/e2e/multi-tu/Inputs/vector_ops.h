// Host interface of the kernels defined in Inputs/vector_ops.cu.
#ifndef VECTOR_OPS_H
#define VECTOR_OPS_H

#include <cuda_runtime.h>

// Launches the dot-product-partials kernel and the scale kernel; both are
// defined in another translation unit and only reachable through these
// host wrappers.
cudaError_t launchScale(float *d, int n, float factor, cudaStream_t stream);
cudaError_t launchPartialDots(const float *a, const float *b, float *partials,
                              int n, int chunk);

#endif
