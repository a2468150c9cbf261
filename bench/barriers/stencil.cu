// 1-D three-point stencil, 100 steps; each block stages its tile and a halo
// of one element on each side in shared memory.
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void step(const float *in, float *out, int n) {
  __shared__ float s[BLOCK + 2];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  s[t + 1] = in[i];
  if (t == 0)
    s[0] = i > 0 ? in[i - 1] : 0.0f;
  if (t == BLOCK - 1)
    s[BLOCK + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  out[i] = 0.25f * s[t] + 0.5f * s[t + 1] + 0.25f * s[t + 2];
}

int main() {
  const int n = 1 << 22, steps = 100;
  float *a, *b;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  timeIt("stencil", 1, [&] {
    for (int i = 0; i < n; ++i)
      a[i] = benchInput(i);
    for (int s = 0; s < steps; ++s) {
      step<<<n / BLOCK, BLOCK>>>(a, b, n);
      float *t = a;
      a = b;
      b = t;
    }
    cudaDeviceSynchronize();
  });
  std::printf("checksum=%.3f\n", checksum(a, n));
  return 0;
}
