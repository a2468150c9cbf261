// A grid-stride loop launched with one block of 1024 threads (the launch
// configuration of code written for a small device or a fixed grid):
// y = a * x + y with a polynomial of x, over N elements.
#include "common.h"
#include <vector>

#ifndef N
#define N (1 << 24)
#endif

__global__ void update(const float *x, float *y, long n) {
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v = x[i];
    y[i] = 0.5f * y[i] + v * (1.0f + v * (0.5f + v * 0.25f));
  }
}

int main() {
  const long n = N;
  std::vector<float> host(n);
  for (long i = 0; i < n; ++i)
    host[i] = unitInput(i);
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  timeIt("gridstride", 10, [&] {
    update<<<1, 1024>>>(x, y, n);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(host.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("checksum=%.3f\n", checksum(host.data(), n));
  return 0;
}
