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
    {"_Z5scalePfifS_", scaleLaunch, 0, 4, 0, 0, scaleParamSizes},
    {"_Z7missingv", missingLaunch, 0, 0, 0, 0, nullptr},
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
    {"_Z6brokenv", cpuLaunch, 0, 0, 0, 0, nullptr},
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
    {"_Z3cpuv", cpuLaunch, 0, 0, 0, 0, nullptr},
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

/// The lines of the fake driver's log that start with `prefix`.
std::vector<std::string> logLines(const std::string &prefix) {
  std::vector<std::string> lines;
  for (const std::string &line : readLog())
    if (line.compare(0, prefix.size(), prefix) == 0)
      lines.push_back(line);
  return lines;
}

/// Checks that the fake logged exactly `expected` for lines starting with
/// the first word of `expected[0]`.
void checkLogged(const std::vector<std::string> &expected,
                 const std::string &prefix) {
  std::vector<std::string> got = logLines(prefix);
  CHECK(got == expected);
  if (got != expected) {
    for (const std::string &line : got)
      std::fprintf(stderr, "got:      %s\n", line.c_str());
    for (const std::string &line : expected)
      std::fprintf(stderr, "expected: %s\n", line.c_str());
  }
}

/// CUDA arrays, texture and surface objects are the driver's: the fake logs
/// the descriptors it receives, and keeps arrays in host memory.
void checkArraysAndTextures() {
  truncate(logPath.c_str(), 0);
  cudaChannelFormatDesc uchar4Desc =
      cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  cudaChannelFormatDesc floatDesc =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc short2Desc =
      cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
  cudaChannelFormatDesc halfDesc =
      cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc unormDesc = cudaCreateChannelDesc(
      8, 8, 0, 0, cudaChannelFormatKindUnsignedNormalized8X2);
  CHECK(uchar4Desc.x == 8 && uchar4Desc.w == 8 &&
        uchar4Desc.f == cudaChannelFormatKindUnsigned);
  cudaArray_t line = nullptr, image = nullptr, volume = nullptr,
              layers = nullptr, unorm = nullptr, copy = nullptr;
  CHECK_OK(cudaMallocArray(&line, &uchar4Desc, 16));
  CHECK_OK(
      cudaMallocArray(&image, &floatDesc, 8, 4, cudaArraySurfaceLoadStore));
  CHECK_OK(cudaMalloc3DArray(&volume, &short2Desc, make_cudaExtent(4, 3, 2)));
  CHECK_OK(cudaMalloc3DArray(&layers, &halfDesc, make_cudaExtent(5, 2, 3),
                             cudaArrayLayered));
  CHECK_OK(cudaMallocArray(&unorm, &unormDesc, 10));
  CHECK_OK(cudaMallocArray(&copy, &floatDesc, 8, 4));
  checkLogged({"array 16x0x0 format=0x1 channels=4 flags=0x0",
               "array 8x4x0 format=0x20 channels=1 flags=0x2",
               "array 4x3x2 format=0x9 channels=2 flags=0x0",
               "array 5x2x3 format=0x10 channels=1 flags=0x1",
               "array 10x0x0 format=0xc1 channels=2 flags=0x0",
               "array 8x4x0 format=0x20 channels=1 flags=0x0"},
              "array ");

  cudaChannelFormatDesc desc = {};
  cudaExtent extent = {};
  unsigned flags = 42;
  CHECK_OK(cudaArrayGetInfo(&desc, &extent, &flags, volume));
  CHECK(std::memcmp(&desc, &short2Desc, sizeof(desc)) == 0);
  CHECK(extent.width == 4 && extent.height == 3 && extent.depth == 2 &&
        flags == 0);
  CHECK_OK(cudaArrayGetInfo(&desc, &extent, &flags, layers));
  CHECK(extent.width == 5 && extent.height == 2 && extent.depth == 3 &&
        flags == cudaArrayLayered);
  CHECK_OK(cudaArrayGetInfo(nullptr, &extent, nullptr, line));
  CHECK(extent.width == 16 && extent.height == 0 && extent.depth == 0);
  CHECK_OK(cudaGetChannelDesc(&desc, image));
  CHECK(std::memcmp(&desc, &floatDesc, sizeof(desc)) == 0);

  // 2-D copies in and out, whole and in part (offsets and widths in bytes).
  float host[4][8], back[4][8] = {};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x)
      host[y][x] = static_cast<float>(y * 8 + x);
  CHECK_OK(cudaMemcpy2DToArray(image, 0, 0, host, sizeof(host[0]),
                               sizeof(host[0]), 4, cudaMemcpyHostToDevice));
  CHECK_OK(cudaMemcpy2DFromArray(back, sizeof(back[0]), image, 0, 0,
                                 sizeof(back[0]), 4, cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(host, back, sizeof(host)) == 0);
  float tile[2][3] = {};
  CHECK_OK(cudaMemcpy2DFromArray(tile, sizeof(tile[0]), image, 2 * 4, 1,
                                 sizeof(tile[0]), 2, cudaMemcpyDeviceToHost));
  CHECK(tile[0][0] == host[1][2] && tile[1][2] == host[2][4]);
  CHECK_EQ_ERR(cudaMemcpy2DFromArray(tile, sizeof(tile[0]), image, 2, 1,
                                     sizeof(tile[0]), 2,
                                     cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaMemcpy2DToArray(image, 4 * 4, 0, host, sizeof(host[0]),
                                   sizeof(host[0]), 4, cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);
  CHECK_OK(cudaMemcpy2DArrayToArray(copy, 0, 0, image, 0, 0, sizeof(host[0]), 4,
                                    cudaMemcpyDeviceToDevice));
  std::memset(back, 0, sizeof(back));
  CHECK_OK(cudaMemcpy2DFromArray(back, sizeof(back[0]), copy, 0, 0,
                                 sizeof(back[0]), 4, cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(host, back, sizeof(host)) == 0);

  // 3-D copies with positions: the array's x counts short2 elements.
  int16_t block[2][2][2][2]; // [z][y][x][channel]
  for (int i = 0; i < 16; ++i)
    (&block[0][0][0][0])[i] = static_cast<int16_t>(i + 1);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(block, sizeof(block[0][0]), 2, 2);
  p.dstArray = volume;
  p.dstPos = make_cudaPos(1, 1, 0);
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_OK(cudaMemcpy3D(&p));
  int16_t whole[2][3][4][2] = {};
  cudaMemcpy3DParms q = {};
  q.srcArray = volume;
  q.dstPtr = make_cudaPitchedPtr(whole, sizeof(whole[0][0]), 4, 3);
  q.extent = make_cudaExtent(4, 3, 2);
  q.kind = cudaMemcpyDeviceToHost;
  CHECK_OK(cudaMemcpy3D(&q));
  bool volumeMatches = true;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        for (int c = 0; c < 2; ++c) {
          bool inside = x >= 1 && x < 3 && y >= 1;
          int16_t expected = inside ? block[z][y - 1][x - 1][c] : 0;
          volumeMatches = volumeMatches && whole[z][y][x][c] == expected;
        }
  CHECK(volumeMatches);
  int16_t slice[2][2][2] = {};
  q.srcPos = make_cudaPos(1, 1, 1);
  q.dstPtr = make_cudaPitchedPtr(slice, sizeof(slice[0]), 2, 2);
  q.extent = make_cudaExtent(2, 2, 1);
  CHECK_OK(cudaMemcpy3D(&q));
  CHECK(std::memcmp(slice, block[1], sizeof(slice)) == 0);
  q.srcPos = make_cudaPos(3, 0, 0); // two elements from x = 3 of 4
  CHECK_EQ_ERR(cudaMemcpy3D(&q), cudaErrorInvalidValue);
  // A layer of the layered array.
  uint16_t halves[2][5], halvesBack[3][2][5] = {};
  for (int i = 0; i < 10; ++i)
    (&halves[0][0])[i] = static_cast<uint16_t>(0x3c00 + i);
  p = {};
  p.srcPtr = make_cudaPitchedPtr(halves, sizeof(halves[0]), 5, 2);
  p.dstArray = layers;
  p.dstPos = make_cudaPos(0, 0, 2);
  p.extent = make_cudaExtent(5, 2, 1);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_OK(cudaMemcpy3DAsync(&p, nullptr));
  q = {};
  q.srcArray = layers;
  q.dstPtr = make_cudaPitchedPtr(halvesBack, sizeof(halvesBack[0][0]), 5, 2);
  q.extent = make_cudaExtent(5, 2, 3);
  q.kind = cudaMemcpyDeviceToHost;
  CHECK_OK(cudaMemcpy3D(&q));
  CHECK(std::memcmp(halvesBack[2], halves, sizeof(halves)) == 0 &&
        halvesBack[1][1][4] == 0);

  // The deprecated linear copies continue into the following rows: 12
  // floats from (6 floats, row 1) are 2 floats of row 1, all of row 2 and 2
  // of row 3.
  float linear[12], linearBack[12] = {};
  for (int i = 0; i < 12; ++i)
    linear[i] = 100.0f + i;
  CHECK_OK(cudaMemcpyToArray(image, 6 * 4, 1, linear, sizeof(linear),
                             cudaMemcpyHostToDevice));
  CHECK_OK(cudaMemcpy2DFromArray(back, sizeof(back[0]), image, 0, 0,
                                 sizeof(back[0]), 4, cudaMemcpyDeviceToHost));
  float expectedImage[4][8];
  std::memcpy(expectedImage, host, sizeof(host));
  std::memcpy(&expectedImage[1][6], linear, sizeof(linear));
  CHECK(std::memcmp(back, expectedImage, sizeof(back)) == 0);
  CHECK_OK(cudaMemcpyFromArray(linearBack, image, 6 * 4, 1, sizeof(linearBack),
                               cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(linear, linearBack, sizeof(linear)) == 0);
  CHECK_OK(cudaMemcpyArrayToArray(copy, 0, 0, image, 0, 0, sizeof(back),
                                  cudaMemcpyDeviceToDevice));
  std::memset(back, 0, sizeof(back));
  CHECK_OK(cudaMemcpyFromArray(back, copy, 0, 0, sizeof(back),
                               cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(back, expectedImage, sizeof(back)) == 0);
  CHECK_EQ_ERR(cudaMemcpyToArray(image, 0, 3, linear, sizeof(linear),
                                 cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);
  // In a 3-D array the rows continue into the next slice: 40 bytes from
  // (8 bytes, row 2) of the 16-byte rows end in row 1 of slice 1.
  unsigned char volumeBytes[96], volumeBack[96], pattern[40];
  CHECK_OK(cudaMemcpyFromArray(volumeBytes, volume, 0, 0, sizeof(volumeBytes),
                               cudaMemcpyDeviceToHost));
  CHECK(std::memcmp(volumeBytes, whole, sizeof(whole)) == 0);
  for (int i = 0; i < 40; ++i)
    pattern[i] = static_cast<unsigned char>(0xa0 + i);
  CHECK_OK(cudaMemcpyToArrayAsync(volume, 8, 2, pattern, sizeof(pattern),
                                  cudaMemcpyHostToDevice, nullptr));
  CHECK_OK(cudaMemcpyFromArray(volumeBack, volume, 0, 0, sizeof(volumeBack),
                               cudaMemcpyDeviceToHost));
  std::memcpy(volumeBytes + 2 * 16 + 8, pattern, sizeof(pattern));
  CHECK(std::memcmp(volumeBack, volumeBytes, sizeof(volumeBytes)) == 0);
  CHECK_EQ_ERR(
      cudaMemcpyToArray(volume, 2, 0, pattern, 4, cudaMemcpyHostToDevice),
      cudaErrorInvalidValue);

  // Texture objects: from an array, linear memory and pitched memory.
  truncate(logPath.c_str(), 0);
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = image;
  cudaTextureDesc sampler = {};
  sampler.addressMode[0] = cudaAddressModeBorder;
  sampler.addressMode[1] = cudaAddressModeClamp;
  sampler.addressMode[2] = cudaAddressModeWrap;
  sampler.filterMode = cudaFilterModeLinear;
  sampler.readMode = cudaReadModeElementType;
  sampler.normalizedCoords = 1;
  sampler.maxAnisotropy = 4;
  sampler.borderColor[0] = 0.25f;
  sampler.borderColor[1] = 0.5f;
  sampler.borderColor[2] = 0.75f;
  sampler.borderColor[3] = 1.0f;
  cudaTextureObject_t fromArray = 0, fromLinear = 0, fromPitch = 0,
                      fromUnorm = 0;
  CHECK_OK(cudaCreateTextureObject(&fromArray, &resource, &sampler, nullptr));
  cudaResourceDesc resourceBack = {};
  CHECK_OK(cudaGetTextureObjectResourceDesc(&resourceBack, fromArray));
  CHECK(resourceBack.resType == cudaResourceTypeArray &&
        resourceBack.res.array.array == image);
  cudaTextureDesc samplerBack = {};
  CHECK_OK(cudaGetTextureObjectTextureDesc(&samplerBack, fromArray));
  CHECK(std::memcmp(&samplerBack, &sampler, sizeof(sampler)) == 0);

  unsigned char *bytes = nullptr;
  CHECK_OK(cudaMalloc(&bytes, 256));
  resource = {};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = bytes;
  resource.res.linear.desc = uchar4Desc;
  resource.res.linear.sizeInBytes = 256;
  cudaTextureDesc pointSampler = {};
  pointSampler.readMode = cudaReadModeElementType;
  CHECK_OK(
      cudaCreateTextureObject(&fromLinear, &resource, &pointSampler, nullptr));

  void *pitched = nullptr;
  size_t pitch = 0;
  CHECK_OK(cudaMallocPitch(&pitched, &pitch, 16 * 2, 4));
  resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = pitched;
  resource.res.pitch2D.desc =
      cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
  resource.res.pitch2D.width = 16;
  resource.res.pitch2D.height = 4;
  resource.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc normalizedSampler = {};
  normalizedSampler.addressMode[0] = cudaAddressModeMirror;
  normalizedSampler.readMode = cudaReadModeNormalizedFloat;
  normalizedSampler.normalizedCoords = 1;
  CHECK_OK(cudaCreateTextureObject(&fromPitch, &resource, &normalizedSampler,
                                   nullptr));
  // The normalized-integer formats are never read as integers.
  resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = unorm;
  CHECK_OK(
      cudaCreateTextureObject(&fromUnorm, &resource, &pointSampler, nullptr));
  std::string tail = " mipmapFilter=0 mipmapBias=0 mipmapClamp=0,0";
  checkLogged({"texture " + std::to_string(fromArray) +
                   " array 8x4x0 format=0x20 channels=1 address=3,1,0 "
                   "filter=1 flags=0x2 maxAnisotropy=4" +
                   tail + " border=0.25,0.5,0.75,1",
               "texture " + std::to_string(fromLinear) +
                   " linear format=0x1 channels=4 bytes=256 address=0,0,0 "
                   "filter=0 flags=0x1 maxAnisotropy=0" +
                   tail + " border=0,0,0,0",
               "texture " + std::to_string(fromPitch) +
                   " pitch2D format=0x2 channels=1 size=16x4 pitch=" +
                   std::to_string(pitch) +
                   " address=2,0,0 filter=0 flags=0x2 maxAnisotropy=0" + tail +
                   " border=0,0,0,0",
               "texture " + std::to_string(fromUnorm) +
                   " array 10x0x0 format=0xc1 channels=2 address=0,0,0 "
                   "filter=0 flags=0x0 maxAnisotropy=0" +
                   tail + " border=0,0,0,0"},
              "texture ");
  for (cudaTextureObject_t t : {fromArray, fromLinear, fromPitch, fromUnorm})
    CHECK_OK(cudaDestroyTextureObject(t));
  checkLogged({"destroy texture " + std::to_string(fromArray),
               "destroy texture " + std::to_string(fromLinear),
               "destroy texture " + std::to_string(fromPitch),
               "destroy texture " + std::to_string(fromUnorm)},
              "destroy texture ");
  CHECK_EQ_ERR(cudaDestroyTextureObject(fromArray), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGetTextureObjectResourceDesc(&resourceBack, fromArray),
               cudaErrorInvalidValue);
  CHECK_OK(cudaDestroyTextureObject(0));

  // Surface objects need an array allocated for surface load/store.
  cudaSurfaceObject_t surface = 0;
  resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = image;
  CHECK_OK(cudaCreateSurfaceObject(&surface, &resource));
  CHECK(surface != 0);
  resourceBack = {};
  CHECK_OK(cudaGetSurfaceObjectResourceDesc(&resourceBack, surface));
  CHECK(resourceBack.resType == cudaResourceTypeArray &&
        resourceBack.res.array.array == image);
  CHECK_OK(cudaDestroySurfaceObject(surface));
  checkLogged({"surface " + std::to_string(surface) +
               " array 8x4x0 format=0x20 channels=1"},
              "surface ");
  checkLogged({"destroy surface " + std::to_string(surface)},
              "destroy surface ");
  CHECK_EQ_ERR(cudaDestroySurfaceObject(surface), cudaErrorInvalidValue);
  resource.res.array.array = volume;
  CHECK_EQ_ERR(cudaCreateSurfaceObject(&surface, &resource),
               cudaErrorInvalidValue);
  resource = {};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = bytes;
  resource.res.linear.desc = uchar4Desc;
  resource.res.linear.sizeInBytes = 256;
  CHECK_EQ_ERR(cudaCreateSurfaceObject(&surface, &resource),
               cudaErrorInvalidValue);

  // Errors: 3-channel formats, mipmapped arrays, resource views, handles
  // that are not arrays, and freeing an array twice.
  cudaChannelFormatDesc float3Desc =
      cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaArray_t invalid = nullptr;
  CHECK_EQ_ERR(cudaMallocArray(&invalid, &float3Desc, 4),
               cudaErrorInvalidChannelDescriptor);
  resource.res.linear.desc = float3Desc;
  cudaTextureObject_t texture = 0;
  CHECK_EQ_ERR(
      cudaCreateTextureObject(&texture, &resource, &pointSampler, nullptr),
      cudaErrorInvalidChannelDescriptor);
  resource = {};
  resource.resType = cudaResourceTypeMipmappedArray;
  CHECK_EQ_ERR(
      cudaCreateTextureObject(&texture, &resource, &pointSampler, nullptr),
      cudaErrorNotSupported);
  resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = image;
  cudaResourceViewDesc view = {};
  CHECK_EQ_ERR(
      cudaCreateTextureObject(&texture, &resource, &pointSampler, &view),
      cudaErrorNotSupported);
  auto notAnArray = reinterpret_cast<cudaArray_t>(bytes);
  resource.res.array.array = notAnArray;
  CHECK_EQ_ERR(
      cudaCreateTextureObject(&texture, &resource, &pointSampler, nullptr),
      cudaErrorInvalidResourceHandle);
  CHECK_EQ_ERR(cudaArrayGetInfo(&desc, &extent, &flags, notAnArray),
               cudaErrorInvalidResourceHandle);
  CHECK_EQ_ERR(cudaMemcpy2DToArray(notAnArray, 0, 0, host, sizeof(host[0]),
                                   sizeof(host[0]), 4, cudaMemcpyHostToDevice),
               cudaErrorInvalidResourceHandle);
  CHECK_EQ_ERR(cudaMemcpyToArray(notAnArray, 0, 0, linear, sizeof(linear),
                                 cudaMemcpyHostToDevice),
               cudaErrorInvalidResourceHandle);
  for (cudaArray_t array : {line, image, volume, layers, unorm, copy})
    CHECK_OK(cudaFreeArray(array));
  CHECK_EQ_ERR(cudaFreeArray(line), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGetChannelDesc(&desc, line), cudaErrorInvalidResourceHandle);
  CHECK_OK(cudaFreeArray(nullptr));
  CHECK_OK(cudaFree(pitched));
  CHECK_OK(cudaFree(bytes));
  cudaGetLastError();
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

  // A cooperative launch goes to the driver's cuLaunchCooperativeKernel,
  // which refuses a grid larger than the device holds at once.
  truncate(logPath.c_str(), 0);
  CHECK_OK(cudaLaunchCooperativeKernel(
      reinterpret_cast<const void *>(scaleStub), dim3(4, 2, 1), dim3(128, 1, 1),
      args, 256, nullptr));
  log = readLog();
  CHECK(log.size() == 2 && log[0] == "cooperative " + expected);
  CHECK_EQ_ERR(
      cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(scaleStub),
                                  dim3(217), dim3(32), args, 0, nullptr),
      cudaErrorCooperativeLaunchTooLarge);

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

} // namespace

// The per-thread default stream variants that the toolkit's headers rename
// the capture and graph launch calls to (CUDA_API_PER_THREAD_DEFAULT_STREAM).
extern "C" {
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t, cudaStreamCaptureMode);
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t, cudaGraph_t *);
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t, cudaStreamCaptureStatus *);
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t,
                                          cudaStreamCaptureStatus *,
                                          unsigned long long *, cudaGraph_t *,
                                          const cudaGraphNode_t **,
                                          const cudaGraphEdgeData **, size_t *);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t, cudaStream_t);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t, cudaStream_t);
}

namespace {

cudaStreamCaptureStatus captureStatus(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
  CHECK_OK(cudaStreamIsCapturing(stream, &status));
  return status;
}

/// Captures in `stream`: a copy of `host` to `device`, a memset of its
/// first `cleared` ints, a launch of `scale` (two kernels: the kernel and
/// its epilogue) with `factor`, a copy back to `back`, and a host function
/// counting `runs`.
cudaGraph_t captureSteps(cudaStream_t stream, int *device, const int *host,
                         int *back, size_t bytes, int cleared, float factor,
                         int *runs) {
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_OK(
      cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
  CHECK_OK(cudaMemsetAsync(device, 0, cleared * sizeof(int), stream));
  int count = 256;
  Triple triple = {1.0f, 2.0f, 3.0f};
  void *args[] = {&device, &count, &factor, &triple};
  CHECK_OK(cudaLaunchKernel(reinterpret_cast<const void *>(scaleStub), dim3(2),
                            dim3(64), args, 0, stream));
  CHECK_OK(
      cudaMemcpyAsync(back, device, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK_OK(cudaLaunchHostFunc(stream, countHostFunction, runs));
  cudaGraph_t graph = nullptr;
  CHECK_OK(cudaStreamEndCapture(stream, &graph));
  CHECK(graph != nullptr);
  return graph;
}

/// The launch log lines of one run of captureSteps' kernel launch.
std::vector<std::string> capturedLaunchLog(int *device, float factor) {
  int count = 256;
  Triple triple = {1.0f, 2.0f, 3.0f};
  return {"launch _Z5scalePfifS_ grid=2,1,1 block=64,1,1 shared=0 params=" +
              hex(&device, 8) + "," + hex(&count, 4) + "," + hex(&factor, 4) +
              "," + hex(&triple, 12),
          "launch _Z5scalePfifS__epilogue grid=1,1,1 block=32,1,1 shared=0 "
          "params=" +
              hex(&device, 8)};
}

/// Stream capture and graphs are the driver's: the fake records what a
/// capturing stream is given and runs it when the graph is launched.
void checkGraphs() {
  constexpr int n = 16;
  int host[n], back[n];
  for (int i = 0; i < n; ++i)
    back[i] = -1;
  int *device = nullptr;
  CHECK_OK(cudaMalloc(&device, sizeof(host)));
  cudaStream_t stream = nullptr;
  CHECK_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(captureStatus(stream) == cudaStreamCaptureStatusNone);

  // Nothing captured runs during the capture, kernels included.
  truncate(logPath.c_str(), 0);
  int runs = 0;
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(captureStatus(stream) == cudaStreamCaptureStatusActive);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t *dependencies = nullptr;
  const cudaGraphEdgeData *edgeData = nullptr;
  size_t numDependencies = 42;
  CHECK_OK(cudaStreamGetCaptureInfo(stream, &status, &id, &capturing,
                                    &dependencies, &edgeData,
                                    &numDependencies));
  CHECK(status == cudaStreamCaptureStatusActive && id != 0 &&
        capturing != nullptr && numDependencies == 0);
  // The graph being captured into is not finished.
  cudaGraphExec_t early = nullptr;
  CHECK_EQ_ERR(cudaGraphInstantiate(&early, capturing, 0),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphDestroy(capturing), cudaErrorInvalidValue);
  CHECK_OK(cudaStreamEndCapture(stream, &capturing));
  CHECK_OK(cudaGraphDestroy(capturing));
  cudaGraph_t graph =
      captureSteps(stream, device, host, back, sizeof(host), 2, 2.0f, &runs);
  CHECK(captureStatus(stream) == cudaStreamCaptureStatusNone);
  CHECK(runs == 0 && back[0] == -1 && back[n - 1] == -1);
  CHECK(readLog().empty());
  size_t count = 0;
  CHECK_OK(cudaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 6);
  cudaGraphNode_t nodes[8];
  count = 8;
  CHECK_OK(cudaGraphGetNodes(graph, nodes, &count));
  CHECK(count == 6 && nodes[5] != nullptr && nodes[6] == nullptr);

  // Each launch runs the captured work again, on the host data of its time
  // and with the kernel arguments of the capture.
  cudaGraphExec_t exec = nullptr;
  CHECK_OK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_OK(cudaGraphUpload(exec, stream));
  for (int launch = 1; launch <= 2; ++launch) {
    for (int i = 0; i < n; ++i)
      host[i] = launch * 100 + i;
    CHECK_OK(cudaGraphLaunch(exec, stream));
    CHECK_OK(cudaStreamSynchronize(stream));
    CHECK(runs == launch);
    CHECK(back[0] == 0 && back[1] == 0 && back[2] == launch * 100 + 2 &&
          back[n - 1] == launch * 100 + n - 1);
  }
  std::vector<std::string> once = capturedLaunchLog(device, 2.0f);
  std::vector<std::string> twice = once;
  twice.insert(twice.end(), once.begin(), once.end());
  checkLogged(twice, "launch ");

  // An update takes the parameters of a graph of the same shape: here a
  // longer memset and another factor.
  cudaGraph_t same =
      captureSteps(stream, device, host, back, sizeof(host), 4, 5.0f, &runs);
  cudaGraphExecUpdateResultInfo info = {};
  info.result = cudaGraphExecUpdateError;
  CHECK_OK(cudaGraphExecUpdate(exec, same, &info));
  CHECK(info.result == cudaGraphExecUpdateSuccess);
  truncate(logPath.c_str(), 0);
  CHECK_OK(cudaGraphLaunch(exec, stream));
  CHECK_OK(cudaStreamSynchronize(stream));
  CHECK(runs == 3 && back[3] == 0 && back[4] == 204);
  checkLogged(capturedLaunchLog(device, 5.0f), "launch ");
  // A graph of another shape is refused, and the executable graph is
  // unchanged.
  cudaGraph_t other = nullptr;
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  CHECK_OK(cudaMemsetAsync(device, 0, sizeof(host), stream));
  CHECK_OK(cudaStreamEndCapture(stream, &other));
  info = {};
  CHECK_EQ_ERR(cudaGraphExecUpdate(exec, other, &info),
               cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  CHECK_EQ_ERR(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
  cudaGraphExec_t single = nullptr;
  CHECK_OK(cudaGraphInstantiateWithFlags(&single, other, 0));
  cudaGraph_t host1 = nullptr;
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_OK(cudaLaunchHostFunc(stream, countHostFunction, &runs));
  CHECK_OK(cudaStreamEndCapture(stream, &host1));
  cudaGraphNode_t hostNode = nullptr;
  count = 1;
  CHECK_OK(cudaGraphGetNodes(host1, &hostNode, &count));
  info = {};
  CHECK_EQ_ERR(cudaGraphExecUpdate(single, host1, &info),
               cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorNodeTypeChanged &&
        info.errorNode == hostNode);
  CHECK_OK(cudaGraphExecUpdate(single, other, nullptr));
  CHECK_OK(cudaGraphExecDestroy(single));
  for (int i = 0; i < n; ++i)
    host[i] = 7;
  CHECK_OK(cudaGraphLaunch(exec, stream));
  CHECK(runs == 4 && back[3] == 0 && back[4] == 7);

  // Streams that wait for an event recorded in a capture join it.
  cudaStream_t side = nullptr;
  CHECK_OK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  cudaEvent_t fork = nullptr, join = nullptr;
  CHECK_OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK_OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  cudaGraph_t forked = nullptr;
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_OK(cudaEventRecord(fork, stream));
  CHECK_OK(cudaStreamWaitEvent(side, fork, 0));
  CHECK(captureStatus(side) == cudaStreamCaptureStatusActive);
  CHECK_OK(cudaMemsetAsync(device, 1, sizeof(int), side));
  CHECK_OK(cudaLaunchHostFunc(stream, countHostFunction, &runs));
  CHECK_OK(cudaEventRecord(join, side));
  CHECK_OK(cudaStreamWaitEvent(stream, join, 0));
  CHECK_OK(cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr,
                                    &dependencies, &edgeData,
                                    &numDependencies));
  CHECK(numDependencies == 2 && edgeData && edgeData[1].type == 0);
  // Only the origin stream ends the capture.
  CHECK_EQ_ERR(cudaStreamEndCapture(side, &forked),
               cudaErrorStreamCaptureUnmatched);
  CHECK_EQ_ERR(cudaStreamEndCapture(stream, &forked),
               cudaErrorStreamCaptureInvalidated);
  CHECK(forked == nullptr &&
        captureStatus(side) == cudaStreamCaptureStatusNone);
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_OK(cudaEventRecord(fork, stream));
  CHECK_OK(cudaStreamWaitEvent(side, fork, 0));
  CHECK_OK(cudaMemsetAsync(device, 1, sizeof(int), side));
  CHECK_OK(cudaEventRecord(join, side));
  CHECK_OK(cudaStreamWaitEvent(stream, join, 0));
  CHECK_OK(cudaLaunchHostFunc(stream, countHostFunction, &runs));
  CHECK_OK(cudaStreamEndCapture(stream, &forked));
  CHECK(captureStatus(side) == cudaStreamCaptureStatusNone && runs == 4);
  cudaGraphExec_t forkedExec = nullptr;
  CHECK_OK(cudaGraphInstantiate(&forkedExec, forked));
  CHECK_OK(cudaGraphLaunch(forkedExec, side));
  int first = 0;
  CHECK_OK(cudaMemcpy(&first, device, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(runs == 5 && first == 0x01010101);
  CHECK_OK(cudaGraphExecDestroy(forkedExec));
  CHECK_OK(cudaEventDestroy(fork));
  CHECK_OK(cudaEventDestroy(join));
  CHECK_OK(cudaStreamDestroy(side));

  // The per-thread default stream can be captured, through the _ptsz calls
  // too; the legacy one cannot.
  cudaGraph_t perThread = nullptr;
  CHECK_OK(cudaStreamBeginCapture_ptsz(nullptr, cudaStreamCaptureModeGlobal));
  CHECK(captureStatus(cudaStreamPerThread) == cudaStreamCaptureStatusActive);
  CHECK(captureStatus(stream) == cudaStreamCaptureStatusNone);
  status = cudaStreamCaptureStatusNone;
  CHECK_OK(cudaStreamIsCapturing_ptsz(nullptr, &status));
  CHECK(status == cudaStreamCaptureStatusActive);
  id = 0;
  CHECK_OK(cudaStreamGetCaptureInfo_ptsz(nullptr, &status, &id, nullptr,
                                         nullptr, nullptr, nullptr));
  CHECK(status == cudaStreamCaptureStatusActive && id != 0);
  CHECK_OK(cudaLaunchHostFunc(cudaStreamPerThread, countHostFunction, &runs));
  CHECK_OK(cudaStreamEndCapture_ptsz(nullptr, &perThread));
  cudaGraphExec_t perThreadExec = nullptr;
  CHECK_OK(cudaGraphInstantiate(&perThreadExec, perThread, 0));
  CHECK_OK(cudaGraphUpload_ptsz(perThreadExec, nullptr));
  CHECK_OK(cudaGraphLaunch_ptsz(perThreadExec, nullptr));
  CHECK(runs == 6);
  CHECK_OK(cudaGraphExecDestroy(perThreadExec));
  CHECK_EQ_ERR(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal),
               cudaErrorStreamCaptureUnsupported);
  CHECK_EQ_ERR(
      cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal),
      cudaErrorStreamCaptureUnsupported);

  // Misuse.
  cudaGraph_t none = nullptr;
  CHECK_EQ_ERR(cudaStreamEndCapture(stream, &none), cudaErrorIllegalState);
  CHECK_EQ_ERR(cudaStreamEndCapture(stream, nullptr), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphLaunch(nullptr, stream), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphUpload(nullptr, stream), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphExecDestroy(nullptr), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphInstantiate(nullptr, graph, 0), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphInstantiate(&single, nullptr, 0),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphGetNodes(graph, nullptr, nullptr),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaStreamIsCapturing(stream, nullptr), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaStreamGetCaptureInfo(stream, nullptr),
               cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphCreate(&none, 1), cudaErrorInvalidValue);
  CHECK_EQ_ERR(
      cudaStreamBeginCapture(stream, static_cast<cudaStreamCaptureMode>(3)),
      cudaErrorInvalidValue);
  CHECK_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_EQ_ERR(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal),
               cudaErrorIllegalState);
  // Waiting for a capturing stream invalidates its capture.
  CHECK_EQ_ERR(cudaStreamSynchronize(stream),
               cudaErrorStreamCaptureUnsupported);
  CHECK(captureStatus(stream) == cudaStreamCaptureStatusInvalidated);
  CHECK_EQ_ERR(cudaMemsetAsync(device, 0, 4, stream),
               cudaErrorStreamCaptureInvalidated);
  none = graph;
  CHECK_EQ_ERR(cudaStreamEndCapture(stream, &none),
               cudaErrorStreamCaptureInvalidated);
  CHECK(none == nullptr &&
        captureStatus(stream) == cudaStreamCaptureStatusNone);

  // Capture modes are swapped per thread.
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK_OK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == cudaStreamCaptureModeGlobal);
  CHECK_OK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == cudaStreamCaptureModeRelaxed);
  CHECK_EQ_ERR(cudaThreadExchangeStreamCaptureMode(nullptr),
               cudaErrorInvalidValue);

  // Graphs made empty, and destroyed: the executable graph keeps its work.
  cudaGraph_t empty = nullptr;
  CHECK_OK(cudaGraphCreate(&empty, 0));
  count = 42;
  CHECK_OK(cudaGraphGetNodes(empty, nullptr, &count));
  CHECK(count == 0);
  for (cudaGraph_t g : {graph, same, other, host1, forked, perThread, empty})
    CHECK_OK(cudaGraphDestroy(g));
  CHECK_EQ_ERR(cudaGraphDestroy(nullptr), cudaErrorInvalidValue);
  CHECK_EQ_ERR(cudaGraphDestroy(empty), cudaErrorInvalidValue);
  CHECK_OK(cudaGraphLaunch(exec, stream));
  CHECK(runs == 7);
  CHECK_OK(cudaGraphExecDestroy(exec));
  CHECK_EQ_ERR(cudaGraphLaunch(exec, stream), cudaErrorInvalidValue);
  CHECK_OK(cudaStreamDestroy(stream));
  CHECK_OK(cudaFree(device));
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
  checkArraysAndTextures();
  checkSymbols();
  checkLaunches();
  checkStreams();
  checkGraphs();
  unlink(path);
  return finishTest("GpuRuntimeTest");
}
