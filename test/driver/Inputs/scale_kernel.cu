// Second CUDA translation unit of separate-compilation.test.
#include <cuda_runtime.h>

__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

void launchScale(float *x, float s, int n) {
  scale<<<(n + 63) / 64, 64>>>(x, s, n);
}
