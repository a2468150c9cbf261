//===- DeviceTest.cpp - Device properties, attributes, errors, versions ---===//

#include "RuntimeTest.h"

#include <cstring>
#include <thread>

int main() {
  int count = 0, device = -1;
  CHECK_OK(cudaGetDeviceCount(&count));
  CHECK(count == 1);
  CHECK_OK(cudaGetDevice(&device));
  CHECK(device == 0);
  CHECK_OK(cudaSetDevice(0));

  cudaDeviceProp prop;
  CHECK_OK(cudaGetDeviceProperties(&prop, 0));
  CHECK(std::strncmp(prop.name, "respec CPU device", 17) == 0);
  CHECK(prop.multiProcessorCount == int(std::thread::hardware_concurrency()));
  CHECK(prop.totalGlobalMem > (size_t(64) << 20));
  CHECK(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024);
  CHECK(prop.maxThreadsDim[2] == 64 && prop.maxGridSize[0] == 2147483647);
  CHECK(prop.sharedMemPerBlock == 49152 &&
        prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock);
  CHECK(prop.major == 8 && prop.minor == 0);
  CHECK(prop.unifiedAddressing && prop.managedMemory && prop.canMapHostMemory &&
        prop.concurrentKernels);
  CHECK_EQ_ERR(cudaGetDeviceProperties(&prop, 1), cudaErrorInvalidDevice);

  int value = 0;
  CHECK_OK(cudaDeviceGetAttribute(&value, cudaDevAttrClockRate, 0));
  CHECK(value > 0);
  CHECK_OK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxBlockDimZ, 0));
  CHECK(value == 64);
  CHECK_OK(
      cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 0));
  CHECK(value == 8);
  CHECK_OK(cudaDeviceGetAttribute(&value,
                                  cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CHECK(size_t(value) == prop.sharedMemPerBlockOptin);

  size_t limit = 0;
  CHECK_OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 24));
  CHECK_OK(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize));
  CHECK(limit == (1 << 24));
  CHECK_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 28));
  CHECK_OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  CHECK_OK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  CHECK_OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));

  int version = 0;
  CHECK_OK(cudaRuntimeGetVersion(&version));
  CHECK(version == 13000);
  CHECK_OK(cudaDriverGetVersion(&version));
  CHECK(version == 13000);
  CHECK_OK(cudaProfilerStart());
  CHECK_OK(cudaProfilerStop());

  CHECK(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue),
                    "cudaErrorInvalidValue") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                    "cudaErrorInvalidConfiguration") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorUnknown), "cudaErrorUnknown") ==
        0);
  // Every code between 0 and 1000 with a name has a description.
  for (int code = 0; code < 1000; ++code) {
    const char *name = cudaGetErrorName(cudaError_t(code));
    CHECK(name && cudaGetErrorString(cudaError_t(code)));
  }
  return finishTest("DeviceTest");
}
