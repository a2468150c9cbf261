//===- LaunchTest.cpp - Kernel launches through cudaLaunchKernel ----------===//

#include "RuntimeTest.h"

#include <atomic>
#include <cstring>

namespace {

/// "Device code" of `scale(float *data, float factor, int n)`: one loop over
/// all threads of the grid, using the block's shared memory.
void launchScale(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                 uint32_t by, uint32_t bz, uint64_t dynamicShared,
                 void **args) {
  float *data = *static_cast<float **>(args[0]);
  float factor = *static_cast<float *>(args[1]);
  int n = *static_cast<int *>(args[2]);
  uint64_t blockThreads = uint64_t(bx) * by * bz;
  for (uint64_t block = 0; block < uint64_t(gx) * gy * gz; ++block) {
    auto *shared = static_cast<float *>(
        __respec_shared_memory(dynamicShared + 16 * sizeof(float)));
    if (reinterpret_cast<uintptr_t>(shared) % 64 != 0)
      std::abort();
    for (uint64_t t = 0; t < blockThreads; ++t) {
      uint64_t i = block * blockThreads + t;
      if (i < uint64_t(n)) {
        shared[0] = data[i] * factor;
        data[i] = shared[0];
      }
    }
  }
}

std::atomic<int> countLaunches{0};
void launchCount(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                 uint64_t, void **) {
  ++countLaunches;
}

/// A kernel that synchronizes its grid: records the grid workspace it sees.
std::atomic<void *> seenWorkspace{nullptr};
std::atomic<int> gridLaunches{0};
void launchGrid(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                uint64_t, void **) {
  seenWorkspace = __respec_grid_workspace();
  ++gridLaunches;
}

const uint32_t scaleParamSizes[] = {sizeof(float *), sizeof(float),
                                    sizeof(int)};
const respec_kernel_entry kernels[] = {
    {"_Z5scalePffi", launchScale, 64, 3, 0, 0, scaleParamSizes},
    {"_Z5countv", launchCount, 0, 0, 0, 0, nullptr},
    {"_Z4gridv", launchGrid, 0, 0, 0, RESPEC_KERNEL_SYNCS_GRID, nullptr},
};
const respec_module module = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 3, 0, kernels, nullptr};

// Host stubs: only their addresses matter.
void scaleStub() {}
void countStub() {}
void unregisteredStub() {}
void gridStub() {}

/// What clang's host stub does after `<<<grid, block, shmem, stream>>>`.
cudaError_t launchThroughStub(const void *stub, void **args) {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
  cudaError_t status =
      __cudaPopCallConfiguration(&grid, &block, &shared, &stream);
  if (status != cudaSuccess)
    return status;
  return cudaLaunchKernel(stub, grid, block, args, shared, stream);
}

void testLaunchCopiesArguments() {
  float *data = nullptr;
  CHECK_OK(cudaMalloc(&data, 1000 * sizeof(float)));
  for (int i = 0; i < 1000; ++i)
    data[i] = float(i);
  float factor = 2.0f;
  int n = 1000;
  void *args[] = {&data, &factor, &n};
  __cudaPushCallConfiguration(dim3(4), dim3(256), 128, nullptr);
  CHECK_OK(launchThroughStub(reinterpret_cast<const void *>(scaleStub), args));
  factor = 100.0f; // the queued launch must have copied the old value
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(data[999] == 1998.0f && data[1] == 2.0f);
  CHECK_OK(cudaFree(data));
}

void testInvalidLaunches() {
  const void *count = reinterpret_cast<const void *>(countStub);
  struct Case {
    dim3 grid, block;
    size_t shared;
    cudaError_t expected;
  } cases[] = {
      {dim3(0), dim3(1), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(0), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(1025), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(1, 1025), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(1, 1, 65), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(64, 32), 0, cudaErrorInvalidConfiguration},
      {dim3(1, 65536), dim3(1), 0, cudaErrorInvalidConfiguration},
      {dim3(1, 1, 65536), dim3(1), 0, cudaErrorInvalidConfiguration},
      {dim3(1), dim3(1), 49153, cudaErrorInvalidValue},
      {dim3(2147483647u), dim3(1), 0, cudaSuccess},
      {dim3(1), dim3(32, 32), 49152, cudaSuccess},
  };
  countLaunches = 0;
  int expectedRuns = 0;
  for (const Case &c : cases) {
    cudaGetLastError();
    CHECK_EQ_ERR(
        cudaLaunchKernel(count, c.grid, c.block, nullptr, c.shared, nullptr),
        c.expected);
    CHECK_EQ_ERR(cudaGetLastError(), c.expected);
    expectedRuns += c.expected == cudaSuccess;
  }
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(countLaunches == expectedRuns); // invalid launches never run

  CHECK_EQ_ERR(
      cudaLaunchKernel(reinterpret_cast<const void *>(unregisteredStub),
                       dim3(1), dim3(1), nullptr, 0, nullptr),
      cudaErrorInvalidDeviceFunction);
  CHECK_EQ_ERR(cudaLaunchKernel(count, dim3(1), dim3(1), nullptr, 0,
                                reinterpret_cast<cudaStream_t>(0x1234)),
               cudaErrorInvalidResourceHandle);
  CHECK_EQ_ERR(cudaPeekAtLastError(), cudaErrorInvalidResourceHandle);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaGetLastError());
}

void testSharedMemoryAttributes() {
  const void *scale = reinterpret_cast<const void *>(scaleStub);
  cudaFuncAttributes attr;
  CHECK_OK(cudaFuncGetAttributes(&attr, scale));
  CHECK(attr.sharedSizeBytes == 64);
  CHECK(attr.maxDynamicSharedSizeBytes == 49152 - 64);
  CHECK(attr.maxThreadsPerBlock == 1024);
  float *data = nullptr;
  float factor = 1.0f;
  int n = 0;
  void *args[] = {&data, &factor, &n};
  CHECK_EQ_ERR(cudaLaunchKernel(scale, dim3(1), dim3(32), args, 60000, nullptr),
               cudaErrorInvalidValue);
  CHECK_OK(cudaFuncSetAttribute(
      scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 60000));
  CHECK_OK(cudaLaunchKernel(scale, dim3(1), dim3(32), args, 60000, nullptr));
  // sm_80's opt-in limit: 163 KiB with the static shared memory.
  CHECK_OK(cudaFuncSetAttribute(
      scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 160000));
  CHECK_OK(cudaLaunchKernel(scale, dim3(1), dim3(32), args, 160000, nullptr));
  CHECK_EQ_ERR(cudaFuncSetAttribute(
                   scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000),
               cudaErrorInvalidValue);
  CHECK_OK(cudaDeviceSynchronize());
  cudaGetLastError();
}

void testOccupancy() {
  int blocks = 0;
  CHECK_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, reinterpret_cast<const void *>(countStub), 256, 0));
  CHECK(blocks == 8);
  int minGrid = 0, blockSize = 0;
  CHECK_OK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, countStub));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  CHECK(blockSize == 1024 && minGrid == 2 * sms);
}

} // namespace

/// Cooperative launches: the kernel sees the launch's grid workspace (null
/// outside), a grid of more blocks than can run at once is refused (without
/// libomp in this test, more than one), the occupancy of a kernel that
/// synchronizes its grid is one block per core, and cudaLaunchKernelEx's
/// cooperative attribute takes the same path.
void testCooperativeLaunches() {
  const void *grid = reinterpret_cast<const void *>(gridStub);
  CHECK(__respec_grid_workspace() == nullptr);
  gridLaunches = 0;
  CHECK_OK(cudaLaunchCooperativeKernel(grid, dim3(1), dim3(64), nullptr, 0,
                                       nullptr));
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(gridLaunches == 1 && seenWorkspace != nullptr);
  CHECK(__respec_grid_workspace() == nullptr);
  CHECK_EQ_ERR(
      cudaLaunchCooperativeKernel(grid, dim3(2), dim3(64), nullptr, 0, nullptr),
      cudaErrorCooperativeLaunchTooLarge);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  int supported = 0, perCore = 0, plain = 0;
  CHECK_OK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
  CHECK(supported == 1);
  CHECK_OK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perCore, grid, 256, 0));
  CHECK(perCore == 1);
  CHECK_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &plain, reinterpret_cast<const void *>(countStub), 256, 0));
  CHECK(plain > 1);
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(3);
  config.blockDim = dim3(32);
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK_EQ_ERR(cudaLaunchKernelExC(&config, grid, nullptr),
               cudaErrorCooperativeLaunchTooLarge);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  config.gridDim = dim3(1);
  CHECK_OK(cudaLaunchKernelExC(&config, grid, nullptr));
  CHECK_OK(cudaDeviceSynchronize());
  CHECK(gridLaunches == 2);
  CHECK_OK(cudaGetLastError());
}

int main() {
  TestFatBinary wrapper;
  wrapper.data = &module;
  void **handle = registerModule(wrapper);
  registerKernel(handle, reinterpret_cast<const void *>(scaleStub),
                 "_Z5scalePffi");
  registerKernel(handle, reinterpret_cast<const void *>(countStub),
                 "_Z5countv");
  registerKernel(handle, reinterpret_cast<const void *>(gridStub), "_Z4gridv");
  testLaunchCopiesArguments();
  testInvalidLaunches();
  testSharedMemoryAttributes();
  testOccupancy();
  testCooperativeLaunches();
  return finishTest("LaunchTest");
}
