// Explicit time stepping of 1-D diffusion on 16 Ki cells: one small launch
// per step (64 blocks of 256 threads, one cell each), the shape of
// iterative solvers whose steps are short. What is timed is mostly the
// cost of a launch.
#include "common.h"
#include <cuda_runtime.h>
#include <vector>

#ifndef CELLS
#define CELLS (1 << 14)
#endif
#ifndef STEPS
#define STEPS 2000
#endif

__global__ void diffuse(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float left = i > 0 ? in[i - 1] : in[i];
  float right = i < n - 1 ? in[i + 1] : in[i];
  out[i] = in[i] + 0.25f * (left - 2.0f * in[i] + right);
}

int main() {
  const int n = CELLS;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = unitInput(i);
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  const int threads = 256, blocks = (n + threads - 1) / threads;
  timeIt("steps", 5, [&] {
    cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    for (int s = 0; s < STEPS; ++s) {
      diffuse<<<blocks, threads>>>(a, b, n);
      float *t = a;
      a = b;
      b = t;
    }
    cudaDeviceSynchronize();
  });
  std::vector<float> result(n);
  cudaMemcpy(result.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("checksum=%.3f\n", checksum(result.data(), n));
  return 0;
}
