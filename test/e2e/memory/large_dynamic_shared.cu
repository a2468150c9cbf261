// Dynamic shared memory beyond the default 48 KiB, opted into with
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) up to
// the device's limit (sm_80's 163 KiB, as on an A100): a block reverses
// 40,000 integers (156 KiB) through shared memory. Asking for more than the
// limit is an error, and a launch above the opted-in size fails without
// running. The host checks every element.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: limit 166912
// CHECK: PASSED

#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void reverseThroughShared(const int *in, int *out, int n) {
  extern __shared__ int staged[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    staged[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = staged[n - 1 - i];
}

int main() {
  int limit = 0;
  cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  std::printf("limit %d\n", limit);
  const int n = 40000;
  const size_t bytes = n * sizeof(int);
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = i * 7 - 3;
  int *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice);
  int failures = 0;

  // Without opting in, the launch is refused.
  reverseThroughShared<<<1, 256, bytes>>>(in, out, n);
  if (cudaGetLastError() != cudaErrorInvalidValue) {
    std::printf("launch above 48 KiB without opting in was not refused\n");
    ++failures;
  }
  if (cudaFuncSetAttribute(reverseThroughShared,
                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                           limit + 4) != cudaErrorInvalidValue) {
    std::printf("opting in above the limit was not refused\n");
    ++failures;
  }
  cudaGetLastError();
  if (cudaFuncSetAttribute(reverseThroughShared,
                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(bytes)) != cudaSuccess) {
    std::printf("opting into %zu bytes failed\n", bytes);
    ++failures;
  }
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, reverseThroughShared);
  if (attributes.maxDynamicSharedSizeBytes != int(bytes)) {
    std::printf("maxDynamicSharedSizeBytes is %d\n",
                attributes.maxDynamicSharedSizeBytes);
    ++failures;
  }
  reverseThroughShared<<<1, 256, bytes>>>(in, out, n);
  if (cudaGetLastError() != cudaSuccess ||
      cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("launch with %zu bytes failed\n", bytes);
    ++failures;
  }
  std::vector<int> result(n);
  cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (result[i] != host[n - 1 - i] && ++failures <= 3)
      std::printf("out[%d] = %d, want %d\n", i, result[i], host[n - 1 - i]);
  if (failures) {
    std::printf("FAILED: %d\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
