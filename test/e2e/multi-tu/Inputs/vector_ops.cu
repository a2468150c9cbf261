// Second translation unit of host_wrapper.cu: kernels plus host wrappers.
#include "vector_ops.h"

__global__ void scaleKernel(float *d, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= factor;
}

// Each thread computes the dot product of one chunk.
__global__ void partialDotKernel(const float *a, const float *b,
                                 float *partials, int n, int chunk) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = c * chunk;
  if (begin >= n)
    return;
  int end = begin + chunk < n ? begin + chunk : n;
  float s = 0.0f;
  for (int i = begin; i < end; ++i)
    s += a[i] * b[i];
  partials[c] = s;
}

cudaError_t launchScale(float *d, int n, float factor, cudaStream_t stream) {
  scaleKernel<<<(n + 255) / 256, 256, 0, stream>>>(d, n, factor);
  return cudaGetLastError();
}

cudaError_t launchPartialDots(const float *a, const float *b, float *partials,
                              int n, int chunk) {
  int chunks = (n + chunk - 1) / chunk;
  partialDotKernel<<<(chunks + 63) / 64, 64>>>(a, b, partials, n, chunk);
  return cudaGetLastError();
}
