// __launch_bounds__(N): cudaFuncGetAttributes reports N threads per block,
// the occupancy API suggests no larger block, and a launch with more threads
// fails with cudaErrorLaunchOutOfResources (as on a GPU) instead of running
// past the kernel's per-block arrays; launches within the bound work.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: attributes 128 1024
// CHECK: suggested block <= 128
// CHECK: oversized launch: cudaErrorLaunchOutOfResources
// CHECK: 2-D oversized launch: cudaErrorLaunchOutOfResources
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define BOUND 128

__global__ void __launch_bounds__(BOUND) reverse(int *data) {
  __shared__ int tile[BOUND];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  tile[t] = data[t];
  __syncthreads();
  data[t] = tile[blockDim.x * blockDim.y - 1 - t];
}

__global__ void unbounded(int *data) { data[threadIdx.x] += 1; }

int main() {
  cudaFuncAttributes bounded, plain;
  cudaFuncGetAttributes(&bounded, reverse);
  cudaFuncGetAttributes(&plain, unbounded);
  printf("attributes %d %d\n", bounded.maxThreadsPerBlock,
         plain.maxThreadsPerBlock);
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, reverse);
  if (block > 0 && block <= BOUND)
    printf("suggested block <= %d\n", BOUND);
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  int host[1024];
  for (int i = 0; i < 1024; ++i)
    host[i] = i;
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  reverse<<<1, 2 * BOUND>>>(d);
  printf("oversized launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  reverse<<<1, dim3(16, 16)>>>(d);
  printf("2-D oversized launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  reverse<<<1, dim3(16, 8)>>>(d);
  cudaError_t ok = cudaGetLastError();
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  bool good = ok == cudaSuccess;
  for (int i = 0; i < BOUND; ++i)
    good &= host[i] == BOUND - 1 - i;
  for (int i = BOUND; i < 1024; ++i)
    good &= host[i] == i; // the refused launches touched nothing
  printf("%s\n", good ? "PASSED" : "FAILED");
  cudaFree(d);
  return good ? 0 : 1;
}
