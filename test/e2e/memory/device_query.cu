// Device management and queries: cudaGetDeviceCount >= 1, cudaSetDevice /
// cudaGetDevice, cudaGetDeviceProperties with sane limits (warpSize 32,
// maxThreadsPerBlock 1024, maxThreadsDim, maxGridSize, non-empty name),
// cudaDeviceGetAttribute agreeing with the properties, cudaMemGetInfo, and
// cudaDriverGetVersion / cudaRuntimeGetVersion.
// RUN: %respec -O0 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O0 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O0 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("%s:%d: expectation failed: %s\n", __FILE__, __LINE__, #cond);   \
      printf("FAILED\n");                                                     \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__global__ void touch(int *p) { *p = 7; }

int main() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  EXPECT(count >= 1);
  CUDA_CHECK(cudaSetDevice(0));
  int dev = -1;
  CUDA_CHECK(cudaGetDevice(&dev));
  EXPECT(dev == 0);

  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(strlen(prop.name) > 0);
  EXPECT(prop.warpSize == 32);
  EXPECT(prop.maxThreadsPerBlock == 1024);
  EXPECT(prop.maxThreadsDim[0] == 1024 && prop.maxThreadsDim[1] == 1024 &&
         prop.maxThreadsDim[2] == 64);
  EXPECT(prop.maxGridSize[0] >= 65535 && prop.maxGridSize[1] >= 65535 &&
         prop.maxGridSize[2] >= 65535);
  EXPECT(prop.multiProcessorCount >= 1);
  EXPECT(prop.totalGlobalMem > 0);
  EXPECT(prop.sharedMemPerBlock >= 48 * 1024);
  EXPECT(prop.major >= 1);

  int attr = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0));
  EXPECT(attr == prop.warpSize);
  CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxThreadsPerBlock, 0));
  EXPECT(attr == prop.maxThreadsPerBlock);
  CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMultiProcessorCount, 0));
  EXPECT(attr == prop.multiProcessorCount);
  CUDA_CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxGridDimY, 0));
  EXPECT(attr == prop.maxGridSize[1]);

  size_t freeMem = 0, totalMem = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeMem, &totalMem));
  EXPECT(totalMem > 0 && freeMem <= totalMem);

  int runtimeVersion = 0, driverVersion = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&runtimeVersion));
  CUDA_CHECK(cudaDriverGetVersion(&driverVersion));
  EXPECT(runtimeVersion > 0 && driverVersion > 0);

  // An out-of-range device is rejected.
  EXPECT(cudaSetDevice(count + 5) == cudaErrorInvalidDevice);
  cudaGetLastError();

  // The device still works after the queries.
  int *d, h = 0;
  CUDA_CHECK(cudaMalloc(&d, sizeof(int)));
  touch<<<1, 1>>>(d);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h == 7);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaDeviceReset());
  printf("PASSED\n");
  return 0;
}
