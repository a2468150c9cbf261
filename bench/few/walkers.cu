// One block of 1024 threads, each iterating its own contracting-map walker
// (a per-thread loop of STEPS steps): a small batch launched as one block.
#include "common.h"
#include <vector>

#ifndef STEPS
#define STEPS 20000
#endif

__global__ void walk(const float *start, float *end, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = start[i];
  float r = 0.5f + 0.4f * start[i];
  for (int k = 0; k < steps; ++k)
    x = 0.5f * x + r / (1.0f + x * x);
  end[i] = x;
}

int main() {
  const int n = 1024;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = 0.1f + 0.8f * unitInput(i);
  float *start, *end;
  cudaMalloc(&start, n * sizeof(float));
  cudaMalloc(&end, n * sizeof(float));
  cudaMemcpy(start, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  timeIt("walkers", 5, [&] {
    walk<<<1, n>>>(start, end, STEPS);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(host.data(), end, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("checksum=%.3f\n", checksum(host.data(), n));
  return 0;
}
