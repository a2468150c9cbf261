//===- GpuRuntimeTest.cpp - The GPU runtime against the fake CUDA driver --===//
//
// Registers a hand-built respec_gpu_module the way clang's host code does and
// drives librespec_cudart_gpu.a with libfakecuda.so as the driver
// (RESPEC_CUDA_DRIVER, set by ctest). The fake logs every kernel launch, so
// the test checks what the launch functions passed to the driver.
//
// Modes (argv[1]): none runs the main checks; "no-driver" and "no-device"
// check the failure paths, with the environment ctest sets for them.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const char ptx[] = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .global .align 4 .b8 table[16];
.const .align 4 .u32 scale;

.visible .entry _Z5scalePfifS_(
	.param .u64 _Z5scalePfifS__param_0,
	.param .u32 _Z5scalePfifS__param_1,
	.param .f32 _Z5scalePfifS__param_2,
	.param .align 4 .b8 _Z5scalePfifS__param_3[12]
)
{
	ret;
}

.visible .entry _Z5scalePfifS__epilogue(
	.param .u64 _Z5scalePfifS__epilogue_param_0
)
{
	ret;
}
)";

const char brokenPtx[] = ".version 8.0\n.target sm_80\n// no kernels\n";

struct Triple {
  float x, y, z;
};

/// The launch function respec would generate for `scale`: the kernel itself
/// on the launch's geometry, then a one-block epilogue.
void scaleLaunch(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                 uint32_t by, uint32_t bz, uint64_t dynamicShared,
                 void **args) {
  __respec_cuda_launch("_Z5scalePfifS_", gx, gy, gz, bx, by, bz, dynamicShared,
                       args);
  void *epilogueArgs[] = {args[0]};
  __respec_cuda_launch("_Z5scalePfifS__epilogue", 1, 1, 1, 32, 1, 1, 0,
                       epilogueArgs);
}

/// A launch function that asks for a GPU kernel the module lacks.
void missingLaunch(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
                   uint64_t, void **args) {
  __respec_cuda_launch("_Z7missingv", 1, 1, 1, 1, 1, 1, 0, args);
}

void cpuLaunch(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
               uint64_t, void **) {}

const uint32_t scaleParamSizes[] = {8, 4, 4, 12};
const respec_kernel_entry kernels[] = {
    {"_Z5scalePfifS_", scaleLaunch, 0, 4, 0, scaleParamSizes},
    {"_Z7missingv", missingLaunch, 0, 0, 0, nullptr},
};
const respec_var_entry vars[] = {
    {"table", nullptr, 16},
    {"scale", nullptr, 4},
};
const respec_module table = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 2, 2, kernels, vars};
const respec_gpu_module gpuModule = {RESPEC_GPU_MODULE_MAGIC,
                                     RESPEC_GPU_MODULE_VERSION,
                                     RESPEC_GPU_IMAGE_PTX,
                                     0,
                                     &table,
                                     ptx,
                                     sizeof(ptx),
                                     "sm_80"};

const respec_kernel_entry brokenKernels[] = {
    {"_Z6brokenv", cpuLaunch, 0, 0, 0, nullptr},
};
const respec_module brokenTable = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 1, 0, brokenKernels, nullptr};
const respec_gpu_module brokenModule = {RESPEC_GPU_MODULE_MAGIC,
                                        RESPEC_GPU_MODULE_VERSION,
                                        RESPEC_GPU_IMAGE_PTX,
                                        0,
                                        &brokenTable,
                                        brokenPtx,
                                        sizeof(brokenPtx),
                                        "sm_80"};

// A module built for the CPU, which the GPU runtime must refuse.
const respec_kernel_entry cpuKernels[] = {
    {"_Z3cpuv", cpuLaunch, 0, 0, 0, nullptr},
};
const respec_module cpuTable = {
    RESPEC_MODULE_MAGIC, RESPEC_MODULE_VERSION, 1, 0, cpuKernels, nullptr};

// Host stubs and shadows: only their addresses matter.
void scaleStub() {}
void missingStub() {}
void brokenStub() {}
void cpuStub() {}
void unregisteredStub() {}
char hostTable[16];
unsigned hostScale;

std::string logPath;

std::vector<std::string> readLog() {
  std::vector<std::string> lines;
  std::ifstream log(logPath);
  for (std::string line; std::getline(log, line);)
    lines.push_back(line);
  return lines;
}

std::string hex(const void *data, size_t bytes) {
  std::string text;
  char buffer[3];
  for (size_t i = 0; i < bytes; ++i) {
    std::snprintf(buffer, sizeof(buffer), "%02x",
                  static_cast<const unsigned char *>(data)[i]);
    text += buffer;
  }
  return text;
}

void registerModules() {
  static TestFatBinary gpuWrapper, brokenWrapper, cpuWrapper;
  gpuWrapper.data = &gpuModule;
  void **handle = registerModule(gpuWrapper);
  registerKernel(handle, reinterpret_cast<const void *>(scaleStub),
                 "_Z5scalePfifS_");
  registerKernel(handle, reinterpret_cast<const void *>(missingStub),
                 "_Z7missingv");
  __cudaRegisterVar(handle, hostTable, const_cast<char *>("table"), "table", 0,
                    sizeof(hostTable), 0, 0);
  __cudaRegisterVar(handle, reinterpret_cast<char *>(&hostScale),
                    const_cast<char *>("scale"), "scale", 0, sizeof(hostScale),
                    1, 0);
  brokenWrapper.data = &brokenModule;
  registerKernel(registerModule(brokenWrapper),
                 reinterpret_cast<const void *>(brokenStub), "_Z6brokenv");
  cpuWrapper.data = &cpuTable;
  registerKernel(registerModule(cpuWrapper),
                 reinterpret_cast<const void *>(cpuStub), "_Z3cpuv");
}

void checkDevice() {
  int count = 0;
  CHECK_OK(cudaGetDeviceCount(&count));
  CHECK(count == 1);
  cudaDeviceProp prop;
  CHECK_OK(cudaGetDeviceProperties(&prop, 0));
  CHECK(std::strcmp(prop.name, "respec fake GPU") == 0);
  CHECK(prop.major == 8 && prop.minor == 0);
  CHECK(prop.maxThreadsPerBlock == 1024 && prop.maxGridSize[1] == 65535);
  CHECK(prop.sharedMemPerBlockOptin == 101376);
  CHECK(prop.totalGlobalMem == size_t(16) << 30);
  int value = 0;
  CHECK_OK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0));
  CHECK(value == 108);
  CHECK_EQ_ERR(cudaGetDeviceProperties(&prop, 1), cudaErrorInvalidDevice);
  CHECK_EQ_ERR(cudaSetDevice(1), cudaErrorInvalidDevice);
  CHECK_OK(cudaSetDevice(0));
  int version = 0;
  CHECK_OK(cudaDriverGetVersion(&version));
  CHECK(version == 13000);
  size_t limit = 0;
  CHECK_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24));
  CHECK_OK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
  CHECK(limit == 1 << 24);
  cudaGetLastError();
}

void checkMemory() {
  const int n = 64;
  int host[n], back[n];
  for (int i = 0; i < n; ++i)
    host[i] = i * 3;
  int *device = nullptr;
  CHECK_OK(cudaMalloc(&device, sizeof(host)));
  CHECK(device != nullptr);
  CHECK_OK(cudaMemcpy(device, host, sizeof(host), cudaMemcpyHostToDevice));
  CHECK_OK(cudaMemcpy(back, device, sizeof(back), cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(host, back, sizeof(host)) == 0);
  CHECK_OK(cudaMemset(device, 0xab, 8));
  CHECK_OK(cudaMemcpy(back, device, sizeof(back), cudaMemcpyDefault));
  CHECK(static_cast<unsigned>(back[0]) == 0xabababab && back[2] == 6);
  CHECK_EQ_ERR(cudaMemcpy(back, device, 4, static_cast<cudaMemcpyKind>(7)),
               cudaErrorInvalidMemcpyDirection);

  // A 2D copy out of the middle of a pitched allocation.
  char *pitched = nullptr;
  size_t pitch = 0;
  CHECK_OK(cudaMallocPitch(reinterpret_cast<void **>(&pitched), &pitch, 10, 4));
  CHECK(pitch >= 10);
  CHECK_OK(cudaMemset2D(pitched, pitch, 7, 10, 4));
  char rows[4][6];
  CHECK_OK(
      cudaMemcpy2D(rows, 6, pitched + 2, pitch, 6, 4, cudaMemcpyDeviceToHost));
  CHECK(rows[3][5] == 7);

  cudaPointerAttributes attributes;
  CHECK_OK(cudaPointerGetAttributes(&attributes, device + 1));
  CHECK(attributes.type == cudaMemoryTypeDevice && attributes.device == 0);
  CHECK_OK(cudaPointerGetAttributes(&attributes, host));
  CHECK(attributes.type == cudaMemoryTypeUnregistered);

  void *pinned = nullptr;
  CHECK_OK(cudaMallocHost(&pinned, 256));
  CHECK_OK(cudaPointerGetAttributes(&attributes, pinned));
  CHECK(attributes.type == cudaMemoryTypeHost);
  CHECK_OK(cudaFreeHost(pinned));
  size_t free = 0, total = 0;
  CHECK_OK(cudaMemGetInfo(&free, &total));
  CHECK(free > 0 && free <= total);
  CHECK_OK(cudaFree(pitched));
  CHECK_OK(cudaFree(device));
  CHECK_OK(cudaFree(nullptr));
}

/// Stream-ordered allocation goes to the driver's cuMemAllocAsync and
/// cuMemPool* entry points, handles and values unchanged.
void checkMemoryPools() {
  int *data = nullptr;
  CHECK_OK(cudaMallocAsync(&data, 64 * sizeof(int), nullptr));
  CHECK(data != nullptr);
  int host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = i;
  CHECK_OK(cudaMemcpy(data, host, sizeof(host), cudaMemcpyHostToDevice));
  CHECK_OK(cudaFreeAsync(data, nullptr));

  cudaMemPool_t defaultPool = nullptr, current = nullptr, own = nullptr;
  CHECK_OK(cudaDeviceGetDefaultMemPool(&defaultPool, 0));
  CHECK_OK(cudaDeviceGetMemPool(&current, 0));
  CHECK(defaultPool != nullptr && current == defaultPool);
  CHECK_EQ_ERR(cudaDeviceGetDefaultMemPool(&current, 5),
               cudaErrorInvalidDevice);
  cuuint64_t threshold = 1 << 20, value = 0;
  CHECK_OK(cudaMemPoolSetAttribute(
      defaultPool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK_OK(cudaMemPoolGetAttribute(
      defaultPool, cudaMemPoolAttrReleaseThreshold, &value));
  CHECK(value == threshold);
  int reuse = 0, reuseBack = 1;
  CHECK_OK(cudaMemPoolSetAttribute(
      defaultPool, cudaMemPoolReuseAllowOpportunistic, &reuse));
  CHECK_OK(cudaMemPoolGetAttribute(
      defaultPool, cudaMemPoolReuseAllowOpportunistic, &reuseBack));
  CHECK(reuseBack == 0);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  CHECK_OK(cudaMemPoolCreate(&own, &props));
  CHECK_OK(cudaDeviceSetMemPool(0, own));
  CHECK_OK(cudaDeviceGetMemPool(&current, 0));
  CHECK(current == own);
  void *fromPool = nullptr;
  CHECK_OK(cudaMallocFromPoolAsync(&fromPool, 128, own, nullptr));
  CHECK_OK(cudaFreeAsync(fromPool, nullptr));
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation location = {cudaMemLocationTypeDevice, 0};
  CHECK_OK(cudaMemPoolGetAccess(&flags, own, &location));
  CHECK(flags == cudaMemAccessFlagsProtReadWrite);
  CHECK_OK(cudaMemPoolTrimTo(own, 0));
  CHECK_OK(cudaMemPoolDestroy(own));
  CHECK_OK(cudaDeviceGetMemPool(&current, 0));
  CHECK(current == defaultPool);
  CHECK_EQ_ERR(cudaMemPoolDestroy(defaultPool), cudaErrorInvalidValue);
  CHECK_OK(cudaStreamSynchronize(nullptr));
}

void checkSymbols() {
  const unsigned values[4] = {1, 2, 3, 4};
  unsigned back[4] = {};
  CHECK_OK(cudaMemcpyToSymbol(hostTable, values, sizeof(values)));
  CHECK_OK(cudaMemcpyFromSymbol(back, hostTable, sizeof(back)));
  CHECK(std::memcmp(values, back, sizeof(values)) == 0);
  CHECK_OK(cudaMemcpyFromSymbol(back, hostTable, 4, 12));
  CHECK(back[0] == 4);
  size_t size = 0;
  CHECK_OK(cudaGetSymbolSize(&size, hostScale));
  CHECK(size == 4);
  void *address = nullptr;
  CHECK_OK(cudaGetSymbolAddress(&address, hostTable));
  CHECK(address != nullptr && address != hostTable);
  // The device address also names the symbol.
  unsigned five = 5;
  CHECK_OK(cudaMemcpyToSymbol(static_cast<const void *>(address), &five, 4, 8));
  CHECK_OK(cudaMemcpyFromSymbol(back, hostTable, 4, 8));
  CHECK(back[0] == 5);
  CHECK_EQ_ERR(cudaMemcpyToSymbol(hostTable, values, sizeof(values), 4),
               cudaErrorInvalidValue);
  int unknown = 0;
  CHECK_EQ_ERR(cudaMemcpyToSymbol(unknown, values, 4), cudaErrorInvalidSymbol);
  cudaGetLastError();
}

void checkLaunches() {
  float *data = nullptr;
  CHECK_OK(cudaMalloc(&data, 1024));
  int count = 256;
  float factor = 2.0f;
  Triple triple = {1.0f, -1.0f, 0.5f};
  void *args[] = {&data, &count, &factor, &triple};
  truncate(logPath.c_str(), 0);
  CHECK_OK(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub),
                            dim3(4, 2, 1), dim3(128, 1, 1), args, 256,
                            nullptr));
  std::vector<std::string> log = readLog();
  std::string expected = "launch _Z5scalePfifS_ grid=4,2,1 block=128,1,1 "
                         "shared=256 params=" +
                         hex(&data, 8) + "," + hex(&count, 4) + "," +
                         hex(&factor, 4) + "," + hex(&triple, 12);
  CHECK(log.size() == 2);
  if (log.size() == 2) {
    CHECK(log[0] == expected);
    if (log[0] != expected)
      std::fprintf(stderr, "got:      %s\nexpected: %s\n", log[0].c_str(),
                   expected.c_str());
    CHECK(log[1] == "launch _Z5scalePfifS__epilogue grid=1,1,1 block=32,1,1 "
                    "shared=0 params=" +
                        hex(&data, 8));
  }

  // Over 48 KiB of dynamic shared memory needs the kernel's opt-in, which
  // the runtime passes on to the driver at launch time.
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub),
                                dim3(1), dim3(32), args, 65536, nullptr),
               cudaErrorInvalidValue);
  CHECK_OK(cudaFuncSetAttribute(reinterpret_cast<const void *>(scaleStub),
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                65536));
  truncate(logPath.c_str(), 0);
  CHECK_OK(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub), dim3(1),
                            dim3(32), args, 65536, nullptr));
  log = readLog();
  CHECK(!log.empty() && log[0].find(" shared=65536 ") != std::string::npos);

  // Invalid configurations never reach the launch function.
  truncate(logPath.c_str(), 0);
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub),
                                dim3(1), dim3(2048), args, 0, nullptr),
               cudaErrorInvalidConfiguration);
  CHECK(readLog().empty());

  // A GPU kernel missing from the PTX, an unregistered stub, PTX the JIT
  // rejects, and a kernel built for the CPU.
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(missingStub),
                                dim3(1), dim3(1), nullptr, 0, nullptr),
               cudaErrorInvalidDeviceFunction);
  CHECK_EQ_ERR(
      cudaLaunchKernel(reinterpret_cast<const void *>(unregisteredStub),
                       dim3(1), dim3(1), nullptr, 0, nullptr),
      cudaErrorInvalidDeviceFunction);
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(brokenStub),
                                dim3(1), dim3(1), nullptr, 0, nullptr),
               cudaErrorInvalidPtx);
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(cpuStub),
                                dim3(1), dim3(1), nullptr, 0, nullptr),
               cudaErrorNoKernelImageForDevice);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
  CHECK_OK(cudaGetLastError());

  cudaFuncAttributes attributes;
  CHECK_OK(cudaFuncGetAttributes(&attributes,
                                 reinterpret_cast<const void *>(scaleStub)));
  CHECK(attributes.maxThreadsPerBlock == 1024 && attributes.numRegs == 32);
  CHECK(attributes.maxDynamicSharedSizeBytes == 65536);
  int blocks = 0;
  CHECK_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, reinterpret_cast<const void *>(scaleStub), 256, 0));
  CHECK(blocks == 8);
  CHECK_OK(cudaFree(data));
}

int hostFunctionRuns = 0;
void countHostFunction(void *counter) { ++*static_cast<int *>(counter); }
void countCallback(cudaStream_t, cudaError_t status, void *counter) {
  if (status == cudaSuccess)
    ++*static_cast<int *>(counter);
}

void checkStreams() {
  cudaStream_t stream = nullptr;
  CHECK_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  unsigned flags = 0;
  CHECK_OK(cudaStreamGetFlags(stream, &flags));
  CHECK(flags == cudaStreamNonBlocking);
  cudaEvent_t start = nullptr, stop = nullptr;
  CHECK_OK(cudaEventCreate(&start));
  CHECK_OK(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
  int host[16] = {1, 2, 3}, back[16] = {};
  int *device = nullptr;
  CHECK_OK(cudaMalloc(&device, sizeof(host)));
  CHECK_OK(cudaEventRecord(start, stream));
  CHECK_OK(cudaMemcpyAsync(device, host, sizeof(host), cudaMemcpyHostToDevice,
                           stream));
  CHECK_OK(cudaMemcpyAsync(back, device, sizeof(back), cudaMemcpyDeviceToHost,
                           stream));
  CHECK_OK(cudaLaunchHostFunc(stream, countHostFunction, &hostFunctionRuns));
  CHECK_OK(cudaStreamAddCallback(stream, countCallback, &hostFunctionRuns, 0));
  CHECK_OK(cudaEventRecord(stop, stream));
  CHECK_OK(cudaStreamWaitEvent(cudaStreamPerThread, stop, 0));
  CHECK_OK(cudaEventSynchronize(stop));
  CHECK_OK(cudaEventQuery(stop));
  CHECK_OK(cudaStreamSynchronize(stream));
  CHECK_OK(cudaStreamQuery(stream));
  CHECK(back[2] == 3 && hostFunctionRuns == 2);
  float ms = -1.0f;
  CHECK_OK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(ms >= 0.0f);
  CHECK_OK(cudaEventDestroy(start));
  CHECK_OK(cudaEventDestroy(stop));
  CHECK_EQ_ERR(cudaStreamDestroy(cudaStreamLegacy),
               cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaStreamDestroy(stream));
  CHECK_OK(cudaFree(device));
  CHECK_OK(cudaDeviceSynchronize());
  cudaGetLastError();
}

/// RESPEC_CUDA_DRIVER names a missing library: every call fails cleanly.
int checkNoDriver() {
  int count = 42;
  CHECK_EQ_ERR(cudaGetDeviceCount(&count), cudaErrorInsufficientDriver);
  CHECK(count == 0);
  void *ptr = nullptr;
  CHECK_EQ_ERR(cudaMalloc(&ptr, 16), cudaErrorInsufficientDriver);
  CHECK_EQ_ERR(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub),
                                dim3(1), dim3(1), nullptr, 0, nullptr),
               cudaErrorInsufficientDriver);
  int version = -1;
  CHECK_OK(cudaDriverGetVersion(&version));
  CHECK(version == 0);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorInsufficientDriver);
  return finishTest("GpuRuntimeTest no-driver");
}

/// The driver loads but finds no GPU.
int checkNoDevice() {
  int count = 42;
  CHECK_EQ_ERR(cudaGetDeviceCount(&count), cudaErrorNoDevice);
  CHECK(count == 0);
  void *ptr = nullptr;
  CHECK_EQ_ERR(cudaMalloc(&ptr, 16), cudaErrorNoDevice);
  cudaDeviceProp prop;
  CHECK_EQ_ERR(cudaGetDeviceProperties(&prop, 0), cudaErrorNoDevice);
  return finishTest("GpuRuntimeTest no-device");
}

} // namespace

int main(int argc, char **argv) {
  registerModules();
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "no-driver")
    return checkNoDriver();
  if (mode == "no-device")
    return checkNoDevice();
  char path[] = "/tmp/respec-fake-cuda-log-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return 1;
  close(fd);
  logPath = path;
  setenv("RESPEC_FAKE_CUDA_LOG", path, 1);
  checkDevice();
  checkMemory();
  checkMemoryPools();
  checkSymbols();
  checkLaunches();
  checkStreams();
  unlink(path);
  return finishTest("GpuRuntimeTest");
}
