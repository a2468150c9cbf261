// Invalid launch configurations must fail with cudaErrorInvalidConfiguration
// reported by cudaGetLastError, and the kernel must not run: blockDim.x
// 2048, blockDim (32,32,2) (2048 threads), blockDim.z 128 (limit 64),
// gridDim.y 70000 (limit 65535), zero threads and zero blocks. Dynamic
// shared memory of 1 MB fails with cudaErrorInvalidValue. After each
// failure the error is cleared and a valid launch still works.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

__global__ void mark(int *flag) { atomicAdd(flag, 1); }

static int *gFlag;

static int flagValue() {
  int v = -1;
  CUDA_CHECK(cudaMemcpy(&v, gFlag, sizeof(int), cudaMemcpyDeviceToHost));
  return v;
}

static bool expectLaunchError(const char *what, dim3 grid, dim3 block,
                              size_t shmem, cudaError_t expected) {
  CUDA_CHECK(cudaMemset(gFlag, 0, sizeof(int)));
  mark<<<grid, block, shmem>>>(gFlag);
  cudaError_t err = cudaGetLastError();
  cudaDeviceSynchronize();
  if (err != expected) {
    printf("%s: cudaGetLastError returned %s (%d), expected %s (%d)\n", what,
           cudaGetErrorName(err), (int)err, cudaGetErrorName(expected),
           (int)expected);
    return false;
  }
  if (cudaGetLastError() != cudaSuccess) {
    printf("%s: error not cleared by cudaGetLastError\n", what);
    return false;
  }
  if (flagValue() != 0) {
    printf("%s: the failed launch ran the kernel\n", what);
    return false;
  }
  // a valid launch right after works
  mark<<<3, 5>>>(gFlag);
  CUDA_CHECK(cudaGetLastError());
  if (flagValue() != 15) {
    printf("%s: valid launch after the failure counted %d\n", what,
           flagValue());
    return false;
  }
  return true;
}

int main() {
  CUDA_CHECK(cudaMalloc(&gFlag, sizeof(int)));
  const cudaError_t cfg = cudaErrorInvalidConfiguration;
  bool ok =
      expectLaunchError("blockDim 2048", dim3(1), dim3(2048), 0, cfg) &&
      expectLaunchError("blockDim (32,32,2)", dim3(2), dim3(32, 32, 2), 0, cfg) &&
      expectLaunchError("blockDim.z 128", dim3(1), dim3(1, 1, 128), 0, cfg) &&
      expectLaunchError("gridDim.y 70000", dim3(1, 70000), dim3(32), 0, cfg) &&
      expectLaunchError("zero threads", dim3(4), dim3(0), 0, cfg) &&
      expectLaunchError("zero blocks", dim3(0), dim3(32), 0, cfg) &&
      expectLaunchError("1 MB dynamic shared memory", dim3(1), dim3(32),
                        1 << 20, cudaErrorInvalidValue);
  // Limits that are exactly at the maximum are valid.
  if (ok) {
    CUDA_CHECK(cudaMemset(gFlag, 0, sizeof(int)));
    mark<<<dim3(1, 65535), dim3(1)>>>(gFlag);
    CUDA_CHECK(cudaGetLastError());
    mark<<<1, 1024>>>(gFlag);
    CUDA_CHECK(cudaGetLastError());
    mark<<<1, dim3(1, 16, 64)>>>(gFlag);
    CUDA_CHECK(cudaGetLastError());
    int v = flagValue();
    if (v != 65535 + 2 * 1024) {
      printf("launches at the limits counted %d, expected %d\n", v,
             65535 + 2 * 1024);
      ok = false;
    }
  }
  if (!ok) {
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(gFlag));
  printf("PASSED\n");
  return 0;
}
