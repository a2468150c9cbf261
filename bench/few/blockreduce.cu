// A reduction launched as one block of 1024 threads (the last pass of a
// reduction, or code written for a fixed grid): each thread sums the
// squares of a block-stride share of N integers, then the block reduces the
// partial sums in shared memory, a barrier after each step.
#include "common.h"
#include <vector>

#ifndef N
#define N (1 << 24)
#endif

__global__ void sumSquares(const int *values, long long *total, long n) {
  __shared__ long long partial[1024];
  long long sum = 0;
  for (long i = threadIdx.x; i < n; i += blockDim.x)
    sum += (long long)values[i] * values[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int width = blockDim.x / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      partial[threadIdx.x] += partial[threadIdx.x + width];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *total = partial[0];
}

int main() {
  const long n = N;
  std::vector<int> host(n);
  for (long i = 0; i < n; ++i)
    host[i] = int((i * 7919 + 13) % 1000);
  int *values;
  long long *total;
  cudaMalloc(&values, n * sizeof(int));
  cudaMalloc(&total, sizeof(long long));
  cudaMemcpy(values, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  timeIt("blockreduce", 10, [&] {
    sumSquares<<<1, 1024>>>(values, total, n);
    cudaDeviceSynchronize();
  });
  long long result = 0;
  cudaMemcpy(&result, total, sizeof(long long), cudaMemcpyDeviceToHost);
  std::printf("checksum=%.3f\n", (double)result);
  return 0;
}
